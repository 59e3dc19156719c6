"""Compatibility shim: gradient hooks and custom bprop now live in
:mod:`cellax._transforms._custom_vjp`."""

from ._transforms._custom_vjp import *  # noqa: F401,F403
