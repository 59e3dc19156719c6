"""Differential tests of cellax.mint against MindSpore 2.10 CPU goldens (tests/goldens/mint.json).

Cases MindSpore CPU cannot run through mint were recorded through an equivalent ops/NumPy
expression (``via_ops``): values and shapes are compared, not the dtype. Cases MindSpore
rejects only because of a CPU-kernel/type limitation (no golden) are skipped with the reason.

Speed: compiling every op of ~550 cases one by one (eager dispatch) dominated the mint tests'
time, so the cases are evaluated in chunks, each chunk one ``cellax.jit`` program with the
namespace's Tensors as arguments (the results are those of the traced path, which training
code uses; every mint function's eager path runs in its doctest). A chunk that cannot be
traced (a case with a data-dependent shape or a Python result taken from a value) is split
until the offending case runs alone, eagerly. ``err_``/``rand_`` cases and :data:`EAGER` run
eagerly, one by one, as before.
"""

import contextlib
import importlib
import importlib.util
import json
import math
import os
import pathlib

import numpy as np
import pytest

import cellax as ms

_HERE = pathlib.Path(__file__).parents[1] / "goldens"
_spec = importlib.util.spec_from_file_location("mint_cases", os.fspath(_HERE / "mint_cases.py"))
mc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mc)
GOLDENS = json.loads((_HERE / "mint.json").read_text())
_NS = None
# Known cellax.ops defects surfaced by mint, {case: reason} (none at present).
KNOWN: dict = {}


# Cases whose result shape or value needs concrete data (known not to trace): run eagerly.
EAGER = {
    "F_one_hot", "L_BatchNorm2d_names", "bincount", "bincount_w", "empty_dtype", "item",
    "masked_select", "nonzero", "nonzero_tuple", "unique", "unique_all", "unique_consecutive",
    "where_one",
}  # fmt: skip
CHUNK = 48
# Inside cellax.jit, ops on constants are folded (run eagerly, one small compile each): the
# cases' constants (literals, creation ops) would cost ~300 such compiles. The chunks stage them
# into their program instead (a test-only speed-up; without it the results are the same).
_STAGED = getattr(importlib.import_module("cellax._transforms._fold"), "staged", None)
_STAGED = _STAGED or contextlib.nullcontext


def _namespace():
    global _NS
    if _NS is None:
        _NS = mc.namespace(ms)
    return dict(_NS)


def _traced_names():
    return [
        name
        for name in sorted(mc.CASES)
        if "error" not in GOLDENS[name]
        and name not in KNOWN
        and name not in EAGER
        and not name.startswith("err_")
    ]


_TRACED = _traced_names()
_CHUNK_OF = {name: i // CHUNK for i, name in enumerate(_TRACED)}
_RESULTS = {}  # case name -> normalized result, filled a chunk at a time


def _eager(name):
    ms.set_seed(0)
    return mc.normalize(eval(mc.CASES[name], _namespace()), ms)


def _run_traced(names):
    """Evaluate ``names`` in one jitted program (splitting it when it cannot be traced)."""
    ns = _namespace()
    keys = [k for k, v in ns.items() if isinstance(v, ms.Tensor)]
    exprs = [mc.CASES[name] for name in names]

    def program(*tensors):
        scope = dict(ns, **dict(zip(keys, tensors)))
        with _STAGED():
            return [eval(expr, scope) for expr in exprs]

    try:
        ms.set_seed(0)
        outs = ms.jit(program)(*[ns[k] for k in keys])
    except Exception:  # noqa: BLE001 - an untraceable case: split down to it
        if len(names) == 1:
            _RESULTS[names[0]] = None  # evaluated eagerly by its test
            return
        half = len(names) // 2
        _run_traced(names[:half])
        _run_traced(names[half:])
        return
    for name, out in zip(names, outs):
        _RESULTS[name] = mc.normalize(out, ms)


def _result(name):
    if name in _CHUNK_OF:
        if name not in _RESULTS:
            chunk = _CHUNK_OF[name]
            _run_traced([n for n in _TRACED if _CHUNK_OF[n] == chunk])
        if _RESULTS[name] is not None:
            return _RESULTS[name]
    return _eager(name)


def _compare(name, got, want, check_dtype, values=True):
    if "seq" in want:
        assert "seq" in got, f"{name}: expected a sequence, got {got}"
        assert len(got["seq"]) == len(want["seq"]), name
        for g, w in zip(got["seq"], want["seq"]):
            _compare(name, g, w, check_dtype, values)
        return
    if "py" in want:
        if "shape" in got:  # a shape tuple recorded as Python value vs a Tensor shape
            got = {"py": got["value"]}
        g, w = got.get("py"), want["py"]
        if isinstance(w, float):
            assert math.isclose(g, w, rel_tol=1e-5, abs_tol=1e-6), (name, g, w)
        else:
            assert (list(g) if isinstance(g, tuple) else g) == w, (name, g, w)
        return
    assert "shape" in got, f"{name}: expected a Tensor, got {got}"
    assert got["shape"] == want["shape"], (name, got["shape"], want["shape"])
    if check_dtype:
        assert got["dtype"] == want["dtype"], (name, got["dtype"], want["dtype"])
    if values:
        g = np.asarray(got["value"], np.float64)
        w = np.asarray(want["value"], np.float64)
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=name)


@pytest.mark.parametrize("name", sorted(mc.CASES))
def test_mint_case(name):
    want = GOLDENS[name]
    ns = _namespace()
    expr = mc.CASES[name]
    if "error" in want:
        if not name.startswith("err_"):
            pytest.skip(f"MindSpore 2.10 CPU raises {want['error']}: {want['message'][:80]}")
        with pytest.raises(Exception) as info:
            eval(expr, ns)
        names = {cls.__name__ for cls in type(info.value).__mro__}
        assert want["error"] in names, (name, type(info.value), want)
        return
    if name in KNOWN:
        pytest.xfail(KNOWN[name])
    got = _result(name)
    via_ops = "via_ops" in want
    if "py" in want and isinstance(want["py"], list) and "py" in got:
        got = {"py": list(got["py"])}
    _compare(name, got, want, check_dtype=not via_ops, values=not name.startswith("rand_"))
