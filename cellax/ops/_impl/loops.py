"""MindSpore's functional loop primitives: ``WhileLoop``, ``ForiLoop``, ``Scan``.

Eagerly they loop in Python; inside ``cellax.jit``/GRAPH_MODE a loop whose condition or bound is
a traced Tensor becomes one ``lax.while_loop`` (a bounded ``lax.scan`` under grad), through the
same operators as a converted Python ``while``/``for`` (``cellax._control_flow``).
"""

from __future__ import annotations

from ..._transforms import _control_flow
from .primitive import Primitive

__all__ = [
    "WhileLoop",
    "ForiLoop",
    "Scan",
]


class _Box:
    """The loop state as one variable of a converted loop."""

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value

    def get(self):
        return (self.value,)

    def set(self, values) -> None:
        self.value = values[0]


def _call(fn, *args):
    return _control_flow.call_converted(fn, *args)


class WhileLoop(Primitive):
    """``while cond_func(val): val = loop_func(val)`` (``mindspore.ops.WhileLoop``).

    Inputs:
        - **cond_func** (Callable) - The condition on the loop value.
        - **loop_func** (Callable) - The step; returns a value of the same structure.
        - **init_val** (Union[Tensor, number, tuple, list]) - The initial value.

    Outputs:
        The final value.

    Raises:
        ValueError, TypeError: If the step changes a Tensor's shape or dtype under jit.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> print(ops.WhileLoop()(lambda v: v < 10, lambda v: v * 2, ms.Tensor(1)))
        16
    """

    def __call__(self, cond_func, loop_func, init_val):
        box = _Box(init_val)

        def test():
            return _call(cond_func, box.value)

        def body():
            box.value = _call(loop_func, box.value)

        _control_flow.while_stmt(test, body, box.get, box.set, ("init_val",), "ops.WhileLoop")
        return box.value


class ForiLoop(Primitive):
    """``for i in range(lower, upper): val = loop_func(i, val)`` (``mindspore.ops.ForiLoop``).

    Inputs:
        - **lower** (Union[int, Tensor]) - The first index.
        - **upper** (Union[int, Tensor]) - The end of the range (excluded).
        - **loop_func** (Callable) - ``loop_func(i, val)`` returns the next value.
        - **init_val** (Union[Tensor, number, tuple, list]) - The initial value.
        - **unroll** (bool) - Unroll when the bounds are Python ints. Default: ``True``.

    Outputs:
        The final value.

    Raises:
        TypeError: If a bound is not an int or a 0-d integer Tensor.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> print(ops.ForiLoop()(0, 5, lambda i, acc: acc + i, ms.Tensor(0)))
        10

    Differences from MindSpore: a traced bound always gives a loop (``unroll`` is used only
    for Python bounds, which always unroll).
    """

    def __call__(self, lower, upper, loop_func, init_val, unroll=True):
        box = _Box(init_val)

        def body(i):
            box.value = _call(loop_func, i, box.value)

        iterable = _control_flow.range_(lower, upper)
        _control_flow.for_stmt(
            iterable, None, body, box.get, box.set, ("init_val",), "ops.ForiLoop"
        )
        return box.value


class Scan(Primitive):
    """Scan ``loop_func`` over ``xs`` carrying ``init`` (``mindspore.ops.Scan``).

    Inputs:
        - **loop_func** (Callable) - ``loop_func(carry, x)`` returns ``(carry, y)``.
        - **init** (Union[Tensor, number, tuple, list]) - The initial carry.
        - **xs** (Union[tuple, list, Tensor, None]) - The elements scanned over (a Tensor's
          first axis); None scans ``length`` times with ``x`` None.
        - **length** (int) - The number of steps when ``xs`` is None. Default: ``None``.
        - **unroll** (bool) - Accepted. Default: ``True``.

    Outputs:
        Tuple ``(carry, ys)`` with ``ys`` the list of the ``y`` of every step.

    Raises:
        ValueError: If ``xs`` and ``length`` are both None.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> carry, ys = ops.Scan()(lambda c, v: (c + v, c), ms.Tensor(0), [ms.Tensor(1), ms.Tensor(2)])
        >>> print(carry, ys)
        3 [Tensor(shape=[], dtype=Int64, value= 0), Tensor(shape=[], dtype=Int64, value= 1)]

    Differences from MindSpore: the scan is always unrolled (``xs`` has a static length).
    """

    def __call__(self, loop_func, init, xs, length=None, unroll=True):
        if xs is None:
            if length is None:
                raise ValueError("For 'Scan', 'xs' and 'length' can not both be None.")
            xs = [None] * length
        carry = init
        ys = []
        for x in xs:
            carry, y = _call(loop_func, carry, x)
            ys.append(y)
        return carry, ys
