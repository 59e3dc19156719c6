"""set_context/get_context and set_seed/get_seed (goldens from MindSpore 2.10)."""

import os
import warnings

import numpy as np
import pytest

import cellax as ms
from cellax import _context

from ._goldens import load_json, load_module

fc = load_module("foundation_cases")

CASES = fc.load()
BASE = fc.make_namespace(ms, "cellax")
CONTEXT = fc.selected(CASES, list(fc.CONTEXT))


@pytest.mark.parametrize("key,case", CONTEXT, ids=[k for k, _ in CONTEXT])
def test_context_matches_mindspore(key, case):
    fc.check(case, ms, BASE)


def test_mode_round_trip():
    assert (ms.GRAPH_MODE, ms.PYNATIVE_MODE) == (0, 1)
    ms.set_context(mode=ms.GRAPH_MODE)
    assert ms.get_context("mode") == ms.GRAPH_MODE
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert ms.get_context("mode") == ms.PYNATIVE_MODE


def test_jit_syntax_levels():
    # MindSpore 2.10: ms.STRICT/COMPATIBLE/LAX == context.* == 0/1/2; set_context stores them
    # (mindone's training scripts call set_context(mode=GRAPH_MODE, jit_syntax_level=STRICT))
    assert (ms.STRICT, ms.COMPATIBLE, ms.LAX) == (0, 1, 2)
    assert (ms.context.STRICT, ms.context.COMPATIBLE, ms.context.LAX) == (0, 1, 2)
    before = ms.get_context("jit_syntax_level")
    assert before == ms.LAX  # MindSpore's default
    try:
        for level in (ms.STRICT, ms.COMPATIBLE, ms.LAX):
            ms.set_context(jit_syntax_level=level)
            assert ms.get_context("jit_syntax_level") == level
        with pytest.raises(ValueError, match="jit_syntax_level"):
            ms.set_context(jit_syntax_level=5)
    finally:
        ms.set_context(jit_syntax_level=before)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"foo_bar": 1}, "the key 'foo_bar' is not a MindSpore context key"),
        ({"mode": 5}, "'mode' must be GRAPH_MODE"),
        ({"device_target": "XPU"}, "'device_target' must be one of"),
    ],
)
def test_set_context_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ms.set_context(**kwargs)


def test_set_recursion_limit():
    # mindyolo's set_default calls it; MindSpore 2.10 validates a positive int (messages as its
    # Validator.check_positive_int with no name: tests/goldens/checkparam.json) and returns None
    assert ms.set_recursion_limit(2000) is None and ms.set_recursion_limit() is None
    assert ms.common.api.set_recursion_limit is ms.set_recursion_limit
    with pytest.raises(ValueError, match=r"^The input value must be int and must > 0, but got '0'"):
        ms.set_recursion_limit(0)
    with pytest.raises(TypeError, match=r"^The input value must be int, but got 'float'$"):
        ms.set_recursion_limit(1.5)
    with pytest.raises(TypeError, match=r"must > 0, but got 'True' with type 'bool'"):
        ms.set_recursion_limit(True)


def test_get_context_unknown():
    with pytest.raises(ValueError, match="'foo_bar' is not a context key"):
        ms.get_context("foo_bar")
    with pytest.raises(ValueError, match="the argument foo_bar is not recognized"):
        ms.get_context("foo_bar")


def test_seed_reproducibility_and_errors():
    ms.set_seed(7)
    assert ms.get_seed() == 7
    a = ms.ops.rand(3).asnumpy()
    ms.set_seed(7)
    np.testing.assert_array_equal(a, ms.ops.rand(3).asnumpy())
    with pytest.raises(ValueError, match=r"must be in \[0, 2\*\*32 - 1\]"):
        ms.set_seed(-1)
    with pytest.raises(ValueError, match=r"must be in \[0, 2\*\*32 - 1\]"):
        ms.set_seed(2**32)
    with pytest.raises(TypeError, match="'seed'"):
        ms.set_seed(1.5)


# every key of MindSpore 2.10's context table on a fresh process, and a few set/get round trips
# (tests/goldens/record_context_defaults.py)
CONTEXT_GOLDEN = load_json("context_defaults.json")
HOST_KEYS = {"device_target", "runtime_num_threads"}


@pytest.fixture
def fresh_context(monkeypatch, tmp_path):
    monkeypatch.setattr(_context, "_settings", {"mode": ms.PYNATIVE_MODE, "device_id": 0})
    monkeypatch.setattr(_context, "BLOCKING", [False])
    monkeypatch.chdir(tmp_path)  # enable_compile_cache's default folder is the working one
    yield
    _context._apply_compile_cache(False, None)


_LOAD_FROM_CACHE = """
import sys
import jax
import cellax as ms
hits = []
jax.monitoring.register_event_listener(
    lambda event, **kw: hits.append(event) if event.endswith("cache_hits") else None
)
ms.set_context(enable_compile_cache=True, compile_cache_path=sys.argv[1])
print(float(ms.jit(lambda x: (x * 3).sum())(ms.ops.ones((4, 5)))), len(hits))
"""


def test_enable_compile_cache_saves_programs_for_the_next_process(fresh_context, tmp_path):
    import subprocess
    import sys

    ms.set_context(enable_compile_cache=True, compile_cache_path=str(tmp_path))
    assert ms.get_context("enable_compile_cache") is True
    assert float(ms.jit(lambda x: (x * 3).sum())(ms.ops.ones((4, 5)))) == 60.0
    folder = tmp_path / "cellax_compile_cache"
    assert folder.is_dir() and any(folder.iterdir())
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run(
        [sys.executable, "-c", _LOAD_FROM_CACHE, str(tmp_path)],
        capture_output=True, text=True, env=env, check=True,
    ).stdout.split()  # fmt: skip
    assert out[0] == "60.0" and int(out[1]) >= 1  # loaded, not compiled again
    ms.set_context(enable_compile_cache=False)
    before = sorted(folder.iterdir())
    ms.jit(lambda x: (x * 4).sum())(ms.ops.ones((4, 5)))
    assert sorted(folder.iterdir()) == before  # off: nothing more is saved


@pytest.mark.parametrize("key", sorted(CONTEXT_GOLDEN["defaults"]))
def test_get_context_defaults_match_mindspore(fresh_context, key):
    recorded = CONTEXT_GOLDEN["defaults"][key]
    if "error" in recorded:
        with pytest.raises(ValueError, match=f"the argument {key} is not recognized"):
            ms.get_context(key)
        return
    value = ms.get_context(key)
    if key == "device_target":
        assert value in ("CPU", "GPU", "TPU")
    elif key == "runtime_num_threads":
        assert value == min(30, os.cpu_count())
    else:
        assert (value, type(value).__name__) == (recorded["value"], recorded["type"])


def test_get_context_default_keys_cover_the_table():
    assert set(CONTEXT_GOLDEN["table"]) - HOST_KEYS == set(_context.DEFAULTS)


@pytest.mark.parametrize(
    "trip",
    CONTEXT_GOLDEN["round_trips"],
    ids=[str(t["set"]) for t in CONTEXT_GOLDEN["round_trips"]],
)
def test_get_context_after_set_matches_mindspore(fresh_context, trip):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ms.set_context(**{trip["key"]: trip["set"]})
    for key, recorded in trip["get"].items():
        value = ms.get_context(key)
        assert (value, type(value).__name__) == (recorded["value"], recorded["type"]), key


def test_get_context_returns_copies_and_own_keys(fresh_context):
    ms.get_context("jit_config")["jit_level"] = "O2"
    assert ms.get_context("jit_config") == {}
    assert ms.get_context("pynative_grad_tape") is True
    assert ms.get_context("jit_hook_backward") is False
    with pytest.raises(ValueError, match="should be in correct format"):
        ms.set_context(max_device_memory="3.5G")
    ms.set_context(max_device_memory="3.5GB")
    assert ms.get_context("max_device_memory") == 3.5
    with pytest.raises(ValueError, match="value for save_graphs should be 0-3"):
        ms.set_context(save_graphs=4)


@pytest.mark.parametrize(("env", "expected"), [("3", 3), ("abc", 0), ("", 0)])
def test_device_id_defaults_to_the_launchers_device_id(env, expected):
    # MindSpore 2.10: DEVICE_ID=3 -> get_context("device_id") 3; "abc" warns and gives 0
    import subprocess
    import sys

    code = "import cellax; print(cellax.get_context('device_id'))"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    environ = dict(os.environ, DEVICE_ID=env, PYTHONPATH=root)
    done = subprocess.run(
        [sys.executable, "-c", code], env=environ, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == str(expected)
