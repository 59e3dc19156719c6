"""Parameter and ParameterTuple against MindSpore 2.10 goldens."""

import copy
import pickle

import numpy as np
import pytest

import cellax as ms
from cellax import Parameter, ParameterTuple, Tensor

from ._goldens import load_module

fc = load_module("foundation_cases")

CASES = fc.load()
BASE = fc.make_namespace(ms, "cellax")
PARAM = fc.selected(CASES, list(fc.PARAM))


@pytest.mark.parametrize("key,case", PARAM, ids=[k for k, _ in PARAM])
def test_parameter_matches_mindspore(key, case):
    fc.check(case, ms, BASE)


def test_repr_str_print():
    w = Parameter(Tensor(np.ones((5, 3)), ms.float32), name="w")
    text = "Parameter (name=w, shape=(5, 3), dtype=Float32, requires_grad=True)"
    assert repr(w) == str(w) == f"{w}" == text


def test_default_name_is_numbered():
    a, b = Parameter(Tensor([1.0])), Parameter(Tensor([1.0]))
    assert a.name.startswith("Parameter#") and a.name != b.name
    assert ms._parameter.is_default_name(a.name)  # recognised as unnamed by Cell
    assert not ms._parameter.is_default_name("w")


def test_data_is_a_view():
    p = Parameter(Tensor([1.0, 2.0]), name="p")
    d = p.data
    assert type(d).__name__ == "Tensor" and not isinstance(d, Parameter)
    d[0] = 7.0
    np.testing.assert_array_equal(p.asnumpy(), [7.0, 2.0])
    assert str(d) == "[7. 2.]"


def test_set_data_errors():
    p = Parameter(Tensor([1, 2], ms.int32), name="p")
    with pytest.raises(TypeError, match="a float can not be converted implicitly"):
        p.set_data(1.5)
    with pytest.raises(TypeError, match="'data' must be a Tensor, int or float, but got ndarray"):
        p.set_data(np.ones(2))


def test_set_data_shape_change_inside_jit_is_refused():
    p = Parameter(Tensor([1.0, 2.0]), name="p")

    @ms.jit
    def f():
        p.set_data(Tensor([1.0, 2.0, 3.0]))
        return p + 0

    with pytest.raises(ValueError, match="can not change inside jit or grad"):
        f()


def test_constructor_errors():
    with pytest.raises(ValueError, match="'name' must be a str or None, but got 3"):
        Parameter(Tensor([1.0]), name=3)
    with pytest.raises(ValueError, match="can not be a bool"):
        Parameter(True)
    with pytest.raises(TypeError, match="'requires_grad'"):
        Parameter(Tensor([1.0]), requires_grad=1)
    with pytest.raises(TypeError, match="'default_input' must be given"):
        Parameter(None)


def test_copy_deepcopy_pickle_are_independent():
    p = Parameter(Tensor([1.0, 2.0]), name="p", requires_grad=False)
    for clone in (copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p)), p.clone()):
        assert isinstance(clone, Parameter) and clone is not p
        assert clone.name == "p" and clone.requires_grad is False
        clone[0] = 9.0
        assert p.asnumpy()[0] == 1.0


def test_parameter_tuple_duplicate_and_type_errors():
    x = Parameter(Tensor([1]), name="x")
    with pytest.raises(ValueError, match="the name 'x' appears twice"):
        ParameterTuple((x, Parameter(Tensor([2]), name="x")))
    with pytest.raises(TypeError, match="every element must be a Parameter"):
        ParameterTuple((x, 1))
    with pytest.raises(TypeError, match="'prefix'"):
        ParameterTuple((x,)).clone(1)
    assert len(ParameterTuple((x, x))) == 2


def test_parameter_tuple_clone_names():
    params = ParameterTuple((Parameter(Tensor([1.0]), name="a"), Parameter(2.0, name="b")))
    clones = params.clone("copy", init="zeros")
    assert [c.name for c in clones] == ["copy.a", "copy.b"]
    assert isinstance(clones, ParameterTuple)
    assert clones[0].asnumpy()[0] == 0.0 and params[0].asnumpy()[0] == 1.0


def test_trainer_attributes_match_mindspore():
    # The attributes trainers read (mindcv's StateMonitor reads cache_enable every epoch),
    # with MindSpore 2.10's single-device defaults, setter validation and clone behaviour.
    from ._goldens import load_json

    recorder = load_module("record_parameter_attrs")
    assert recorder.run(ms) == load_json("parameter_attrs.json")


def test_param_info_is_a_live_view():
    w = Parameter(Tensor(np.ones((2,)), ms.float32), name="w")
    w.param_info.cache_enable = True
    assert w.cache_enable is True
    other = Parameter(Tensor(np.ones((2,)), ms.float32), name="other")
    other.param_info = w.param_info
    assert other.cache_enable is True and other.name == "w"
    with pytest.raises(TypeError, match="must be a ParamInfo"):
        other.param_info = 5
    with pytest.raises(TypeError, match="`cache_enable` must be bool type"):
        w.cache_enable = 1
    w.flush_from_cache()


def test_data_view_set_data_writes_the_parameter():
    # mindone 0.5.0 initialises weights with ``zeros_(module.bias.data)`` (MindSpore before
    # 2.9 returned the Parameter itself from ``.data``).
    p = Parameter(Tensor(np.ones((2, 3)), ms.float32), name="p")
    view = p.data
    assert view.set_data(ms.ops.zeros((2, 3), ms.float16)) is view
    assert p.dtype == ms.float32 and p.asnumpy().tolist() == [[0.0] * 3] * 2
    assert view.asnumpy().sum() == 0.0
