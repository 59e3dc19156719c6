"""Tensor printing: repr()/str() exactly as MindSpore 2.10 prints (goldens recorded from it)."""

import numpy as np
import pytest

import cellax as ms
from cellax import Tensor

from ._goldens import load_module

fc = load_module("foundation_cases")

CASES = fc.load()
BASE = fc.make_namespace(ms, "cellax")
REPR = fc.selected(CASES, list(fc.REPR))


@pytest.mark.parametrize("key,case", REPR, ids=[k for k, _ in REPR])
def test_repr_and_str_match_mindspore(key, case):
    fc.check(case, ms, BASE)


@pytest.mark.parametrize(
    "key,text",
    [
        ("repr f32 (1, 10)", "[[-3.00000000e+00, -2.63000011e+00, -2.25999999e+00 ... "),
        ("repr f32 (25,)", None),
        ("repr float16 (4,)", "value= [-9.0000e+00, -2.0000e+00,  5.0000e+00,  1.2000e+01])"),
        ("repr bool_ (4,)", "value= [ True,  True,  True,  True])"),
    ],
)
def test_golden_shapes_of_interest(key, text):
    golden = CASES[key]["result"]["repr"]
    if text:
        assert text in golden
    assert repr(eval(CASES[key]["code"][6:], dict(BASE))) == golden


def test_summarization_rule():
    # more than 6 entries in a dimension of a >1-D tensor: 3 ... 3
    assert " ... " in repr(Tensor(np.zeros((1, 7)), ms.float32))
    assert " ... " not in repr(Tensor(np.zeros((1, 6)), ms.float32))
    # 1-D: printed in full up to 1000 elements, 12 floats a line
    text = repr(Tensor(np.zeros(1000), ms.float32))
    assert " ... " not in text and text.count("\n") == 1000 // 12
    assert " ... " in repr(Tensor(np.zeros(1001), ms.float32))


def test_scalars():
    assert repr(Tensor(2.0)) == "Tensor(shape=[], dtype=Float32, value= 2)"
    assert repr(Tensor(1e-5)) == "Tensor(shape=[], dtype=Float32, value= 1e-05)"
    assert repr(Tensor(True)) == "Tensor(shape=[], dtype=Bool, value= True)"
    assert str(Tensor(4.0)) == "4.0"


def test_seed_outputs():
    # seed 001: Threshold output and hook gradients
    assert repr(Tensor([20.0, 0.2, 0.3], ms.float32)) == (
        "Tensor(shape=[3], dtype=Float32, value= [ 2.00000000e+01,  2.00000003e-01,  "
        "3.00000012e-01])"
    )
    assert repr(Tensor(np.full((1, 2, 1, 1), 0.999995), ms.float32)) == (
        "Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=\n[[[[ 9.99994993e-01]],\n"
        "  [[ 9.99994993e-01]]]])"
    )
    assert repr(Tensor([2.0], ms.float32)) == (
        "Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00])"
    )


def test_traced_tensor_prints_placeholder():
    import jax

    seen = []
    jax.jit(lambda x: seen.append(repr(Tensor(x))) or x)(np.ones(2, np.float32))
    assert seen == ["Tensor(shape=[2], dtype=Float32, value=<traced>)"]


LAZY_INIT_PRINTED = """A Tensor(shape=[3], dtype=Float32, value=<uninitialized>)
S Tensor(shape=[], dtype=Float32, value=<uninitialized>)
C True Tensor(shape=[2, 2], dtype=Float32, value=
<uninitialized>)
D [[1.0, 1.0], [1.0, 1.0]] False
E [[1. 1.]
 [1. 1.]]
F Tensor(shape=[2, 2], dtype=Float32, value=
<uninitialized>) True
"""  # MindSpore 2.10 CPU: python tests/goldens/lazy_init_print.py


def test_lazy_init_prints_like_mindspore(capsys):
    from cellax.common import initializer

    load_module("lazy_init_print").main(ms, initializer)
    assert capsys.readouterr().out == LAZY_INIT_PRINTED
