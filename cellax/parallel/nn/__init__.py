"""``mindspore.parallel.nn``: pipeline, micro-batch and gradient-accumulation wrappers.

All stages run in one compiled program (XLA has no automatic pipelining); the arithmetic is
MindSpore's: inputs are cut into micro-batches on dimension 0 and the outputs added.

Examples:
    >>> import cellax as ms
    >>> from cellax import nn
    >>> from cellax.parallel.nn import Pipeline
    >>> net = Pipeline(nn.ReLU(), 2)
    >>> print(net(ms.Tensor([[1.0], [-2.0]])))
    [[1.]]
"""

from ...nn._pipeline import (
    GradAccumulation,
    MicroBatchInterleaved,
    PipelineCell,
    PipelineGradReducer,
)


class Pipeline(PipelineCell):
    """``mindspore.parallel.nn.Pipeline``: :class:`PipelineCell` under its 2.6+ name.

    Args:
        network (Cell): The network with its loss.
        micro_size (int): The number of micro-batches.
        stage_config (dict): ``{cell name: stage}``. Default: ``None``.
        segment_config (dict): ``{cell name: segment}``. Default: ``None``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> from cellax.parallel.nn import Pipeline
        >>> print(Pipeline(nn.ReLU(), 2)(ms.Tensor([[1.0], [2.0]])))
        [[3.]]
    """


__all__ = [
    "PipelineCell",
    "Pipeline",
    "MicroBatchInterleaved",
    "GradAccumulation",
    "PipelineGradReducer",
]
