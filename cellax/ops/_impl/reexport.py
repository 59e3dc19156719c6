"""Fill MindSpore's ops submodules (``ops.operations.nn_ops``, ``ops.function.math_func``...)
with the cellax objects MindSpore 2.10 defines there (table in ``mindspore_paths.py``)."""

from __future__ import annotations

import sys

from .mindspore_paths import PATHS


def export(module_name: str, key: str, classes_only: bool = False) -> list:
    """Bind into module ``module_name`` the ``cellax.ops`` names MindSpore keeps in ``key``;
    return them (the module's ``__all__``)."""
    ops = sys.modules["cellax.ops"]
    module = sys.modules[module_name]
    names = []
    for name in PATHS.get(key, "").split():
        value = getattr(ops, name, None)
        if value is None or (classes_only and not isinstance(value, type)):
            continue
        setattr(module, name, value)
        names.append(name)
    return names


def keys(prefix: str) -> list:
    """The recorded submodule names under ``prefix`` (``"operations."`` -> ``["nn_ops", ...]``)."""
    return [key[len(prefix) :] for key in PATHS if key.startswith(prefix)]
