"""The one loader of recorded goldens (tests/goldens/): JSON, NPZ and the case modules, and the
one comparison of a recorded call's outcome (:func:`assert_same_outcome`).

Each golden file is written by a recording script beside it (``tests/goldens/record_*.py``,
run with MindSpore 2.10); tests only load them, never run MindSpore.
"""

from __future__ import annotations

import builtins
import functools
import importlib.util
import json
import pathlib
import sys
import warnings

import numpy as np

GOLDENS = pathlib.Path(__file__).resolve().parent / "goldens"
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"

__all__ = [
    "GOLDENS",
    "FIXTURES",
    "path",
    "load_json",
    "load_npz",
    "load_cases",
    "load_module",
    "assert_same_outcome",
]


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


def assert_same_outcome(name: str, code: str, expected: str, scope: dict, names_api) -> None:
    """Evaluate ``code`` in a copy of ``scope`` (warnings silenced) and assert the outcome
    MindSpore recorded: ``expected`` is "ok" (it returns) or the builtin exception type it
    raises, and then ``names_api(message)`` must hold (the message names the API called)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            eval(code, dict(scope))
    except Exception as error:  # noqa: BLE001 - compared with the recorded type
        assert expected != "ok", f"{name}: MindSpore returns, cellax raised {error!r}"
        assert isinstance(error, getattr(builtins, expected)), (name, expected, repr(error))
        text = str(error.args[0] if isinstance(error, KeyError) and error.args else error)
        assert names_api(text), (name, text)
    else:
        assert expected == "ok", f"{name}: MindSpore raises {expected}, cellax returned"
