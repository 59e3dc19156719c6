"""ops.HookBackward and ops.InsertGradientOf: identities whose backward rule calls a user
function; Tensor.register_hook."""

from __future__ import annotations

from ..._core._seams import TENSOR_METHODS
from ..._transforms import _custom_vjp
from .primitive import Primitive

__all__ = [
    "HookBackward",
    "InsertGradientOf",
]

TENSOR_METHODS.fill({"register_hook": _custom_vjp.tensor_register_hook})


class HookBackward(Primitive):
    """Capture (and optionally replace) the gradient flowing back through its inputs.

    In the forward pass the inputs are returned unchanged. In the backward pass
    ``hook_fn(grad_out)`` is called with the tuple of gradients of the inputs; returning None
    keeps them, returning a tuple replaces them. Inside ``cellax.jit`` and GRAPH_MODE the
    op is left out, as in MindSpore 2.10 (the hook is not called); with
    ``set_context(jit_hook_backward=True)`` it runs there too: an observing hook at every
    call with the real gradients (``jax.debug.callback``), a replacing hook traced.

    Args:
        hook_fn (function): ``hook_fn(grad_out) -> None or tuple of new gradients``.
        cell_id (str): Accepted for compatibility (MindSpore uses it to name the hook).
            Default: ``''``.

    Inputs:
        - **inputs** (Tensor) - One or more Tensors.

    Outputs:
        The inputs, unchanged: a Tensor for one input, else a tuple.

    Raises:
        TypeError: If ``hook_fn`` is not callable or ``cell_id`` is not a str.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> def hook_fn(grad_out):
        ...     print("hook_fn print grad_out:", grad_out)
        >>> hook = ops.HookBackward(hook_fn)
        >>> def hook_test(x, y):
        ...     z = x * y
        ...     z = hook(z)
        ...     z = z * y
        ...     return z
        >>> output = ms.grad(hook_test, grad_position=(0, 1))(ms.Tensor(1, ms.float32),
        ...                                                   ms.Tensor(2, ms.float32))
        hook_fn print grad_out: (Tensor(shape=[], dtype=Float32, value= 2),)
        >>> print("output:", output)  # doctest: +NORMALIZE_WHITESPACE
        output: (Tensor(shape=[], dtype=Float32, value= 4),
                 Tensor(shape=[], dtype=Float32, value= 4))

    MindSpore API:
    https://www.mindspore.cn/docs/en/master/api_python/ops/mindspore.ops.HookBackward.html

    Differences from MindSpore: ``set_context(jit_hook_backward=True)`` (cellax's own) runs
    the hook inside ``jit`` / GRAPH_MODE too, where MindSpore never calls it.
    """

    def __init__(self, hook_fn, cell_id: str = "") -> None:
        super().__init__("HookBackward")
        if not callable(hook_fn):
            raise TypeError(
                f"For 'HookBackward', 'hook_fn' must be a Python function, but got "
                f"{type(hook_fn).__name__}."
            )
        if not isinstance(cell_id, str):
            raise TypeError(
                f"For 'HookBackward', 'cell_id' must be a str, but got {type(cell_id).__name__}."
            )
        self.hook_fn = hook_fn
        self.add_prim_attr("cell_id", cell_id)

    def __call__(self, *inputs):
        if not inputs:
            raise ValueError("For 'HookBackward', at least one input is required, but got 0.")
        outputs = _custom_vjp.hook_backward(self.hook_fn, inputs)
        return outputs[0] if len(outputs) == 1 else outputs


class InsertGradientOf(Primitive):
    """Pass a Tensor through unchanged and replace its gradient ``g`` with ``f(g)``.

    ``f(g) -> Tensor`` is called in the backward pass with the gradient arriving at the
    output (one Tensor) and returns the gradient passed on to the input, of the same shape
    (returning None keeps it). It runs eagerly and inside ``cellax.jit`` / GRAPH_MODE, where
    ``f`` is traced into the compiled gradient. Inputs that are not floating Tensors are
    returned as they are.

    Args:
        f (function): ``f(grad) -> new grad``.

    Inputs:
        - **input_x** (Tensor) - The Tensor whose gradient ``f`` replaces.

    Outputs:
        ``input_x``, unchanged.

    Raises:
        TypeError: If ``f`` is not callable, or returns a gradient of another shape.

    Examples:
        >>> import cellax as ms
        >>> from cellax import ops
        >>> clip = ops.InsertGradientOf(lambda g: ops.clip_by_value(g, -0.5, 0.5))
        >>> grad_fn = ms.grad(lambda x, y: clip(x * y) * 3, grad_position=(0, 1))
        >>> print(grad_fn(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, -4.0]))[1])
        [0.5 1. ]

    MindSpore API:
    https://www.mindspore.cn/docs/en/master/api_python/ops/mindspore.ops.InsertGradientOf.html
    """

    def __init__(self, f) -> None:
        super().__init__("InsertGradientOf")
        if not callable(f):
            raise TypeError(
                f"For 'InsertGradientOf', 'f' must be a Python function, but got "
                f"{type(f).__name__}."
            )
        self.f = f

    def __call__(self, input_x):
        return _custom_vjp.insert_gradient_of(self.f, input_x)
