"""cellax._checkparam against MindSpore 2.10 (goldens: tests/goldens/record_checkparam.py)."""

import pytest

import cellax as ms
from cellax import _checkparam as V

from ._goldens import load_json

GOLDEN = load_json("checkparam.json")

# The same cases, in order, as tests/goldens/record_checkparam.py.
CASES = [
    ("check_value_type", ("x", 1.0, [int], "Op")),
    ("check_value_type", ("x", True, [int], None)),
    ("check_value_type", ("x", 1, (int, float), None)),
    ("check_positive_int", (0, "k", "Op")),
    ("check_positive_int", (3,)),
    ("check_positive_int", (True, "k")),
    ("check_positive_int", (1.0, "k")),
    ("check_non_negative_int", (-1, "k", "Op")),
    ("check_positive_float", (0.0, "lr")),
    ("check_positive_float", (1, "lr")),
    ("check_non_negative_float", (-0.5, "w")),
    ("check_bool", (1, "flag", "Op")),
    ("check_bool", (True, "flag")),
    ("check_int_range", (5, 0, 3, V.INC_LEFT, "k", "Op")),
    ("check_int_range", (3, 0, 3, V.INC_BOTH, "k")),
    ("check_int_range", (3, 0, 3, V.INC_LEFT, "k")),
    ("check_int_range", (0, 0, 3, V.INC_NEITHER, "k")),
    ("check_float_range", (1.5, 0.0, 1.0, V.INC_BOTH, "p", "Op")),
    ("check_float_range", (0.5, 0.0, 1.0, V.INC_RIGHT, "p")),
    ("check_number_range", (1.5, 0.0, 1.0, V.INC_BOTH, float, "p", "Op")),
    ("check_number_range", (0.5, 0.0, 1.0, V.INC_BOTH, float, "p")),
    ("check_string", ("avg", ["max", "mean"], "mode", "Op")),
    ("check_string", ("max", ["max", "mean"], "mode")),
    ("check_int", (3, 4, V.GE, "k", "Op")),
    ("check_int", (5, 4, V.GE, "k")),
    ("check_int", (4, 4, V.EQ, "k")),
    ("check_equal_int", (3, 4, "k", "Op")),
    ("check_is_int", (1.0, "k", "Op")),
    ("check_is_float", (1, "k", "Op")),
    ("check_is_float", (1.0, "k")),
    ("check_isinstance", ("x", 1, (str,))),
    ("check_isinstance", ("x", "a", (str,))),
    ("check_positive_int_sequence", ((1, 0), "ks", "Op")),
    ("check_positive_int_sequence", ((1, 2), "ks")),
    ("twice", (3,)),
    ("twice", ((1, 2),)),
    ("triple", (2,)),
    ("once", (2,)),
    ("check", ("a", 3, "b", 4, V.EQ, "Op")),
    ("check_subclass", ("x", ms.float32, [ms.int32], "Op")),
    ("check_type_name", ("x", ms.float32, [ms.int32, ms.float16], "Op")),
    ("check_type_name", ("x", ms.float32, [ms.float32], "Op")),
    ("check_tensor_dtype_valid", ("x", ms.float32, [ms.int32], "Op")),
    ("check_float", (0.5, 1.0, V.LT, "f", "Op")),
    ("check_float", (1.5, 1.0, V.LT, "f", "Op")),
    ("check_number", ("n", 3, 4, V.GT, "Op")),
    # no name: "The input value ..." (mindspore.set_recursion_limit checks so)
    ("check_positive_int", (0,)),
    ("check_positive_int", (1.5,)),
    ("check_positive_int", (True,)),
    ("check_positive_int", ("3", None, "Op")),
    ("check_int", (2, 4, V.GE)),
]
_DTYPE_CASES = {"check_subclass", "check_type_name", "check_tensor_dtype_valid"}


@pytest.mark.parametrize("index", range(len(CASES)))
def test_checkparam_matches_mindspore(index):
    name, args = CASES[index]
    golden_name, kind, text = GOLDEN["cases"][index]
    assert golden_name == name
    try:
        result = getattr(V, name)(*args)
        got_kind, got_text = "ok", repr(result)
    except (TypeError, ValueError) as exc:
        got_kind, got_text = type(exc).__name__, str(exc)
    assert got_kind == kind
    if name in _DTYPE_CASES:
        return  # dtype reprs differ (cellax.float32 vs mindspore.float32); the kind matches
    assert got_text == text


def test_relation_constants():
    for key, value in GOLDEN["constants"].items():
        assert getattr(V, key) == value
