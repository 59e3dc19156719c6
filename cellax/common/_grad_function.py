"""``mindspore.common._Function``: a torch-style custom autograd function (``forward(ctx, ...)``
and ``backward(ctx, *grad_outputs)`` static methods, called through ``apply``), built on
``jax.custom_vjp``. ``ctx`` is an instance of the subclass; what ``forward`` (or
``setup_context``) stores on it reaches ``backward``: arrays as the rule's residuals, other
values as they are."""

from __future__ import annotations

import inspect
from typing import Any

import jax
import jax.numpy as jnp

from .. import _core, _dtype
from .._core import is_array
from .._tensor import Tensor, wrap_tree

__all__ = ["_Function"]


def _is_float(x) -> bool:
    return is_array(x) and _dtype.is_inexact(x.dtype)


class _Function:
    """A custom autograd function, as ``torch.autograd.Function``.

    Subclass it with static ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)``
    (one gradient, or None, per positional input of ``forward``), then call ``apply``.

    Examples:
        >>> import cellax as ms
        >>> class Triple(ms.common._Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * 2
        ...     @staticmethod
        ...     def backward(ctx, grad):
        ...         return grad * 3
        >>> ms.grad(lambda x: Triple.apply(x).sum())(ms.Tensor([1.0, 2.0])).tolist()
        [3.0, 3.0]

    MindSpore: https://github.com/mindspore-ai/mindspore/blob/master/mindspore/python/mindspore/common/_grad_function.py

    Differences from MindSpore: also works under ``jit`` / GRAPH_MODE (MindSpore: PyNative only);
    ``mark_dirty`` (in-place outputs) is recorded but has no effect.
    """

    _has_setup_context = False

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("forward function should be customized.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError("backward function should be customized.")

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> Any:
        """Save context information needed for the backward pass."""
        raise NotImplementedError("setup_context is not implemented.")

    def save_for_backward(self, *tensors) -> None:
        self.saved_tensors = tensors

    def mark_dirty(self, *args) -> None:
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args) -> None:
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` with ``backward`` as its gradient rule."""
        cls._has_setup_context = cls.setup_context is not _Function.setup_context
        if cls._has_setup_context:
            bound = inspect.signature(cls.forward).bind(None, *args, **kwargs)
            bound.apply_defaults()
            args, kwargs = tuple(bound.args[1:]), bound.kwargs
        dynamic, static = _core.partition((args, kwargs), _is_float)
        positions = _positions(args)
        saved: dict = {}

        def run(values):
            ctx = cls.__new__(cls)
            call_args, call_kwargs = wrap_tree(_core.combine(values, static))
            out = cls.forward(ctx, *call_args, **call_kwargs)
            if cls._has_setup_context:
                cls.setup_context(ctx, call_args, out)
            return _core.partition(out), ctx

        @jax.custom_vjp
        def pure(values):
            (out, saved["out"]), _ = run(values)
            return out

        def fwd(values):
            (out, out_static), ctx = run(values)
            residuals, saved["ctx"] = _core.partition(vars(ctx))
            saved["out"] = out_static
            return out, (residuals, out)

        def bwd(residuals, cts):
            ctx_values, out = residuals
            ctx = cls.__new__(cls)
            vars(ctx).update(wrap_tree(_core.combine(ctx_values, saved["ctx"])))
            grads_out = [
                jnp.zeros(o.shape, o.dtype) if c is None or c.dtype == jax.dtypes.float0 else c
                for c, o in zip(cts, out)
            ]
            grads = cls.backward(ctx, *wrap_tree(grads_out))
            if not isinstance(grads, (tuple, list)):
                grads = (grads,)
            return (_cotangents(cls.__name__, dynamic, positions, grads),)

        pure.defvjp(fwd, bwd)
        out = pure(dynamic)
        return wrap_tree(_core.combine(out, saved["out"]))


def _positions(args) -> list:
    """For each floating leaf of ``(args, kwargs)``, its positional index (None for keywords)."""
    positions = []
    for index, arg in enumerate(args):
        positions += [index if _is_float(leaf) else -1 for leaf in jax.tree_util.tree_leaves(arg)]
    positions = [p for p in positions if p != -1]
    return positions


def _cotangents(name, dynamic, positions, grads) -> list:
    cotangents = []
    for k, value in enumerate(dynamic):
        index = positions[k] if k < len(positions) else None
        grad = grads[index] if index is not None and index < len(grads) else None
        if grad is None:
            cotangents.append(jnp.zeros(value.shape, value.dtype))
            continue
        grad = grad._value if isinstance(grad, Tensor) else jnp.asarray(grad)
        if tuple(grad.shape) != tuple(value.shape):
            raise RuntimeError(
                f"For '{name}.backward', the gradient of input {index} must have shape "
                f"{tuple(value.shape)}, but got {tuple(grad.shape)}."
            )
        cotangents.append(grad.astype(value.dtype))
    return cotangents
