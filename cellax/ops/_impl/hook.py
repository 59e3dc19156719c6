"""ops.HookBackward: an identity whose backward rule calls a user function; Tensor.register_hook."""

from __future__ import annotations

from ..._core._seams import TENSOR_METHODS
from ..._transforms import _custom_vjp
from .primitive import Primitive

__all__ = [
    "HookBackward",
]

TENSOR_METHODS.fill({"register_hook": _custom_vjp.tensor_register_hook})


class HookBackward(Primitive):
    """Capture (and optionally replace) the gradient flowing back through its inputs.

    In the forward pass the inputs are returned unchanged. In the backward pass
    ``hook_fn(grad_out)`` is called with the tuple of gradients of the inputs; returning None
    keeps them, returning a tuple replaces them. Inside ``cellax.jit`` an observing hook runs
    at every call with the real gradients (``jax.debug.callback``); a replacing hook is traced.

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
