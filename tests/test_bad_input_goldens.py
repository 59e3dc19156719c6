"""cellax raises the builtin exception type MindSpore 2.10 raises for each recorded bad call
(tests/goldens/bad_input_cases.py, recorded by record_bad_input.py), or returns where it
returns."""

import re

import numpy as np
import pytest

import cellax as ms
from cellax import Tensor, nn, ops

from ._goldens import assert_same_outcome, load_cases, load_module

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


def _names_api(text: str) -> bool:
    # "For 'pad', ..." or, as MindSpore words a primitive's argument error,
    # "Add.__call__() got an unexpected keyword argument 'foo'"
    return text.startswith("For '") or bool(re.match(r"[A-Z]\w*\.__call__\(\) ", text))


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_builtin_exception_type_as_mindspore(name):
    expected = DIFFERENT.get(name, CASES[name]["outcome"])
    assert_same_outcome(name, CASES[name]["code"], expected, _scope(), _names_api)
