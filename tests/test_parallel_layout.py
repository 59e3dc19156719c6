"""mindspore.parallel.Layout and mindspore.DeviceCtx; the expected dicts and messages are
MindSpore 2.10's (CPU)."""

import pytest

import cellax as ms
from cellax.parallel import Layout


def test_layout_tensor_maps():
    layout = Layout((2, 4), ("dp", "mp"))
    mapped = layout("dp", "mp")
    assert mapped is not layout
    assert mapped.to_dict() == {
        "device_matrix": (2, 4),
        "tensor_map": (1, 0),
        "interleaved_parallel": False,
        "alias_name": ("dp", "mp"),
        "rank_list": [0, 1, 2, 3, 4, 5, 6, 7],
    }
    assert layout(("dp", "mp"), "None").to_dict()["tensor_map"] == ((1, 0), -1)
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
    with pytest.raises(ValueError, match="rank_list should be equal"):
        Layout((2, 4), ("dp", "mp"), rank_list=[0, 1])


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
