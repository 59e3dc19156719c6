"""cellax raises the builtin exception type MindSpore 2.10 raises for each recorded bad call
(tests/goldens/bad_input_cases.py, recorded by record_bad_input.py), or returns where it
returns."""

import builtins
import re
import warnings

import numpy as np
import pytest

import cellax as ms
from cellax import Tensor, nn, ops

from ._goldens import load_cases, load_module

CASES = load_cases("bad_input.json")
SOURCE = load_module("bad_input_cases")

# Where cellax deliberately differs, with the reason.
DIFFERENT = {
    # MindSpore 2.10 CPU has no kernel for a negative repeat count ("not supported on this
    # device"); cellax names the argument: a ValueError, as MindSpore raises on other devices
    "repeat_negative": "ValueError",
}


def _scope() -> dict:
    scope = {"ms": ms, "Tensor": Tensor, "nn": nn, "ops": ops, "np": np}
    exec(SOURCE.SETUP, scope)
    return scope


def test_every_case_is_recorded():
    assert set(CASES) == set(SOURCE.CASES)
    assert all(CASES[name]["code"] == code for name, code in SOURCE.CASES.items())


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_builtin_exception_type_as_mindspore(name):
    case = CASES[name]
    expected = DIFFERENT.get(name, case["outcome"])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            eval(case["code"], _scope())
    except Exception as error:  # noqa: BLE001 - compared with the recorded type
        assert expected != "ok", f"{name}: MindSpore returns, cellax raised {error!r}"
        assert isinstance(error, getattr(builtins, expected)), (name, expected, repr(error))
        text = str(error.args[0] if isinstance(error, KeyError) else error)
        # the message names the API: "For 'pad', ..." or, as MindSpore words a primitive's
        # argument error, "Add.__call__() got an unexpected keyword argument 'foo'"
        assert text.startswith("For '") or re.match(r"[A-Z]\w*\.__call__\(\) ", text), text
    else:
        assert expected == "ok", f"{name}: MindSpore raises {expected}, cellax returned"
