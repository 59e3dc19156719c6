"""Backward hooks and custom bprop at the Cell boundary (jax.custom_vjp). (in progress)"""

from __future__ import annotations


def run_with_backward_hooks(cell, construct_call, args, kwargs):
    return construct_call(*args, **kwargs)


def run_with_bprop(cell, args, kwargs):
    return cell.construct(*args, **kwargs)
