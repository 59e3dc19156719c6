"""``mindspore.train.data_sink``: a function run on the next batches of a dataset per call."""

from __future__ import annotations

import functools

from .._checkparam import check_value_type

__all__ = ["data_sink"]


def data_sink(fn, dataset, sink_size: int = 1, jit_config=None, input_signature=None):
    """Wrap ``fn`` so that each call runs it on the next ``sink_size`` batches of ``dataset``.

    Args:
        fn (Callable): Called as ``fn(*columns)`` with each batch's columns as Tensors.
        dataset (Dataset): The dataset; it is read over and over (epoch after epoch).
        sink_size (int): How many batches one call consumes. Default: ``1``.
        jit_config (JitConfig): When given, ``fn`` is compiled with :func:`cellax.jit`
            (MindSpore's graph mode for the sink). Default: ``None`` (run as it is).
        input_signature: Accepted for compatibility (shapes come from the data).

    Returns:
        Callable: ``sink_process()``, returning ``fn``'s output on the last batch it read.

    Raises:
        TypeError: If ``sink_size`` is not an int.
        ValueError: If ``sink_size`` is not positive.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import dataset as ds
        >>> data = ds.NumpySlicesDataset({"x": np.ones((1,), np.int32), "y": np.ones((1,), np.int32)})
        >>> sink_process = ms.data_sink(lambda x, y: x + y, data, sink_size=1)
        >>> for _ in range(2):
        ...     print(sink_process())
        2
        2

    MindSpore: https://www.mindspore.cn/docs/en/r2.7.0/api_python/mindspore/mindspore.data_sink.html

    Differences from MindSpore: it runs on every device; MindSpore 2.10 raises
    ``ValueError`` on CPU ("Data sinking supports ascend or gpu device target"). The batches
    are read on the host and passed to ``fn`` (XLA has no device-side data queue); with
    ``jit_config`` each step is one compiled call, as MindSpore's GPU sink runs ``sink_size``
    compiled steps per call.
    """
    check_value_type("sink_size", sink_size, [int], "Data sink")
    if isinstance(sink_size, bool) or sink_size <= 0:
        raise ValueError(f"The 'sink_size' must be positive, but got sink_size {sink_size}.")
    del input_signature
    if jit_config is not None:
        from .._transforms import jit

        step = jit(fn)
    else:
        step = fn
    batches = []  # the dataset's endless iterator, made on the first call

    @functools.wraps(fn)
    def sink_process(*args, **kwargs):
        if not batches:
            batches.append(dataset.create_tuple_iterator(num_epochs=-1, output_numpy=False))
        out = None
        for _ in range(sink_size):
            try:
                columns = next(batches[0])
            except StopIteration:  # the end of an epoch: the iterator goes on with the next
                columns = next(batches[0])
            out = step(*columns)
        return out

    return sink_process
