"""MindSpore's SGD and Adam kernels as optax-style ``GradientTransformation``s.

Where MindSpore's kernel differs from every optax transformation (SGD's dampening and first
step, Adam's bias correction outside ``eps``, AMSGrad on the raw second moment) these small
transformations do that part; ``_algorithms`` composes them with optax's own.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax

__all__ = []


def _apply(tx: optax.GradientTransformation, grad, state, param):
    updates, new_state = tx.update(grad, state, param)
    return optax.apply_updates(param, updates), new_state


class _SgdState(NamedTuple):
    accum: optax.Updates
    stat: optax.Updates


def _scale_by_mindspore_sgd(momentum, dampening: float, nesterov: bool):
    """MindSpore's SGD kernel: the first step stores the raw gradient, later steps
    ``accum = momentum * accum + (1 - dampening) * grad``; ``stat`` marks the first step."""

    def init_fn(params):
        return _SgdState(optax.tree.zeros_like(params), optax.tree.ones_like(params))

    def update_fn(updates, state, params=None):
        del params

        def one(grad, accum, stat):
            blended = momentum * accum + (1.0 - dampening) * grad
            accum = jnp.where(stat > 0, grad, blended)
            direction = grad + momentum * accum if nesterov else accum
            return direction, accum

        pairs = jax.tree.map(one, updates, state.accum, state.stat)
        directions = jax.tree.map(lambda _, p: p[0], updates, pairs)
        accum = jax.tree.map(lambda _, p: p[1], updates, pairs)
        return directions, _SgdState(accum, optax.tree.zeros_like(state.stat))

    return optax.GradientTransformation(init_fn, update_fn)


class _AdamState(NamedTuple):
    mu: optax.Updates
    nu: optax.Updates
    nu_max: optax.Updates


def _scale_by_mindspore_adam(b1, b2, eps, correction, nesterov=False, amsgrad=False):
    """MindSpore's Adam direction ``correction * m / (sqrt(v) + eps)``; ``eps`` is added
    after the bias correction (``correction = sqrt(1 - b2^t) / (1 - b1^t)``; 1 for
    AdamWeightDecay). AMSGrad takes the maximum of the raw second moments."""

    def init_fn(params):
        zeros = optax.tree.zeros_like(params)
        return _AdamState(zeros, zeros, zeros)

    def update_fn(updates, state, params=None):
        del params
        mu = optax.tree.update_moment(updates, state.mu, b1, 1)
        nu = optax.tree.update_moment_per_elem_norm(updates, state.nu, b2, 2)
        nu_max = jax.tree.map(jnp.maximum, state.nu_max, nu) if amsgrad else state.nu_max
        second = nu_max if amsgrad else nu
        if nesterov:
            first = jax.tree.map(lambda m, g: b1 * m + (1.0 - b1) * g, mu, updates)
        else:
            first = mu
        directions = jax.tree.map(lambda m, v: correction * m / (jnp.sqrt(v) + eps), first, second)
        return directions, _AdamState(mu, nu, nu_max)

    return optax.GradientTransformation(init_fn, update_fn)
