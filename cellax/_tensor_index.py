"""Bounds of a Tensor index, checked as MindSpore does (JAX would clamp)."""

from __future__ import annotations

import jax
import numpy as np

from ._core._seams import TRACED_INDEX_CHECK


def check_index_bounds(shape: tuple, key, raw=None) -> None:
    """MindSpore raises IndexError for an out-of-range integer or list index and RuntimeError
    (its Gather kernel's) for an out-of-range Tensor index (JAX would clamp); ``raw`` is the
    key as the user wrote it, before its Tensors became arrays."""
    items = key if isinstance(key, tuple) else (key,)
    raws = raw if isinstance(raw, tuple) and len(raw) == len(items) else (raw,) * len(items)
    dim = 0
    for k, written in zip(items, raws):
        error = RuntimeError if hasattr(written, "_value") else IndexError  # a Tensor index
        if k is None:
            continue
        if k is Ellipsis:
            dim = len(shape) - sum(1 for i in items if i is not None and i is not Ellipsis)
            continue
        if dim >= len(shape):
            raise IndexError(
                f"For 'Tensor.__getitem__', too many indices for a Tensor of dimension "
                f"{len(shape)}."
            )
        if type(k) is int and not -shape[dim] <= k < shape[dim]:
            raise IndexError(
                f"For 'Tensor.__getitem__', index {k} is out of bounds for dimension {dim} "
                f"with size {shape[dim]}."
            )
        if isinstance(k, (jax.Array, np.ndarray)) and k.dtype == np.bool_:
            dim += k.ndim
            continue
        if isinstance(k, jax.core.Tracer) and TRACED_INDEX_CHECK.value is not None and k.size:
            TRACED_INDEX_CHECK.value("Tensor.__getitem__", "index", k, shape[dim], RuntimeError)
        elif (
            isinstance(k, (jax.Array, np.ndarray)) and k.size and not isinstance(k, jax.core.Tracer)
        ):
            values = np.asarray(k)
            bad = values[(values < -shape[dim]) | (values >= shape[dim])]
            if bad.size:
                raise error(
                    f"For 'Tensor.__getitem__', index {int(bad.flat[0])} is out of bounds for "
                    f"dimension {dim} with size {shape[dim]}."
                )
        dim += 1


MSG_TRACED_MASK = """\
For 'Tensor.{api}', a boolean mask index selects as many elements as its values say, but the \
mask is traced (inside cellax.jit, GRAPH_MODE or a grad/vmap transform) and has no value yet, \
so the result has no fixed shape. At {where}.

    ❌  y = x[x > 0]
    ✅  y = ops.masked_fill(x, x <= 0, 0.0)                    # same shape, others zeroed
    ✅  total = ops.select(x > 0, x, ops.zeros_like(x)).sum()  # reductions over the mask
    ✅  x[x > 0] = 0.0                                         # assigning one value works

Select with a mask eagerly (outside jit) when the selected elements themselves are needed."""


def traced_mask(key) -> bool:
    """Whether ``key`` holds a boolean array whose values are unknown (a jit tracer)."""
    from ._core import concrete

    items = key if isinstance(key, tuple) else (key,)
    return any(
        isinstance(k, jax.core.Tracer) and k.dtype == np.bool_ and concrete(k) is None
        for k in items
    )


def raise_traced_mask(api: str):
    from ._errors import user_frame

    raise RuntimeError(MSG_TRACED_MASK.format(api=api, where=user_frame()))


def masked_set(current, key, new):
    """``current`` with ``new`` written where the traced boolean ``key`` is True: the
    fixed-shape form of ``x[mask] = value`` (one value, or one row for every selected row)."""
    import jax.numpy as jnp

    mask = key
    rest = current.shape[getattr(mask, "ndim", 0) :]
    fits = isinstance(mask, jax.Array) and tuple(mask.shape) == current.shape[: mask.ndim]
    if (
        not fits
        or new.ndim > len(rest)
        or any(n not in (1, r) for n, r in zip(new.shape[::-1], rest[::-1]))
    ):
        raise_traced_mask("__setitem__")
    mask = mask.reshape(mask.shape + (1,) * len(rest))
    return jnp.where(mask, jnp.broadcast_to(new, rest), current)
