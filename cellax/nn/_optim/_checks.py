"""Helpers of the optimizers: the parameter-list check and gradient centralization."""

from __future__ import annotations

import collections.abc

import jax.numpy as jnp

from ..._tensor import Tensor


def check_parameter_list(api: str, name: str, parameters) -> list:
    if parameters is None:
        raise ValueError(f"For '{api}', the argument '{name}' can not be None.")
    if isinstance(parameters, (Tensor, dict, str)) or not isinstance(
        parameters, collections.abc.Iterable
    ):
        raise TypeError(
            f"For '{api}', the argument '{name}' must be an iterable of Parameters or of group "
            f"dicts, but got {type(parameters).__name__}."
        )
    items = list(parameters)
    if not items:
        raise ValueError(
            f"For '{api}', the argument '{name}' must not be empty: pass e.g. "
            f"net.trainable_params()."
        )
    return items


def centralize(grad):
    """Gradient centralization: subtract the mean over all axes but the first.

    MindSpore applies it only to gradients of rank >= 2 whose second dimension is a multiple
    of 16; others pass unchanged.
    """
    if grad.ndim < 2 or grad.shape[1] % 16 != 0:
        return grad
    return grad - jnp.mean(grad, axis=tuple(range(1, grad.ndim)), keepdims=True)
