"""dtypes: names, repr, conversions (goldens from MindSpore 2.10)."""

import pickle

import numpy as np
import pytest

import cellax as ms
from cellax.common import dtype as mstype

from ._goldens import load_module

fc = load_module("foundation_cases")

CASES = fc.load()
BASE = fc.make_namespace(ms, "cellax")
DTYPE = fc.selected(CASES, list(fc.DTYPE))

NAMES = {
    "float16": "Float16",
    "float32": "Float32",
    "float64": "Float64",
    "bfloat16": "BFloat16",
    "int8": "Int8",
    "int16": "Int16",
    "int32": "Int32",
    "int64": "Int64",
    "uint8": "UInt8",
    "bool_": "Bool",
}


@pytest.mark.parametrize("key,case", DTYPE, ids=[k for k, _ in DTYPE])
def test_dtype_matches_mindspore(key, case):
    fc.check(case, ms, BASE)


@pytest.mark.parametrize("attr,name", sorted(NAMES.items()))
def test_names_and_modules(attr, name):
    t = getattr(ms, attr)
    assert str(t) == name
    assert getattr(ms.dtype, attr) is t and getattr(mstype, attr) is t
    assert pickle.loads(pickle.dumps(t)) is t


@pytest.mark.parametrize("attr", sorted(set(NAMES) - {"bfloat16"}))
def test_dtype_to_nptype_round_trip(attr):
    t = getattr(ms, attr)
    np_type = mstype.dtype_to_nptype(t)
    assert np.dtype(np_type) == t.np_dtype
    assert ms.Tensor(np.zeros(2, np_type)).dtype == t


def test_python_types():
    assert mstype.pytype_to_dtype(int) == ms.int64
    assert mstype.pytype_to_dtype(float) == ms.float64
    assert mstype.pytype_to_dtype(bool) == ms.bool_
    assert mstype.get_py_obj_dtype(1.0) == ms.float64
    assert mstype.get_py_obj_dtype(ms.Tensor([1], ms.int8)) == ms.int8
    assert mstype.dtype_to_pytype(ms.float16) is float


def test_errors():
    with pytest.raises(TypeError, match="'obj' must be a Python or NumPy type"):
        mstype.pytype_to_dtype("abc")
    with pytest.raises(TypeError, match="the name must be one of"):
        ms.Tensor([1]).astype("float8x")
    with pytest.raises(TypeError, match="expected a cellax dtype"):
        ms.Tensor([1]).astype(object())


def test_dtype_repr_names_the_imported_package():
    assert repr(ms.float32) == "cellax.float32"
    assert repr(ms.bool_) == "cellax.bool_"
    assert repr(ms.bfloat16) == "cellax.bfloat16"
    assert str(ms.float32) == "Float32"
