"""export(file_format="ONNX"): cellax's jaxpr-to-ONNX converter, checked by running the file
with onnxruntime against cellax's own outputs (the tutorial MLP, LeNet, a transformer encoder
with a dynamic batch, a conv net with BatchNorm and pooling, and primitive-level cases)."""

import importlib.util
import os

import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops
from tests.test_export import Encoder, LeNet

onnx = pytest.importorskip("onnx", reason="ONNX export needs the 'onnx' extra")
ort = pytest.importorskip("onnxruntime", reason="the round trips run the file with onnxruntime")

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "examples")


def _run_onnx(path, *inputs):
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    return session.run(None, dict(zip(names, inputs)))


def _cellax(net, *inputs):
    net.set_train(False)
    out = net(*[ms.Tensor(x) for x in inputs])
    out = out if isinstance(out, (tuple, list)) else (out,)
    return [o.asnumpy() for o in out]


def _round_trip(net, inputs, tmp_path, specs=None, runs=None, atol=1e-5, rtol=1e-5):
    """Export ``net`` on ``specs`` (default: ``inputs`` themselves), run the file with
    onnxruntime on each input tuple of ``runs`` (default: ``[inputs]``) and compare with
    cellax. Returns the ONNX model."""
    path = str(tmp_path / "net")
    specs = [ms.Tensor(x) for x in inputs] if specs is None else specs
    training = net.training
    ms.export(net, *specs, file_name=path, file_format="ONNX")
    assert net.training == training  # exported in inference mode, the flag restored
    model = onnx.load(path + ".onnx")
    onnx.checker.check_model(model, full_check=True)
    for args in runs or [inputs]:
        got = _run_onnx(path + ".onnx", *args)
        want = _cellax(net, *args)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape and g.dtype == w.dtype
            np.testing.assert_allclose(g, w, atol=atol, rtol=rtol)
    return model


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_quickstart_network(tmp_path):
    spec = importlib.util.spec_from_file_location("qs", os.path.join(EXAMPLES, "quickstart.py"))
    quickstart = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(quickstart)
    net = quickstart.Network()
    x = np.random.default_rng(0).random((4, 1, 28, 28)).astype(np.float32)
    model = _round_trip(net, [x], tmp_path)
    # the parameters are the graph's initializers, under their names
    initializers = {i.name for i in model.graph.initializer}
    assert {p.name for p in net.trainable_params()} <= initializers
    assert [i.name for i in model.graph.input] == ["x"]  # construct's argument name


def test_lenet_and_training_flag(tmp_path):
    net = LeNet()
    net.set_train(True)
    x = _rand(2, 1, 32, 32)
    _round_trip(net, [x], tmp_path)  # in inference mode: Dropout off, BatchNorm's statistics
    assert os.path.exists(tmp_path / "net.onnx")


def test_transformer_encoder_dynamic_batch(tmp_path):
    net = Encoder()
    spec = ms.Tensor(shape=[None, 5, 16], dtype=ms.float32)
    model = _round_trip(
        net, None, tmp_path, specs=[spec], runs=[[_rand(3, 5, 16)], [_rand(1, 5, 16, seed=1)]]
    )
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_param == "batch" and [d.dim_value for d in dims[1:]] == [5, 16]
    for output in model.graph.output:
        assert output.type.tensor_type.shape.dim[0].dim_param == "batch"


class ConvBN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, pad_mode="pad", padding=1, has_bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.c2 = nn.Conv2d(8, 8, 3, stride=2, group=4, pad_mode="same", has_bias=True)
        self.c3 = nn.Conv2d(8, 16, 3, dilation=2, pad_mode="valid")
        self.bn2 = nn.BatchNorm2d(16)
        self.max_pool = nn.MaxPool2d(3, 2, pad_mode="same")
        self.avg_pool = nn.AvgPool2d(2, 2)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Dense(16, 5)
        self.act = nn.GELU()

    def construct(self, x):
        x = self.max_pool(self.act(self.bn1(self.c1(x))))
        x = self.bn2(self.c3(ops.relu(self.c2(x))))
        x = self.gap(self.avg_pool(x)).reshape(x.shape[0], -1)
        return ops.softmax(self.fc(x), axis=-1), ops.argmax(x, dim=1)


def test_conv_batchnorm_pooling_dynamic_batch(tmp_path):
    net = ConvBN()
    rng = np.random.default_rng(3)
    for p in net.get_parameters():  # non-trivial running statistics and affine terms
        if "moving" in p.name or "gamma" in p.name or "beta" in p.name:
            p.set_data(ms.Tensor(rng.random(p.shape).astype(np.float32) + 0.5))
    spec = ms.Tensor(shape=[None, 3, 33, 33], dtype=ms.float32)
    _round_trip(
        net, None, tmp_path, specs=[spec], runs=[[_rand(2, 3, 33, 33)], [_rand(5, 3, 33, 33)]]
    )


class Tokens(nn.Cell):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 8)
        self.fc = nn.Dense(8, 3)

    def construct(self, ids):
        h = self.emb(ids)
        return self.fc(h).cumsum(1), ops.gather(h, ms.Tensor([0, 2]), 1), ids.argmax(-1)


def test_embedding_gather_cumsum_int_input(tmp_path):
    ids = np.array([[1, 2, 3], [4, 5, 19]], np.int32)
    spec = ms.Tensor(shape=[None, 3], dtype=ms.int32)
    _round_trip(Tokens(), None, tmp_path, specs=[spec], runs=[[ids], [ids[:1] + 1]])


class Decoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.up = nn.Conv2dTranspose(4, 6, 3, stride=2, pad_mode="same", has_bias=True)
        self.up_grouped = nn.Conv2dTranspose(6, 4, 4, stride=2, pad_mode="pad", padding=1, group=2)
        self.conv1d = nn.Conv1d(4, 2, 3, pad_mode="same")

    def construct(self, x):
        y = self.up_grouped(ops.relu(self.up(x)))
        return y, self.conv1d(y.mean(axis=2))


def test_transposed_and_1d_convolutions(tmp_path):
    _round_trip(Decoder(), [_rand(2, 4, 5, 5)], tmp_path)


class Fn(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        return self.fn(*args)


PRIMITIVES = {
    "clamp_pad_slice": (lambda x: ops.pad(x.clip(-0.5, 0.5), (1, 2, 0, 1))[:, 1:-1:2], [(3, 4)]),
    "concat_transpose_squeeze": (
        lambda x: ops.concat([x, x * 2], axis=1).transpose(1, 0).unsqueeze(0).squeeze(0),
        [(3, 4)],
    ),
    "compare_select": (
        lambda x, y: ops.where(x > y, x, y - 1) + (x <= y).astype(x.dtype),
        [(3, 4), (3, 4)],
    ),
    "reductions": (
        lambda x: (x.max(axis=1), x.min(axis=0), x.sum(), x.prod(axis=1), x.mean(axis=(0, 1))),
        [(3, 4)],
    ),
    "unary": (
        lambda x: (
            ops.exp(x),
            ops.log(ops.abs(x) + 1),
            ops.tanh(x),
            ops.sigmoid(x),
            ops.erf(x),
            ops.rsqrt(ops.abs(x) + 1),
            ops.sqrt(ops.abs(x)),
            ops.sign(x),
            -x,
            x**3,
            ops.pow(ops.abs(x), 1.5),
            ops.floor(x),
            ops.round(x),
        ),
        [(3, 4)],
    ),  # fmt: skip
    "batched_matmul_einsum": (
        lambda a, b: (
            ops.bmm(a, b),
            ops.matmul(a[0], b[0]),
            ops.tensor_dot(a, b, ((1, 2), (2, 1))),
        ),
        [(2, 3, 4), (2, 4, 3)],
    ),
    "topk": (lambda x: ops.topk(x, 2), [(3, 5)]),
    "stack_unstack_tile": (
        lambda x: (
            ops.tile(ops.stack([x, x * 2], axis=1), (1, 2, 1)),
            ops.unstack(x, 1)[2],
        ),
        [(3, 4)],
    ),  # fmt: skip
    "iota_cast": (lambda x: x + ops.arange(4).astype(ms.float32), [(3, 4)]),
    "vector_dot": (lambda x, v: ops.matmul(x, v), [(3, 4), (4,)]),
}


@pytest.mark.parametrize("case", sorted(PRIMITIVES))
def test_primitives(case, tmp_path):
    fn, shapes = PRIMITIVES[case]
    inputs = [_rand(*s, seed=i) for i, s in enumerate(shapes)]
    _round_trip(Fn(fn), inputs, tmp_path, atol=1e-4, rtol=1e-4)


def test_take_along_axis(tmp_path):
    x = _rand(3, 5)
    index = np.array([[0, 4], [1, 1], [3, 2]], np.int32)
    _round_trip(Fn(lambda x, i: ops.gather_elements(x, 1, i)), [x, index], tmp_path)


class Sorter(nn.Cell):
    def construct(self, x):
        return ops.sort(x)[0]


class WithSort(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 3)
        self.sorter = Sorter()

    def construct(self, x):
        return self.sorter(self.dense(x))


def test_unsupported_primitive_names_op_and_cell(tmp_path):
    x = ms.Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(RuntimeError, match=r"primitive 'sort'.*Cell 'WithSort/Sorter'"):
        ms.export(WithSort(), x, file_name=str(tmp_path / "net"), file_format="ONNX")
    assert not os.path.exists(tmp_path / "net.onnx")


def test_file_name_suffix(tmp_path):
    net = nn.Dense(3, 2)
    ms.export(net, ms.Tensor(_rand(1, 3)), file_name=str(tmp_path / "a.onnx"), file_format="ONNX")
    assert os.listdir(tmp_path) == ["a.onnx"]


class BlockUpdate(nn.Cell):
    def construct(self, x, s):
        x[:, 0:2] += s  # mindcv's ReXNet: a scatter of a block at a known start
        return x


class RowUpdate(nn.Cell):
    def construct(self, x, rows):
        x[ms.Tensor([0, 2])] = rows  # rows at run-time-shaped indices: ScatterND's form
        return x * 2


def test_scatter_forms(tmp_path):
    _round_trip(BlockUpdate(), [_rand(2, 4, 3), _rand(2, 2, 3, seed=1)], tmp_path)
    _round_trip(RowUpdate(), [_rand(4, 3), _rand(2, 3, seed=1)], tmp_path)


class Recurrent(nn.Cell):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 6, num_layers=2, batch_first=True, bidirectional=True)
        self.gru = nn.GRU(12, 5, batch_first=True)

    def construct(self, x):
        y, (h, c) = self.lstm(x)
        z, _ = self.gru(y)
        return z, h, c


def test_recurrent_layers_unroll_their_scan(tmp_path):
    _round_trip(Recurrent(), [_rand(2, 7, 4)], tmp_path)


def test_onnx_export_names_dynamic_axes_and_params_as_inputs(tmp_path):
    net = Encoder()
    net.set_train(False)
    path = str(tmp_path / "enc")
    ms.onnx.export(
        net, ms.Tensor(_rand(2, 5, 16)), file_name=path, input_names=["tokens"],
        output_names=["logits", "pooled"], dynamic_axes={"tokens": {0: "n", 1: "length"}},
    )  # fmt: skip
    model = onnx.load(path + ".onnx")
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert [d.dim_param or d.dim_value for d in dims] == ["n", "length", 16]
    assert [o.name for o in model.graph.output] == ["logits", "pooled"]
    x = _rand(3, 7, 16, seed=2)  # another batch size and sequence length
    for got, want in zip(_run_onnx(path + ".onnx", x), _cellax(net, x)):
        np.testing.assert_allclose(got, want, atol=1e-5, rtol=1e-5)

    dense = nn.Dense(3, 2)
    ms.onnx.export(dense, ms.Tensor(_rand(1, 3)), file_name=path, export_params=False)
    model = onnx.load(path + ".onnx")
    assert not {i.name for i in model.graph.initializer} & {"weight", "bias"}
    assert [i.name for i in model.graph.input] == ["x", "bias", "weight"]
    session = ort.InferenceSession(path + ".onnx", providers=["CPUExecutionProvider"])
    w, b = np.ones((2, 3), np.float32), np.array([1.0, -1.0], np.float32)
    (out,) = session.run(None, {"x": _rand(1, 3), "weight": w, "bias": b})
    np.testing.assert_allclose(out, _rand(1, 3) @ w.T + b, rtol=1e-6)

    ms.onnx.export(dense, ms.Tensor(_rand(1, 3)), file_name=path, keep_initializers_as_inputs=True)
    model = onnx.load(path + ".onnx")
    assert {i.name for i in model.graph.initializer} >= {"weight", "bias"}
    assert [i.name for i in model.graph.input] == ["x", "bias", "weight"]
    (out,) = _run_onnx(path + ".onnx", _rand(1, 3))  # the initializers are the defaults
    np.testing.assert_allclose(out, _cellax(dense, _rand(1, 3))[0], rtol=1e-6)


def test_onnx_export_bad_arguments(tmp_path):
    net, x, path = nn.Dense(3, 2), ms.Tensor(_rand(1, 3)), str(tmp_path / "d")
    with pytest.raises(ValueError, match=r"'dynamic_axes' names inputs \['y'\]"):
        ms.onnx.export(net, x, file_name=path, dynamic_axes={"y": {0: "batch"}})
    with pytest.raises(ValueError, match="axis 5"):
        ms.onnx.export(net, x, file_name=path, dynamic_axes={"x": {5: "batch"}})
    with pytest.raises(ValueError, match="must be an identifier"):
        ms.onnx.export(net, x, file_name=path, dynamic_axes={"x": {0: "batch size"}})
    with pytest.raises(ValueError, match="'input_names' must give 1 distinct names"):
        ms.onnx.export(net, x, file_name=path, input_names=["a", "b"])
    with pytest.raises(ValueError, match="'output_names' must name each of the network's 1"):
        ms.onnx.export(net, x, file_name=path, output_names=["a", "b"])
    with pytest.raises(TypeError, match="'net' must be a Cell"):
        ms.onnx.export(lambda v: v, x, file_name=path)
    assert not os.listdir(tmp_path)


def test_cond_on_a_tensor_computes_both_branches(tmp_path):
    import jax

    fn = Fn(
        lambda x: jax.lax.cond(jax.numpy.asarray(x.sum() > 0), lambda a: a * 2, lambda a: a - 1, x)
    )
    path = str(tmp_path / "cond")
    ms.export(fn, ms.Tensor(_rand(3)), file_name=path, file_format="ONNX")
    for x in (np.ones(3, np.float32), -np.ones(3, np.float32)):
        np.testing.assert_allclose(_run_onnx(path + ".onnx", x)[0], _cellax(fn, x)[0])
