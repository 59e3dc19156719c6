"""Compatibility shim: hook registries now live in :mod:`cellax._core._registry`."""

from ._core._registry import HookDict, HookHandle, add_hook  # noqa: F401
