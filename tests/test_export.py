"""export(file_format="MINDIR") / load / nn.GraphCell: cellax's StableHLO .mindir round trip,
in this process and in a fresh one that never builds the Python model."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops

pytest.importorskip("flatbuffers", reason="export/load need the 'deploy' extra (flatbuffers)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class LeNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 10)
        self.bn = nn.BatchNorm1d(120)
        self.dropout = nn.Dropout(p=0.5)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.dropout(self.bn(self.relu(self.fc1(self.flatten(x)))))
        return self.fc2(x)


class Encoder(nn.Cell):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(
            d_model=16, nhead=4, dim_feedforward=32, batch_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.head = nn.Dense(16, 3)

    def construct(self, x):
        hidden = self.encoder(x)
        return self.head(hidden), hidden.mean(axis=1)


def _load_in_subprocess(path, inputs, tmp_path):
    """Load ``path`` in a new interpreter, run GraphCell on ``inputs``, return its outputs."""
    np.savez(tmp_path / "inputs.npz", *inputs)
    script = textwrap.dedent(
        f"""
        import numpy as np, cellax as ms
        inputs = np.load({str(tmp_path / "inputs.npz")!r})
        net = ms.nn.GraphCell(ms.load({path!r}))
        out = net(*[ms.Tensor(inputs[k]) for k in inputs.files])
        out = out if isinstance(out, tuple) else (out,)
        np.savez({str(tmp_path / "outputs.npz")!r}, *[o.asnumpy() for o in out])
        """
    )
    env = dict(os.environ, PYTHONPATH=ROOT, JAX_PLATFORMS="cpu")
    subprocess.run([sys.executable, "-c", script], check=True, env=env, timeout=300)
    outputs = np.load(tmp_path / "outputs.npz")
    return [outputs[k] for k in outputs.files]


def test_lenet_round_trip_in_subprocess(tmp_path):
    net = LeNet()
    net.set_train(True)
    x = np.random.default_rng(0).standard_normal((2, 1, 32, 32)).astype(np.float32)
    ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "lenet"), file_format="MINDIR")
    assert net.training  # export runs in inference mode and restores the flag
    assert os.path.exists(tmp_path / "lenet.mindir")
    (out,) = _load_in_subprocess(str(tmp_path / "lenet.mindir"), [x], tmp_path)
    net.set_train(False)
    np.testing.assert_allclose(out, net(ms.Tensor(x)).asnumpy(), rtol=1e-5, atol=1e-5)


def test_transformer_encoder_round_trip_dynamic_batch(tmp_path):
    net = Encoder()
    net.set_train(False)
    spec = ms.Tensor(shape=[None, 5, 16], dtype=ms.float32)
    path = str(tmp_path / "encoder.mindir")
    ms.export(net, spec, file_name=path, file_format="MINDIR")  # suffix given: kept once
    assert sorted(os.listdir(tmp_path)) == ["encoder.mindir"]
    x = np.random.default_rng(1).standard_normal((3, 5, 16)).astype(np.float32)
    logits, pooled = _load_in_subprocess(path, [x], tmp_path)
    want_logits, want_pooled = net(ms.Tensor(x))
    np.testing.assert_allclose(logits, want_logits.asnumpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(pooled, want_pooled.asnumpy(), rtol=1e-5, atol=1e-5)
    graph_net = nn.GraphCell(ms.load(path))
    for batch in (1, 4):
        x = ms.Tensor(np.ones((batch, 5, 16), np.float32))
        got = graph_net(x)
        np.testing.assert_allclose(got[0].asnumpy(), net(x)[0].asnumpy(), rtol=1e-5, atol=1e-5)


def test_graph_cell_params_jit_and_params_init(tmp_path):
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    x = ms.Tensor(np.ones((4, 3), np.float32))
    ms.export(net, x, file_name=str(tmp_path / "dense"), file_format="MINDIR")
    graph = ms.load(str(tmp_path / "dense.mindir"))
    graph_net = nn.GraphCell(graph)
    assert sorted(graph_net.parameters_dict()) == ["bias", "weight"]
    np.testing.assert_array_equal(ms.jit(graph_net)(x).asnumpy(), np.full((4, 2), 3.0))
    twice = nn.GraphCell(graph, params_init={"weight": ms.Tensor(np.full((2, 3), 2.0, np.float32))})
    np.testing.assert_array_equal(twice(x).asnumpy(), np.full((4, 2), 6.0))
    with pytest.raises(ValueError, match="For 'GraphCell', input 0 must have shape"):
        graph_net(ms.Tensor(np.ones((4, 5), np.float32)))
    with pytest.raises(TypeError, match="For 'GraphCell', the argument 'graph'"):
        nn.GraphCell("dense.mindir")


def test_load_rejects_mindspore_mindir_and_bad_names(tmp_path):
    real = tmp_path / "real.mindir"  # MindIR's ModelProto starts with field 1 (ir_version)
    real.write_bytes(b"\x0a\x050.1.1\x12\x04MindSpore\x1a\x052.10.0")
    with pytest.raises(RuntimeError, match="is a MindSpore MindIR file"):
        ms.load(str(real))
    with pytest.raises(ValueError, match="must end with '.mindir'"):
        ms.load(str(tmp_path / "net.onnx"))
    with pytest.raises(ValueError, match="does not exist"):
        ms.load(str(tmp_path / "missing.mindir"))


def test_export_other_formats_raise_naming_them(tmp_path):
    with pytest.raises(NotImplementedError, match="file_format='AIR'"):
        ms.export(nn.ReLU(), ops.ones((2,)), file_name=str(tmp_path / "x"), file_format="AIR")
    with pytest.raises(ValueError, match="'file_format' must be one of"):
        ms.export(nn.ReLU(), ops.ones((2,)), file_name=str(tmp_path / "x"), file_format="PB")
    assert not os.listdir(tmp_path)
