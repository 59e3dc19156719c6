"""Packages whose attribute and submodule share a name, as in MindSpore: ``mindspore.parallel
.shard`` is a function and ``import mindspore.parallel.shard`` a module;
``mindspore.profiler.schedule`` a class and a module. Python binds a submodule onto its package
whenever it is first imported (as the import alias does with ``mindspore.X``); a package that
calls :func:`keep_attributes` keeps its own object under those names instead.
"""

from __future__ import annotations

import sys
import types

__all__ = ["keep_attributes"]


class _Package(types.ModuleType):
    """A package that keeps the attributes named in ``_cellax_kept`` when a submodule of the
    same name is bound onto it."""

    def __setattr__(self, name: str, value) -> None:
        if isinstance(value, types.ModuleType) and name in self.__dict__.get("_cellax_kept", ()):
            return
        super().__setattr__(name, value)


def keep_attributes(package: str, *names: str) -> None:
    """Make the package ``package`` keep its current objects under ``names`` when its
    same-named submodules are imported."""
    module = sys.modules[package]
    if not isinstance(module, _Package):
        module.__class__ = _Package
        # a plain module has no ``__module__``; without this one it would read _Package's
        # (this file's name), and tools that place a module's members by it (griffe, for the
        # API pages) would take every member for an import from elsewhere
        module.__dict__["__module__"] = package
    module.__dict__["_cellax_kept"] = frozenset(module.__dict__.get("_cellax_kept", ())) | set(
        names
    )
