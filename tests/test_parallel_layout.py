"""mindspore.parallel.Layout and mindspore.DeviceCtx; the expected dicts and messages are
MindSpore 2.10's (CPU)."""

import pytest

import cellax as ms
from cellax.parallel import Layout


def test_layout_tensor_maps():
    layout = Layout((2, 4), ("dp", "mp"))
    mapped = layout("dp", "mp")
    assert mapped is not layout
    # as in MindSpore, the called Layout keeps the tensor map too
    assert layout.to_dict() == mapped.to_dict()
    assert mapped.to_dict() == {
        "device_matrix": (2, 4),
        "tensor_map": (1, 0),
        "interleaved_parallel": False,
        "alias_name": ("dp", "mp"),
        "rank_list": [0, 1, 2, 3, 4, 5, 6, 7],
    }
    assert layout(("dp", "mp"), "None").to_dict()["tensor_map"] == ((1, 0), -1)
    assert layout(("dp", "None"), "None").to_dict()["tensor_map"] == ((1, -1), -1)
    assert layout().to_dict()["tensor_map"] == ()
    three = Layout((2, 2, 2), ("dp", "sp", "mp"), rank_list=[7, 6, 5, 4, 3, 2, 1, 0])
    assert three("dp", "mp").to_dict()["tensor_map"] == (2, 0)
    assert three(("dp", "sp"), "None").to_dict()["rank_list"] == [7, 6, 5, 4, 3, 2, 1, 0]
    # an interleaved axis is accepted silently (warnings are errors in this suite)
    assert Layout((2, 1, 2), ("dp", "mp", "interleaved_parallel"))("dp", "mp", "None").to_dict()[
        "interleaved_parallel"
    ]


@pytest.mark.parametrize(
    "args,exc,match",
    [
        (((2, 4), ("dp",)), ValueError, "length should be equal"),
        (((2, 4), ("dp", "dp")), ValueError, "should be different"),
        (((2, 4), ("dp", "None")), ValueError, "can not set 'None'"),
        (([2, 4], ["dp", "mp"]), TypeError, "must be tuple type"),
        (((2, 2, 2), ("dp", "interleaved_parallel", "mp")), ValueError, "at the last dim"),
        (((2, 4), ["dp", "mp"]), TypeError, "alias_name must be tuple type"),
        (((2, 4.0), ("dp", "mp")), TypeError, "element of device_matrix must be int type"),
        (((2, 4), ("dp", 3)), TypeError, "element of alias_name must be str type"),
        (((2, 4.0), ("dp",)), ValueError, "length should be equal"),
        (((2, 4), ("None", "None")), ValueError, "can not set 'None'"),
        (((2, 4), ("dp", "mp"), (0, 1)), TypeError, "rank_list should be a list, but got tuple"),
        (((2, 4), ("dp", "mp"), [0, 1.0]), TypeError, "element of rank_list should be int"),
    ],
)
def test_layout_errors(args, exc, match):
    with pytest.raises(exc, match=match):
        Layout(*args)


def test_layout_unknown_axis_and_unmapped():
    layout = Layout((2, 4), ("dp", "mp"), rank_list=list(range(8)))
    with pytest.raises(ValueError, match="The axis x is not found"):
        layout("x", "mp")
    with pytest.raises(ValueError, match="tensor_map of layout is None"):
        layout.to_dict()
    with pytest.raises(ValueError, match="rank_list should be equal.*got 2 and 8"):
        Layout((2, 4), ("dp", "mp"), rank_list=[0, 1])
    for entry in (None, 1, ["dp"]):
        with pytest.raises(ValueError, match="is not found in"):
            layout(entry, "mp")
    with pytest.raises(ValueError, match=r"The axis dp has been set more than one in \('dp'"):
        layout("dp", "dp")
    with pytest.raises(ValueError, match="The axis dp has been set more than one"):
        layout(("dp", "dp"), "None")


def test_layout_sharding_one_device():
    # what Primitive.shard and reshard build from a called Layout (one device here)
    layout = Layout((1, 1), ("dp", "mp"))
    sharding = layout("dp", "None").sharding("MatMul", (4, 2))
    assert tuple(sharding.spec) == ("dp", None)
    assert sharding.mesh.axis_names == ("dp", "mp")
    with pytest.raises(ValueError, match="must be called with a tensor map"):
        Layout((1,), ("dp",)).sharding("reshard", (4,))
    with pytest.raises(ValueError, match="maps 2 dimension"):
        layout("dp", "mp").sharding("MatMul", (4,))
    with pytest.raises(ValueError, match="name each of the job's 1 devices"):
        Layout((2,), ("dp",))("dp").sharding("MatMul", (4,))
    with pytest.raises(ValueError, match="must hold positive ints"):
        Layout((1, 0), ("dp", "mp"))("dp", "mp").sharding("MatMul", (4, 2))
    interleaved = Layout((1, 1), ("dp", "interleaved_parallel"))
    with pytest.warns(UserWarning, match="'interleaved_parallel'.*no JAX counterpart"):
        interleaved(("dp", "interleaved_parallel"), "None").sharding("MatMul", (4, 2))


def test_device_ctx_restores_target():
    before = (ms.get_context("device_target"), ms.get_context("device_id"))
    with ms.DeviceCtx("GPU", 1):
        assert (ms.get_context("device_target"), ms.get_context("device_id")) == ("GPU", 1)
    assert (ms.get_context("device_target"), ms.get_context("device_id")) == before
    with pytest.raises(ValueError, match="must be one of"):
        with ms.DeviceCtx("TPU"):
            pass
    with pytest.raises(NotImplementedError, match="'meta'"):
        with ms.DeviceCtx("meta"):
            pass
    assert ms.get_context("device_target") == before[0]
