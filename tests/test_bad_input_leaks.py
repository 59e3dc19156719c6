"""The leaky error classes of issue 22: each now a result (as MindSpore 2.10) or a builtin
exception naming the public API, with cellax's remedy for tracer misuse."""

import numpy as np
import pytest

import cellax as ms
from cellax import Tensor, nn, ops


def test_zero_size_batches_flatten_and_normalise():
    # MindSpore 2.10 (oracle): (0, 3, 4) flattens to (0, 12); GroupNorm keeps the shape
    empty = Tensor(np.ones((0, 3, 4), np.float32))
    assert ops.flatten(empty).shape == (0, 12)
    assert nn.Flatten()(empty).shape == (0, 12)
    assert ops.flatten(Tensor(np.ones((2, 0, 4), np.float32))).shape == (2, 0)
    assert nn.GroupNorm(1, 3)(Tensor(np.ones((0, 3, 4, 4), np.float32))).shape == (0, 3, 4, 4)
    assert ops.group_norm(Tensor(np.ones((2, 4, 0), np.float32)), 2).shape == (2, 4, 0)
    # a -1 beside a zero dimension is 0, as MindSpore's reshape
    assert ops.reshape(Tensor(np.ones((0, 3), np.float32)), (0, -1)).shape == (0, 0)
    assert Tensor(np.ones((0, 3), np.float32)).view(-1, 0).shape == (0, 0)
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(ops.flatten(Tensor(x)).asnumpy(), x.reshape(2, 12))


def test_reshape_errors_name_the_api():
    x = Tensor(np.ones(6, np.float32))
    with pytest.raises(ValueError, match="For 'Tensor.reshape', the number of elements"):
        x.reshape(5)
    with pytest.raises(ValueError, match="For 'reshape', the number of elements"):
        ops.reshape(x, (4, -1))
    with pytest.raises(ValueError, match="may hold one -1"):
        x.reshape(-1, -1)
    assert x.reshape(-1, 2).shape == (3, 2) and x.reshape((3, 2)).shape == (3, 2)


def test_traced_boolean_mask_gets_cellax_message():
    x = Tensor(np.array([1.0, -1.0, 2.0], np.float32))
    with pytest.raises(
        RuntimeError,
        match=r"(?s)For 'Tensor.__getitem__', a boolean mask.*"
        r"ops.masked_fill",
    ):
        ms.jit(lambda x: x[x > 0])(x)
    np.testing.assert_array_equal(x[x > 0].asnumpy(), [1.0, 2.0])  # eagerly fine

    def assign(x):
        y = x * 1
        y[x > 0] = 0.0  # one value under a traced mask: a fixed-shape where
        return y

    np.testing.assert_array_equal(ms.jit(assign)(x).asnumpy(), [0.0, -1.0, 0.0])
    rows = Tensor(np.array([[1.0, -1.0], [-2.0, 3.0]], np.float32))

    def assign_rows(x):
        y = x * 1
        y[x[:, 0] > 0] = Tensor([5.0, 6.0])
        return y

    np.testing.assert_array_equal(ms.jit(assign_rows)(rows).asnumpy(), [[5, 6], [-2, 3]])

    def assign_many(x):
        y = x * 1
        y[x > 0] = Tensor([5.0, 6.0, 7.0])
        return y

    with pytest.raises(RuntimeError, match="For 'Tensor.__setitem__', a boolean mask"):
        ms.jit(assign_many)(x)


@pytest.mark.parametrize("layer", [nn.GRU, nn.LSTM, nn.RNN])
@pytest.mark.parametrize("dtype", [np.bool_, np.int32])
def test_recurrent_layers_reject_non_float_input(layer, dtype):
    # MindSpore 2.10 CPU: TypeError (its kernels take float16/float32 only)
    with pytest.raises(TypeError, match=f"For '{layer.__name__}', 'x' must be a floating-point"):
        layer(4, 5)(Tensor(np.ones((2, 3, 4), dtype)))


def test_tracer_to_numpy_gets_cellax_message():
    x = Tensor(np.ones(3, np.float32))
    for convert in (lambda t: t.asnumpy(), np.asarray, lambda t: t.tolist()):
        with pytest.raises(RuntimeError, match="For 'Tensor.asnumpy', the Tensor is traced"):
            ms.jit(convert)(x)
    with pytest.raises(RuntimeError, match="For 'Tensor.item', the Tensor is traced"):
        ms.jit(lambda t: float(t.sum()))(x)


def test_call_argument_errors_name_the_public_class():
    x = Tensor(np.ones((2, 3, 4), np.float32))
    with pytest.raises(TypeError, match=r"For 'GRU', the inputs must match construct\(x, hx="):
        nn.GRU(4, 5)(x, 1, 2, 3)
    with pytest.raises(TypeError, match="For 'LSTM'.*unexpected keyword argument 'foo'"):
        nn.LSTM(4, 5)(x, foo=1)
    with pytest.raises(TypeError, match="For 'Dense'.*missing a required argument: 'x'"):
        nn.Dense(4, 3)()
    # as MindSpore 2.10 words it: "Add.__call__() got an unexpected keyword argument 'foo'"
    with pytest.raises(TypeError, match=r"^Add\.__call__\(\) got an unexpected keyword"):
        ops.Add()(Tensor(1.0), Tensor(2.0), foo=1)

    class Net(nn.Cell):
        def construct(self, x):
            return nn.Dense(4, 3)(x, x)  # the inner call's error is the one reported

    with pytest.raises(TypeError, match="For 'Dense'"):
        Net()(x)


_F32 = np.float32
_LAYER_CASES = [  # builtin types as MindSpore 2.10 CPU raises them (oracle)
    (lambda: nn.Dense(4, 3)(None), TypeError, "For 'Dense', 'x' must be a Tensor"),
    (lambda: nn.Dense(4, 3)(Tensor(_F32(1))), IndexError, "For 'Dense', 'x' must have at"),
    (lambda: nn.Softmax()(Tensor(_F32(1))), ValueError, "For 'softmax', 'input' must have"),
    (lambda: nn.LogSoftmax()(Tensor(_F32(1))), ValueError, "For 'LogSoftmax', 'x' must have"),
    (lambda: nn.GLU()(Tensor(_F32(1))), ValueError, "For 'GLU', 'x' must have"),
    (
        lambda: nn.AdaptiveAvgPool1d(4)(Tensor(np.ones(3, _F32))),
        ValueError,
        "For 'AdaptiveAvgPool1d', 'input' must be a 3-d Tensor",
    ),
    (
        lambda: nn.AvgPool2d()(Tensor(np.ones((2, 4, 4, 4), np.bool_))),
        TypeError,
        "For 'AvgPool2d', 'x' must be a numeric Tensor",
    ),
    (
        lambda: nn.OneHot(depth=4)(Tensor(np.ones((2, 4), np.bool_))),
        TypeError,
        "For 'OneHot', 'indices' must be an int32 or int64",
    ),
    (
        lambda: nn.GRUCell(4, 4)(Tensor(np.ones((0, 4), _F32)), Tensor(np.ones((2, 4), _F32))),
        ValueError,
        "For 'GRUCell', 'hx' must have shape",
    ),
    (lambda: nn.CosineDecayLR(0.01, 0.1, 10)(None), TypeError, "For 'CosineDecayLR'"),
    (lambda: nn.BatchNorm2d(3, foo=1), TypeError, "For 'BatchNorm2d', the arguments must"),
    (lambda: nn.ReLU(foo=1), TypeError, "For 'ReLU'.*unexpected keyword argument 'foo'"),
]


@pytest.mark.parametrize("call, error, match", _LAYER_CASES)
def test_layer_errors_name_the_layer(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_cell_classes_keep_their_init_signature():
    import inspect

    assert list(inspect.signature(nn.Dense).parameters)[:2] == ["in_channels", "out_channels"]

    class Net(nn.Cell):
        def __init__(self, width, depth=2):
            super().__init__()
            self.width = width

    assert str(inspect.signature(Net)) == "(width, depth=2)"
    assert Net(3).width == 3
    with pytest.raises(TypeError, match="For 'Net', the arguments must match Net"):
        Net()


def test_cell_init_may_take_cls():
    # mindyolo's create_loss builds YOLOv8Loss(box=7.5, cls=0.5, dfl=1.5, ...): the metaclass's
    # __call__ must not claim the keyword `cls` itself
    class Loss(nn.Cell):
        def __init__(self, box, cls, dfl=1.5):
            super().__init__()
            self.gains = (box, cls, dfl)

    assert Loss(box=7.5, cls=0.5).gains == (7.5, 0.5, 1.5)
    assert Loss(**{"box": 1.0, "cls": 2.0, "dfl": 3.0}).gains == (1.0, 2.0, 3.0)


def test_every_op_under_jit_names_itself():
    # tools/fuzz_bad_input.py --jit: each public ops function traced by cellax.jit with all its
    # required arguments traced Tensors (arguments that fix shapes, axes or counts then have
    # no value): a builtin type with cellax's own message, never a JAX error
    import pathlib
    import sys

    from cellax._random import RNG_STATE

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
    try:
        import fuzz_bad_input
    finally:
        sys.path.pop(0)
    key = RNG_STATE._data
    try:
        assert fuzz_bad_input.jit_campaign() == []
    finally:
        RNG_STATE._data = key


def _ones(*shape, dtype=_F32):
    return Tensor(np.ones(shape, dtype))


_SHAPE_CASES = [  # wrong shapes: ValueError naming the op, as MindSpore 2.10 (oracle)
    (lambda: ops.bucketize(_ones(3), _ones(2, 2)), "For 'bucketize', 'boundaries' must be 1-D"),
    (lambda: ops.quantile(_ones(3, 4), _ones(2, 2)), "For 'quantile', 'q' must be a scalar"),
    (lambda: ops.nanquantile(_ones(3, 4), _ones(2, 2)), "For 'nanquantile', 'q' must be"),
    (lambda: ops.prelu(_ones(2, 3, 4), _ones(5)), "For 'prelu', 'weight' must be 1-D with 1 or 3"),
    (lambda: ops.swiglu(_ones(3, 5)), "For 'swiglu', the size of dimension 'dim'"),
    (lambda: ops.vander(_ones(2, 2)), "For 'vander', 'x' must be 1-D"),
    (lambda: ops.triangular_solve(_ones(3, 2), _ones(4, 4)), "'b' must have 4 rows"),
    (lambda: ops.triangular_solve(_ones(3, 2), _ones(3, 2)), "'A' must be"),
    (lambda: ops.triangular_solve(_ones(2, 3, 1), _ones(4, 3, 3)), "batch dimensions"),
    (
        lambda: ops.ctc_loss(_ones(5, 2, 4), _ones(2, 3, dtype=np.int32), (5, 5, 5), (3, 3)),
        "For 'ctc_loss', 'input_lengths' must hold one length per sample",
    ),
    (
        lambda: ops.ctc_loss(_ones(5, 2, 4), _ones(3, 3, dtype=np.int32), (5, 5), (3, 3)),
        "For 'ctc_loss', 'log_probs' must be",
    ),
]


@pytest.mark.parametrize("call, match", _SHAPE_CASES)
def test_wrong_shapes_name_the_op(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_shape_checked_ops_still_compute():
    x = np.array([[1.0, 0.0], [2.0, 3.0]], _F32)
    np.testing.assert_allclose(ops.vander(Tensor([1.0, 2.0])).asnumpy(), [[1, 1], [2, 1]])
    np.testing.assert_allclose(ops.quantile(Tensor(x), Tensor([0.5])).asnumpy(), [1.5])
    # -x has no positive entry: every element scaled by its channel's (dim 1) weight
    np.testing.assert_allclose(
        ops.prelu(Tensor(-x), Tensor([0.5, 0.25])).asnumpy(), -x * [0.5, 0.25]
    )
    solved, _ = ops.triangular_solve(Tensor([[1.0], [5.0]]), Tensor(x), upper=False)
    np.testing.assert_allclose(solved.asnumpy(), [[1.0], [1.0]], rtol=1e-6)
    assert ops.swiglu(_ones(3, 4)).shape == (3, 2)
