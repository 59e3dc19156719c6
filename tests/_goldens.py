"""The one loader of recorded goldens (tests/goldens/): JSON, NPZ and the case modules.

Each golden file is written by a recording script beside it (``tests/goldens/record_*.py``,
run with MindSpore 2.10); tests only load them, never run MindSpore.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import pathlib
import sys

import numpy as np

GOLDENS = pathlib.Path(__file__).resolve().parent / "goldens"
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"

__all__ = ["GOLDENS", "FIXTURES", "path", "load_json", "load_npz", "load_cases", "load_module"]


def path(name: str) -> pathlib.Path:
    """``tests/goldens/<name>`` (the file must exist)."""
    file = GOLDENS / name
    if not file.exists():
        raise FileNotFoundError(f"no golden file {file}: run its tests/goldens/record_*.py")
    return file


@functools.lru_cache(maxsize=None)
def _json(name: str):
    return json.loads(path(name).read_text())


def load_json(name: str, key: str | None = None):
    """The parsed ``tests/goldens/<name>`` (its ``key`` entry when given). Parsed once per
    process: treat the result as read-only."""
    data = _json(name)
    return data if key is None else data[key]


def load_cases(name: str, key: str = "cases") -> list:
    """The list of recorded cases of a JSON golden (its ``"cases"`` entry by default)."""
    return load_json(name, key)


def load_npz(name: str):
    """The arrays of ``tests/goldens/<name>`` (a ``numpy.lib.npyio.NpzFile``)."""
    return np.load(path(name))


def load_module(name: str):
    """Import ``tests/goldens/<name>.py`` (shared case tables and their recorders) once."""
    module = sys.modules.get(f"_goldens_{name}")
    if module is None:
        spec = importlib.util.spec_from_file_location(f"_goldens_{name}", path(f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return module
