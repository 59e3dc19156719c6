"""``check_numerics``: name the first Cell whose outputs (or their gradients) are NaN or Inf."""

from __future__ import annotations

import functools as ft
import itertools

import jax
import numpy as np

from ._observe import Recorder, cell_names, observing

__all__ = ["check_numerics"]

_tokens = itertools.count(1)
_KEEP = 64  # records of non-finite calls kept per run (the first ones are what matters)


def _finite(arrays) -> bool:
    return all(
        np.isfinite(a).all() for a in arrays if np.issubdtype(a.dtype, np.inexact) and a.size
    )


class check_numerics:
    """Raise naming the first Cell whose outputs hold NaN or Inf, eager or compiled.

    Use it as a wrapper, ``checked = check_numerics(step)`` (a function, a ``cellax.jit``
    function or a Cell; calling ``checked`` calls the step and checks it), or as a context
    manager, ``with check_numerics(): ...``. While it is active every Cell call reports its
    outputs to the host (``jax.debug.callback``; in a compiled program in program order, once
    per execution, so a Cell in a loop is checked at every iteration) and, with ``grads``, the
    gradients arriving at its outputs in the backward pass. When the step (or the ``with``
    block) finishes, the first offending call raises: preferably the first Cell whose inputs
    were finite and whose outputs are not (the Cell that produced the NaN), else the first
    Cell with a non-finite output. The step's own results and state writes stand (nothing is
    rolled back). A wrapper keeps its instrumented programs: repeated calls compile once.

    Args:
        fn (Union[Callable, Cell], optional): The step to wrap. Default: ``None`` (context
            manager use).
        grads (bool): Also check the gradients at Cell outputs. Default: ``True``.

    Raises:
        FloatingPointError: After the step, if a Cell produced NaN or Inf; the message names
            the Cell (``backbone.fc``), its class, the output index, and its ``construct``'s
            ``file:line``.

    Differences from MindSpore: MindSpore has no such tool (its closest is dumping tensors
    and comparing by hand); ``FloatingPointError`` is what ``jax_debug_nans`` raises too.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import nn, ops, Tensor
        >>> from cellax.debug import check_numerics
        >>> class Log(nn.Cell):
        ...     def construct(self, x):
        ...         return ops.log(x)
        >>> net = nn.SequentialCell(nn.ReLU(), Log())
        >>> checked = check_numerics(net, grads=False)
        >>> try:
        ...     checked(Tensor(np.array([-1.0, 2.0], np.float32)))
        ... except FloatingPointError as error:
        ...     print(str(error).split(" (")[0])
        For 'check_numerics', Cell '1' produced -Inf in output 0
    """

    def __init__(self, fn=None, *, grads: bool = True) -> None:
        if fn is not None and not callable(fn):
            raise TypeError(
                f"For 'check_numerics', 'fn' must be a function or a Cell, but got "
                f"{type(fn).__name__}."
            )
        if not isinstance(grads, bool):
            raise TypeError(
                f"For 'check_numerics', 'grads' must be a bool, but got {type(grads).__name__}."
            )
        self.fn = fn
        self.grads = grads
        self._recorder = Recorder(keep=self._keep)
        self._token = ("cellax.debug.check_numerics", next(_tokens))
        self._known = cell_names(fn) if fn is not None else {}
        if fn is not None:
            ft.update_wrapper(self, fn, updated=())
        self._observer = None

    def _keep(self, record) -> bool:
        return len(self._recorder.records) < _KEEP and not _finite(record.outputs)

    def __enter__(self):
        self._recorder.reset()
        self._observer = observing(self._recorder, self._known, self.grads, token=self._token)
        self._observer.__enter__()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        observer, self._observer = self._observer, None
        observer.__exit__(exc_type, exc, tb)
        jax.effects_barrier()
        if exc_type is None:
            self._raise_first()

    def __call__(self, *args, **kwargs):
        if self.fn is None:
            raise TypeError(
                "For 'check_numerics', the context-manager form (check_numerics()) is not "
                "callable: wrap a step with check_numerics(step) instead."
            )
        with self:
            return self.fn(*args, **kwargs)

    def _raise_first(self) -> None:
        records = self._recorder.records
        if not records:
            return
        produced = [r for r in records if r.kind == "grad" or _finite(r.inputs)]
        record = (produced or records)[0]
        for index, array in enumerate(record.outputs):
            if np.issubdtype(array.dtype, np.inexact) and not np.isfinite(array).all():
                break
        value = "NaN" if np.isnan(array).any() else ("-Inf" if (array == -np.inf).any() else "Inf")
        where = f"output {index}" if record.kind == "forward" else f"the gradient of output {index}"
        inputs = "its inputs were finite" if produced else "its inputs were already not finite"
        verb = "produced" if record.kind == "forward" else "received"
        raise FloatingPointError(
            f"For 'check_numerics', Cell '{record.label}' {verb} {value} in {where} "
            f"({record.cell_type}, construct at {record.source}; {inputs})."
        )
