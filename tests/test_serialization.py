"""Checkpoints: save/load round trips, MindSpore-made fixtures, fault injection, mismatches."""

import binascii
import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest

import cellax as ms
from cellax import Parameter, Tensor, nn, ops
from cellax._serialization import _format, _save

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _load_module(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(FIXTURES, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, FIXTURES)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(FIXTURES)
    return module


fixture_module = _load_module("make_cellax_fixture")
ENTRIES = fixture_module.ENTRIES

DTYPES = [
    ms.float16,
    ms.float32,
    ms.float64,
    ms.bfloat16,
    ms.int8,
    ms.int16,
    ms.int32,
    ms.int64,
    ms.uint8,
    ms.uint16,
    ms.uint32,
    ms.uint64,
    ms.bool_,
]


def _values(dtype, shape=(3, 5)):
    raw = np.random.default_rng(1).standard_normal(shape) * 50
    if dtype == ms.bool_:
        return raw > 0
    return raw.astype(dtype.np_dtype)


def _read(path, mode="rb"):
    with open(path, mode) as file:
        return file.read()


def _bytes(tensor):
    return np.ascontiguousarray(tensor.asnumpy()).view(np.uint8).tobytes()


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(Tensor(np.linspace(0.5, 2.0, 3), ms.float32), name="scale")
        self.count = Parameter(Tensor(np.arange(3), ms.int32), name="count", requires_grad=False)

    def construct(self, x):
        return x * self.scale + self.count.astype(ms.float32)


class Nested(nn.Cell):
    def __init__(self):
        super().__init__()
        self.features = nn.SequentialCell(nn.Dense(4, 6), nn.ReLU(), nn.Dense(6, 3))
        self.head = Inner()

    def construct(self, x):
        return self.head(self.features(x))


def _dense_params(value):
    return {
        "weight": Parameter(Tensor(np.full((1, 2), value), ms.float32), name="weight"),
        "bias": Parameter(Tensor(np.full((1,), value), ms.float32), name="bias"),
    }


# -- the user flow of seed 000 ------------------------------------------------------------------
def test_seed_000_flow(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    net = nn.Dense(2, 1, has_bias=True)
    for param in net.get_parameters():
        print(param.name, param.data.asnumpy())
    ms.save_checkpoint(net, "dense.ckpt")
    dense_params = ms.load_checkpoint("dense.ckpt")
    print(dense_params)
    new_params = {}
    for param_name in dense_params:
        print(param_name, dense_params[param_name].data.asnumpy())
        new_params[param_name] = ms.Parameter(
            ops.ones_like(dense_params[param_name].data), name=param_name
        )
    ms.load_param_into_net(net, new_params)
    for param in net.get_parameters():
        print(param.name, param.data.asnumpy())
    lines = capsys.readouterr().out.strip().split("\n")
    assert len(lines) == 7
    assert lines[0].startswith("weight [[") and lines[1].startswith("bias [")
    assert lines[2] == (
        "{'weight': Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True), "
        "'bias': Parameter (name=bias, shape=(1,), dtype=Float32, requires_grad=True)}"
    )
    assert lines[3:5] == lines[0:2]
    assert lines[5:] == ["weight [[1. 1.]]", "bias [1.]"]


# -- round trips ----------------------------------------------------------------------------------
@pytest.mark.parametrize("format", ["ckpt", "safetensors"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_dtype_round_trip_is_exact(tmp_path, dtype, format):
    params = [
        Parameter(Tensor(_values(dtype), dtype), name="p"),
        Parameter(Tensor(_values(dtype, ()), dtype), name="scalar"),
    ]
    path = str(tmp_path / f"dtypes.{format}")
    ms.save_checkpoint(params, path, format=format)
    loaded = ms.load_checkpoint(path, format=format)
    assert sorted(loaded) == ["p", "scalar"]
    for param in params:
        got = loaded[param.name]
        assert isinstance(got, Parameter) and got.name == param.name
        assert got.dtype == dtype and got.shape == param.shape
        assert _bytes(got) == _bytes(param)


def test_nested_network_round_trip(tmp_path):
    net = Nested()
    x = Tensor(np.linspace(-1, 1, 8).reshape(2, 4), ms.float32)
    expected = net(x).asnumpy()
    path = str(tmp_path / "nested")  # '.ckpt' is appended, as in MindSpore
    ms.save_checkpoint(net, path)
    assert os.path.exists(path + ".ckpt")
    names = list(ms.load_checkpoint(path + ".ckpt"))
    assert names == [p.name for p in net.get_parameters()]
    assert set(names) == {
        "features.0.weight",
        "features.0.bias",
        "features.2.weight",
        "features.2.bias",
        "head.scale",
        "head.count",
    }
    other = Nested()
    assert not np.allclose(other(x).asnumpy(), expected)
    ms.load_checkpoint(path + ".ckpt", net=other)
    np.testing.assert_array_equal(other(x).asnumpy(), expected)
    assert other.head.count.dtype == ms.int32


@pytest.mark.parametrize("chunk", [7, 64, 10**9])
def test_large_tensors_are_written_in_chunks(tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(_format, "CHUNK_BYTES", chunk)
    values = np.arange(1001, dtype=np.float64).reshape(7, 11, 13) / 3
    path = str(tmp_path / "chunks.ckpt")
    ms.save_checkpoint({"big": Tensor(values), "small": Tensor(np.ones(2, np.int8))}, path)
    message = _parse_whole(path)
    tags = [value.tag for value in message.value]
    records = -(-values.nbytes // chunk)
    assert tags == ["big"] * records + ["small"]
    assert all(list(v.tensor.dims) == [7, 11, 13] for v in message.value[:records])
    loaded = ms.load_checkpoint(path)
    np.testing.assert_array_equal(loaded["big"].asnumpy(), values)


def test_save_object_kinds_and_append_dict(tmp_path):
    weight = Parameter(Tensor(np.ones((2, 2)), ms.float32), name="w")
    path = str(tmp_path / "kinds.ckpt")
    ms.save_checkpoint(
        {
            "w": weight,
            "t": Tensor(np.arange(3), ms.int16),
            "n": np.full(2, 0.5, np.float64),
            "s": "text",
        },
        path,
        append_dict={
            "epoch": 3,
            "lr": 0.1,
            "done": True,
            "name": "run-1",
            "extra": Tensor(np.ones(1), ms.float16),
        },
    )
    loaded = ms.load_checkpoint(path)
    assert list(loaded) == ["w", "t", "n", "s", "epoch", "lr", "done", "name", "extra"]
    assert loaded["s"] == "text" and loaded["name"] == "run-1"
    assert loaded["t"].dtype == ms.int16 and loaded["n"].dtype == ms.float64
    assert (loaded["epoch"].dtype, loaded["epoch"].shape, loaded["epoch"].item()) == (
        ms.int64,
        (),
        3,
    )
    assert loaded["lr"].dtype == ms.float32 and loaded["done"].dtype == ms.bool_
    ms.save_checkpoint(
        [{"name": "a", "data": Tensor(np.ones(2), ms.float32)}, {"name": "b", "data": weight}], path
    )
    assert list(ms.load_checkpoint(path)) == ["a", "b"]
    ms.save_checkpoint([weight], path, choice_func=lambda name: name != "w", append_dict={"k": 1})
    assert list(ms.load_checkpoint(path)) == ["k"]


def test_state_dict_saves_buffers_and_loads_back(tmp_path):
    class WithBuffer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(2, 2)
            self.register_buffer("running", Tensor(np.array([1.0, 2.0]), ms.float32))

        def construct(self, x):
            return self.fc(x) + self.running

    net = WithBuffer()
    path = str(tmp_path / "state.ckpt")
    ms.save_checkpoint(net, path)
    assert list(ms.load_checkpoint(path)) == ["fc.weight", "fc.bias"]  # Cells save Parameters
    ms.save_checkpoint(net.state_dict(), path)
    assert sorted(ms.load_checkpoint(path)) == ["fc.bias", "fc.weight", "running"]
    other = WithBuffer()
    other.running = Tensor(np.zeros(2), ms.float32)
    other.load_state_dict(ms.load_checkpoint(path))
    np.testing.assert_array_equal(other.get_buffer("running").asnumpy(), [1.0, 2.0])
    np.testing.assert_array_equal(other.fc.weight.asnumpy(), net.fc.weight.asnumpy())


def test_prefix_and_choice_filters(tmp_path):
    path = str(tmp_path / "filters.ckpt")
    ms.save_checkpoint(Nested(), path)
    assert list(ms.load_checkpoint(path, specify_prefix="head")) == ["head.scale", "head.count"]
    assert list(ms.load_checkpoint(path, filter_prefix=["features", "head.s"])) == ["head.count"]
    assert list(ms.load_checkpoint(path, specify_prefix="head", filter_prefix="head.c")) == [
        "head.scale"
    ]
    chosen = ms.load_checkpoint(path, choice_func=lambda name: name.endswith("bias"))
    assert list(chosen) == ["features.0.bias", "features.2.bias"]
    with pytest.raises(ValueError, match="loaded parameter dict is empty"):
        ms.load_checkpoint(path, specify_prefix="nothing")
    with pytest.raises(TypeError, match="'specify_prefix' or 'filter_prefix' must be"):
        ms.load_checkpoint(path, filter_prefix=3)
    with pytest.raises(ValueError, match="can't be empty"):
        ms.load_checkpoint(path, filter_prefix=[])


@pytest.mark.parametrize("format", ["ckpt", "safetensors"])
def test_crc_check(tmp_path, format):
    path = str(tmp_path / f"crc.{format}")
    ms.save_checkpoint(Nested(), path, crc_check=True, format=format)
    assert len(ms.load_checkpoint(path, crc_check=True, format=format)) == 6
    data = bytearray(_read(path))
    if format == "ckpt":
        assert data[-17:-10] == b"crc_num"
        assert int.from_bytes(data[-10:], "big") == binascii.crc32(bytes(data[:-17]))
    data[-40] ^= 0xFF  # inside the last tensor's content
    with open(path, "wb") as file:
        file.write(data)
    with pytest.raises(ValueError, match="CRC32 check"):
        ms.load_checkpoint(path, crc_check=True, format=format)
    plain = str(tmp_path / f"plain.{format}")
    ms.save_checkpoint(Nested(), plain, format=format)
    with pytest.warns(UserWarning, match="crc_check=True but"):
        ms.load_checkpoint(plain, crc_check=True, format=format)


# -- compatibility with real MindSpore ----------------------------------------------------------
def _parse_whole(path):
    checkpoint, _ = _format.schema()
    data = _read(path)
    if data[-17:-10] == b"crc_num":
        data = data[:-17]
    return checkpoint.FromString(data)


def test_mindspore_checkpoint_loads_into_same_cellax_network():
    expected = np.load(os.path.join(FIXTURES, "ms_small_expected.npz"))
    net = fixture_module.SmallNet()
    loaded = ms.load_checkpoint(os.path.join(FIXTURES, "ms_small.ckpt"), net=net)
    assert loaded["note"] == "mindspore"
    assert (loaded["epoch_num"].dtype, loaded["epoch_num"].item()) == (ms.int64, 3)
    assert (loaded["lr"].dtype, loaded["lr"].item()) == (ms.float32, 0.5)
    for name, param in net.parameters_dict().items():
        want = expected[f"w:{name}"]
        got = param.asnumpy().astype(np.float32) if param.dtype == ms.bfloat16 else param.asnumpy()
        assert got.dtype == want.dtype, name
        np.testing.assert_array_equal(got, want, err_msg=name)
    assert net.shift_bf16.dtype == ms.bfloat16 and net.mask.dtype == ms.bool_
    out = net(Tensor(expected["x"])).asnumpy()
    np.testing.assert_allclose(out, expected["out"], rtol=1e-6, atol=1e-6)


def test_mindspore_safetensors_loads():
    expected = np.load(os.path.join(FIXTURES, "ms_small_expected.npz"))
    loaded = ms.load_checkpoint(
        os.path.join(FIXTURES, "ms_small.safetensors"), format="safetensors"
    )
    assert list(loaded) == sorted(loaded)
    assert loaded["shift_bf16"].dtype == ms.bfloat16
    np.testing.assert_array_equal(loaded["table"].asnumpy(), expected["w:table"])
    assert loaded["step"].shape == () and loaded["step"].item() == 7


def test_cellax_writes_mindspore_bytes(tmp_path):
    """Saving what MindSpore saved gives back its file byte for byte."""
    source = os.path.join(FIXTURES, "ms_small.ckpt")
    path = str(tmp_path / "again.ckpt")
    ms.save_checkpoint(ms.load_checkpoint(source), path)
    assert _read(path) == _read(source)


def test_committed_cellax_fixtures_are_what_cellax_writes(tmp_path):
    """check_cellax_ckpt_in_ms.py verified these files in MindSpore; cellax still writes them."""
    fixture_module.write_all(str(tmp_path))
    for name in ("cellax_written.ckpt", "cellax_written.safetensors", "cellax_small.ckpt"):
        with open(tmp_path / name, "rb") as new, open(os.path.join(FIXTURES, name), "rb") as old:
            assert new.read() == old.read(), name
    message = _parse_whole(os.path.join(FIXTURES, "cellax_written.ckpt"))
    tags = [value.tag for value in message.value]
    assert tags.count("chunked") == 5 and tags[-1] == "note"
    types = {v.tag: v.tensor.tensor_type for v in message.value}
    assert {name: types[name] for name in ENTRIES} == {n: t for n, (t, _) in ENTRIES.items()}
    assert types["note"] == "str" and list(message.value[-1].tensor.dims) == [0]
    loaded = ms.load_checkpoint(os.path.join(FIXTURES, "cellax_written.ckpt"), crc_check=True)
    for name, (_, values) in ENTRIES.items():
        got = loaded[name].asnumpy()
        np.testing.assert_array_equal(got.astype(values.dtype), values, err_msg=name)


LOAD_CASES = json.loads(_read(os.path.join(FIXTURES, "ms_load_cases.json"), "r"))
_MS_MODULE_CASES = None


def _case_entries(case):
    global _MS_MODULE_CASES
    if _MS_MODULE_CASES is None:
        source = _read(os.path.join(FIXTURES, "make_ms_fixtures.py"), "r")
        start = source.index("LOAD_CASES = {")
        end = source.index("\n}\n", start) + 3
        scope: dict = {}
        exec(source[start:end], scope)  # the case table only (no mindspore import)
        _MS_MODULE_CASES = scope["LOAD_CASES"]
    return _MS_MODULE_CASES[case]


class LoadNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 3, weight_init="zeros", bias_init="zeros")
        self.w = Parameter(Tensor(np.zeros(3), ms.float32), name="w")

    def construct(self, x):
        return self.fc(x) * self.w


@pytest.mark.parametrize("case", sorted(LOAD_CASES))
def test_load_param_into_net_matches_mindspore(case):
    entries, strict = _case_entries(case)
    expected = LOAD_CASES[case]
    net = LoadNet()
    parameter_dict = {}
    for key, value, dtype, shape in entries:
        if dtype == "str":
            parameter_dict[key] = value
        else:
            dtype = getattr(ms, dtype)
            parameter_dict[key] = Parameter(Tensor(np.full(shape, value), dtype), name=key)
    if "error" in expected:
        assert expected["error"] == "RuntimeError"
        with pytest.raises(RuntimeError, match="For 'load_param_into_net'") as info:
            ms.load_param_into_net(net, parameter_dict, strict)
        assert type(info.value) is RuntimeError  # exactly, as scripts print type(e).__name__
        for param in net.get_parameters():  # nothing was assigned
            assert not param.asnumpy().any(), param.name
        return
    result = ms.load_param_into_net(net, parameter_dict, strict)
    assert result == (expected["param_not_load"], expected["ckpt_not_load"])
    for param in net.get_parameters():
        np.testing.assert_array_equal(param.asnumpy(), expected["values"][param.name])
        assert str(param.dtype) == expected["dtypes"][param.name]


def test_mismatch_names_parameter_and_changes_nothing():
    net = Nested()
    before = {p.name: p.asnumpy() for p in net.get_parameters()}
    good = {
        name: Parameter(Tensor(np.ones(v.shape), ms.dtype.from_numpy_dtype(v.dtype)), name=name)
        for name, v in before.items()
    }
    bad = dict(good)
    bad["head.scale"] = Parameter(Tensor(np.ones(4), ms.float32), name="head.scale")
    with pytest.raises(RuntimeError, match=r"'head.scale'.*shape \(3,\).*shape \(4,\)"):
        ms.load_param_into_net(net, bad)
    bad["head.scale"] = Parameter(Tensor(np.ones(3), ms.float32), name="head.scale")
    bad["head.count"] = Parameter(Tensor(np.ones(3), ms.float32), name="head.count")
    with pytest.raises(RuntimeError, match=r"'head.count'.*Int32.*Float32"):
        ms.load_param_into_net(net, bad)
    for param in net.get_parameters():
        np.testing.assert_array_equal(param.asnumpy(), before[param.name])
    assert ms.load_param_into_net(net, good) == ([], [])
    assert all(p.asnumpy().all() for p in net.get_parameters())


def test_load_does_not_share_buffers_with_the_dict():
    net = nn.Dense(2, 1)
    source = _dense_params(3.0)

    @ms.jit
    def step():
        ops.assign(net.weight, net.weight + 1)

    ms.load_param_into_net(net, source)
    step()  # donates net.weight's buffer; the dict's Parameter must survive
    np.testing.assert_array_equal(source["weight"].asnumpy(), [[3.0, 3.0]])
    np.testing.assert_array_equal(net.weight.asnumpy(), [[4.0, 4.0]])


def test_load_reshapes_trailing_unit_dims_and_scalars():
    net = nn.Dense(2, 3)
    ckpt = {
        "weight": Parameter(Tensor(np.ones((3, 2, 1, 1)), ms.float32), name="weight"),
        "bias": Parameter(Tensor(np.full((3, 1), 2.0), ms.float32), name="bias"),
    }
    assert ms.load_param_into_net(net, ckpt) == ([], [])
    assert net.weight.shape == (3, 2) and net.bias.shape == (3,)
    np.testing.assert_array_equal(net.bias.asnumpy(), [2.0, 2.0, 2.0])


def test_load_param_into_net_argument_errors():
    net = nn.Dense(2, 1)
    with pytest.raises(TypeError, match="'net' should be a Cell"):
        ms.load_param_into_net(1, {})
    with pytest.raises(TypeError, match="'parameter_dict' should be a dict"):
        ms.load_param_into_net(net, [1])
    with pytest.raises(TypeError, match="items of 'parameter_dict'"):
        ms.load_param_into_net(net, {"weight": 1.0})
    with pytest.raises(TypeError, match="remove_redundancy=True"):
        ms.load_param_into_net(net, {}, remove_redundancy=True)
    tensors = {k: Tensor(v.asnumpy()) for k, v in _dense_params(2.0).items()}
    assert ms.load_param_into_net(net, tensors) == ([], [])  # plain Tensors work too


# -- damaged files ------------------------------------------------------------------------------
@pytest.fixture
def good_ckpt(tmp_path):
    path = str(tmp_path / "good.ckpt")
    ms.save_checkpoint(Nested(), path)
    return path


def _write(path, data):
    with open(path, "wb") as file:
        file.write(data)
    return path


@pytest.mark.parametrize("cut", [1, 3, 20, 0.5, -1])
def test_truncated_file_is_a_clear_error(good_ckpt, tmp_path, cut):
    data = _read(good_ckpt)
    size = int(len(data) * cut) if isinstance(cut, float) else cut % len(data)
    path = _write(str(tmp_path / "cut.ckpt"), data[:size])
    with pytest.raises(ValueError, match="cut.ckpt' is not a valid MindSpore checkpoint"):
        ms.load_checkpoint(path)


def test_missing_chunk_is_detected(tmp_path, monkeypatch):
    monkeypatch.setattr(_format, "CHUNK_BYTES", 16)
    path = str(tmp_path / "chunked.ckpt")
    ms.save_checkpoint({"x": Tensor(np.arange(12, dtype=np.float32))}, path)
    data = _read(path)
    record = len(data) // 3  # three records of the same size
    _write(path, data[:-record])  # cut at a record boundary: the protobuf is still valid
    with pytest.raises(ValueError, match="'x' .*needs 48 bytes of data but the file holds 32"):
        ms.load_checkpoint(path)


@pytest.mark.parametrize("damage", ["type", "garbage", "empty", "text"])
def test_corrupted_file_is_a_clear_error(good_ckpt, tmp_path, damage):
    data = _read(good_ckpt)
    content = {
        "type": data.replace(b"Float32", b"Flxat32", 1),
        "garbage": bytes(range(256)) * 4,
        "empty": b"",
        "text": b"this is not a checkpoint\n",
    }[damage]
    path = _write(str(tmp_path / "bad.ckpt"), content)
    message = {"type": "tensor_type 'Flxat32'", "empty": "empty"}.get(damage, "")
    with pytest.raises(
        ValueError, match=f"bad.ckpt' is not a valid MindSpore checkpoint: .*{message}"
    ):
        ms.load_checkpoint(path)


def test_bad_names_and_missing_files(tmp_path, good_ckpt):
    missing = str(tmp_path / "missing.ckpt")
    with pytest.raises(ValueError, match="missing.ckpt does not exist"):
        ms.load_checkpoint(missing)
    with pytest.raises(ValueError) as info:
        ms.load_checkpoint(missing)
    assert type(info.value) is ValueError  # MindSpore's exact type
    with pytest.raises(ValueError, match="must end with the format 'ckpt'"):
        ms.load_checkpoint(str(tmp_path / "x.txt"))
    with pytest.raises(ValueError, match="must end with the format 'safetensors'"):
        ms.load_checkpoint(good_ckpt, format="safetensors")
    os.mkdir(tmp_path / "folder.ckpt")
    with pytest.raises(ValueError, match="is a directory"):
        ms.load_checkpoint(str(tmp_path / "folder.ckpt"))
    with pytest.raises(TypeError, match="'ckpt_file_name' must be a str"):
        ms.load_checkpoint(3)
    with pytest.raises(ValueError, match="format must be 'ckpt' or 'safetensors'"):
        ms.load_checkpoint(good_ckpt, format="bin")
    with pytest.raises(NotImplementedError, match="dec_key"):
        ms.load_checkpoint(good_ckpt, dec_key=b"0123456789abcdef")


@pytest.mark.parametrize("damage", ["truncated", "garbage"])
def test_damaged_safetensors_is_a_clear_error(tmp_path, damage):
    path = str(tmp_path / "model.safetensors")
    ms.save_checkpoint(Nested(), path, format="safetensors")
    data = _read(path)
    _write(path, data[: len(data) - 10] if damage == "truncated" else b"\x08" + data[1:200])
    with pytest.raises(ValueError, match="model.safetensors' is not a valid safetensors file"):
        ms.load_checkpoint(path, format="safetensors")


# -- atomic writes --------------------------------------------------------------------------------
def test_failed_save_keeps_old_file_and_leaves_no_temp(good_ckpt, monkeypatch):
    before = _read(good_ckpt)
    calls = []

    def failing(self, name, array):
        calls.append(name)
        if len(calls) == 3:
            raise OSError("disk full (simulated)")
        return original(self, name, array)

    original = _format.CheckpointWriter.write_array
    monkeypatch.setattr(_format.CheckpointWriter, "write_array", failing)
    with pytest.raises(OSError, match="disk full"):
        ms.save_checkpoint(Nested(), good_ckpt)
    assert _read(good_ckpt) == before
    assert os.listdir(os.path.dirname(good_ckpt)) == ["good.ckpt"]


def test_save_replaces_read_only_file(tmp_path):
    path = str(tmp_path / "ro.ckpt")
    ms.save_checkpoint(nn.Dense(2, 1), path)
    os.chmod(path, 0o400)  # MindSpore leaves its checkpoints read-only
    ms.save_checkpoint(_dense_params(5.0), path)
    assert ms.load_checkpoint(path)["bias"].item() == 5.0


_KILL_SCRIPT = """
import builtins, os, sys, time
import numpy as np
import cellax as ms

real_open = builtins.open


class PauseMidWrite:
    # Stops the writer for good once 20 MiB of the temporary file are written, so the parent's
    # SIGKILL always lands mid-write, whatever the disk's or the scheduler's speed.
    def __init__(self, file):
        self.file, self.written = file, 0

    def write(self, data):
        count = self.file.write(data)
        self.written += len(data)
        if self.written > 20 * 2**20:
            self.file.flush()
            print("paused", flush=True)
            time.sleep(600)
        return count

    def __getattr__(self, name):
        return getattr(self.file, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self.file.__exit__(*exc)


def pausing_open(path, mode="r", *args, **kwargs):
    file = real_open(path, mode, *args, **kwargs)
    if "b" in mode and os.path.basename(str(path)).startswith(".model."):
        return PauseMidWrite(file)
    return file


def pausing_safetensors(tensors, filename, metadata=None):
    # the library writes from native code: stand in for it, writing through Python's open
    with builtins.open(filename, "wb") as file:
        for array in tensors.values():
            file.write(array.tobytes())


params = [ms.Parameter(np.full((1024, 1024 * 10), i, np.float32), name=f"p{i}") for i in range(5)]
builtins.open = pausing_open
if sys.argv[2] == "safetensors":
    import safetensors.numpy

    safetensors.numpy.save_file = pausing_safetensors
ms.save_checkpoint(params, sys.argv[1], format=sys.argv[2])
print("done", flush=True)
"""


@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_sigkill_during_large_save_keeps_old_checkpoint(tmp_path, fmt):
    path = str(tmp_path / f"model.{fmt}")
    ms.save_checkpoint(_dense_params(1.5), path, format=fmt)
    before = _read(path)
    process = subprocess.Popen(
        [sys.executable, "-c", _KILL_SCRIPT, path, fmt],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        line = process.stdout.readline()  # blocks until the child pauses mid-write (or exits)
        assert line.strip() == b"paused", f"the save did not pause: {line!r}"
        temps = [f for f in os.listdir(tmp_path) if f.startswith(f".model.{fmt}.")]
        assert temps and os.path.getsize(tmp_path / temps[0]) > 20 * 2**20
        process.send_signal(signal.SIGKILL)
    finally:
        if process.poll() is None:
            process.kill()
        _, err = process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL, err.decode()[-2000:]
    assert _read(path) == before
    loaded = ms.load_checkpoint(path, format=fmt)
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), [[1.5, 1.5]])
    leftovers = [f for f in os.listdir(tmp_path) if f != f"model.{fmt}"]
    assert len(leftovers) == 1 and leftovers[0].endswith(".tmp")  # the dead writer's temp file
    # the next save to the folder (of any file) sweeps the dead writer's temporary file
    ms.save_checkpoint(_dense_params(2.5), str(tmp_path / f"other.{fmt}"), format=fmt)
    assert sorted(os.listdir(tmp_path)) == sorted([f"model.{fmt}", f"other.{fmt}"])


def test_sweep_keeps_temporaries_of_live_writers_and_other_hosts(tmp_path):
    from cellax._serialization import _common

    host = _common._host_tag()
    live = tmp_path / f".a.ckpt.{host}.{os.getppid()}.0123abcd.tmp"  # a running process
    foreign = tmp_path / ".a.ckpt.h00000000.999999999.0123abcd.tmp"  # another machine
    mine = tmp_path / f".a.ckpt.{host}.{os.getpid()}.0123abcd.tmp"  # an in-flight save here
    other = tmp_path / "notes.tmp"
    for path in (live, foreign, mine, other):
        path.write_bytes(b"x")
    ms.save_checkpoint(_dense_params(1.0), str(tmp_path / "a.ckpt"))
    assert all(p.exists() for p in (live, foreign, mine, other))


def test_failed_save_leaves_no_temporary(tmp_path, monkeypatch):
    def explode(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(_format.CheckpointWriter, "finish", explode)
    with pytest.raises(OSError, match="disk full"):
        ms.save_checkpoint(_dense_params(1.0), str(tmp_path / "a.ckpt"))
    assert os.listdir(tmp_path) == []


# -- asynchronous save and load -------------------------------------------------------------------
def test_async_save_writes_the_snapshot(tmp_path, monkeypatch):
    net = nn.Dense(2, 1)
    ms.load_param_into_net(net, _dense_params(1.0))
    release = threading.Event()
    original = _save._write_file

    def slow_write(*args):
        assert release.wait(30)  # training changes the Parameters before the write starts
        original(*args)

    monkeypatch.setattr(_save, "_write_file", slow_write)

    @ms.jit
    def step():
        ops.assign(net.weight, net.weight + 1)
        ops.assign(net.bias, net.bias + 1)

    path = str(tmp_path / "async.ckpt")
    ms.save_checkpoint(net, path, async_save=True)
    for _ in range(3):
        step()  # donates (deletes) the arrays the snapshot was taken from
    assert ms.async_ckpt_thread_status()
    release.set()
    _save._wait_async_save()
    assert not ms.async_ckpt_thread_status()
    loaded = ms.load_checkpoint(path)
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), [[1.0, 1.0]])
    np.testing.assert_array_equal(net.weight.asnumpy(), [[4.0, 4.0]])


def test_async_save_error_is_raised_by_next_save(tmp_path, monkeypatch):
    def broken(*args):
        raise OSError("no space left (simulated)")

    monkeypatch.setattr(_save, "_write_file", broken)
    ms.save_checkpoint(nn.Dense(2, 1), str(tmp_path / "a.ckpt"), async_save="thread")
    monkeypatch.undo()
    with pytest.raises(RuntimeError, match="previous asynchronous save of .*a.ckpt' failed"):
        ms.save_checkpoint(nn.Dense(2, 1), str(tmp_path / "b.ckpt"))
    ms.save_checkpoint(nn.Dense(2, 1), str(tmp_path / "b.ckpt"))  # the error is reported once
    assert not os.path.exists(tmp_path / "a.ckpt")


def test_load_checkpoint_async(good_ckpt, tmp_path):
    future = ms.load_checkpoint_async(good_ckpt)
    assert len(future.result()) == 6
    st = str(tmp_path / "m.safetensors")
    ms.save_checkpoint(Nested(), st, format="safetensors")
    assert len(ms.load_checkpoint_async(st).result()) == 6
    with pytest.raises(ValueError, match="does not exist"):
        ms.load_checkpoint_async(str(tmp_path / "none.ckpt")).result()


# -- argument errors ------------------------------------------------------------------------------
def test_save_checkpoint_errors(tmp_path):
    net = nn.Dense(2, 1)
    path = str(tmp_path / "e.ckpt")
    with pytest.raises(TypeError, match="'save_obj' must be nn.Cell, list or dict"):
        ms.save_checkpoint(3, path)
    with pytest.raises(TypeError, match="'ckpt_file_name' must be a str"):
        ms.save_checkpoint(net, 3)
    with pytest.raises(ValueError, match="format must be 'safetensors' or 'ckpt'"):
        ms.save_checkpoint(net, path, format="bin")
    with pytest.raises(IsADirectoryError, match="is a directory"):
        ms.save_checkpoint(net, str(tmp_path))
    with pytest.raises(TypeError, match="list of Parameters, every item must be a Parameter"):
        ms.save_checkpoint([1], path)
    with pytest.raises(TypeError, match="'name' must be a str"):
        ms.save_checkpoint([{"name": 1, "data": Tensor(np.ones(1))}], path)
    with pytest.raises(TypeError, match="keys must be str"):
        ms.save_checkpoint({1: Tensor(np.ones(1))}, path)
    with pytest.raises(TypeError, match="value of 'x' must be a Parameter"):
        ms.save_checkpoint({"x": [1, 2]}, path)
    with pytest.raises(TypeError, match="items of 'append_dict'"):
        ms.save_checkpoint(net, path, append_dict={"a": [1]})
    with pytest.raises(TypeError, match="'async_save' must be bool or str"):
        ms.save_checkpoint(net, path, async_save=3)
    with pytest.raises(ValueError, match="'async_save' can only be 'process' or 'thread'"):
        ms.save_checkpoint(net, path, async_save="bogus")
    with pytest.raises(TypeError, match=r"keyword arguments \['crc_chek'\] are unknown"):
        ms.save_checkpoint(net, path, crc_chek=True)
    with pytest.raises(NotImplementedError, match="enc_key"):
        ms.save_checkpoint(net, path, enc_key=b"0123456789abcdef")
    with pytest.raises(ValueError, match="when format is 'safetensors', the parameter 'enc_key'"):
        ms.save_checkpoint(net, path, enc_key=b"k", format="safetensors")
    with pytest.raises(ValueError, match="can not hold the string entry 'note'"):
        ms.save_checkpoint(
            net, str(tmp_path / "s.safetensors"), format="safetensors", append_dict={"note": "x"}
        )
    assert os.listdir(tmp_path) == []


def test_missing_optional_packages_give_install_hint(tmp_path, monkeypatch):
    monkeypatch.setattr(_format, "_schema_cache", [])
    monkeypatch.setitem(sys.modules, "google.protobuf", None)
    with pytest.raises(ImportError, match="pip install protobuf"):
        ms.save_checkpoint(nn.Dense(2, 1), str(tmp_path / "x.ckpt"))
    monkeypatch.setitem(sys.modules, "safetensors", None)
    with pytest.raises(ImportError, match="pip install safetensors"):
        ms.save_checkpoint(nn.Dense(2, 1), str(tmp_path / "x.safetensors"), format="safetensors")
    assert os.listdir(tmp_path) == []


# -- format conversion ----------------------------------------------------------------------------
def test_ckpt_safetensors_conversion(tmp_path):
    net = Nested()
    single = tmp_path / "single"
    single.mkdir()
    ms.save_checkpoint(net, str(single / "net.ckpt"))
    ms.ckpt_to_safetensors(str(single / "net.ckpt"), name_map={"head.scale": "scale"})
    converted = ms.load_checkpoint(str(single / "net.safetensors"), format="safetensors")
    assert "scale" in converted and "head.scale" not in converted
    np.testing.assert_array_equal(converted["scale"].asnumpy(), net.head.scale.asnumpy())

    ranks = tmp_path / "ranks"
    for rank in ("rank_0", "rank_1"):
        (ranks / rank).mkdir(parents=True)
        ms.save_checkpoint(net, str(ranks / rank / "step_1.ckpt"))
    ms.ckpt_to_safetensors(str(ranks), save_path=str(tmp_path / "out"))
    assert sorted(os.listdir(tmp_path / "out")) == ["rank_0", "rank_1"]
    ms.safetensors_to_ckpt(str(tmp_path / "out"), save_path=str(tmp_path / "back"))
    back = ms.load_checkpoint(str(tmp_path / "back" / "rank_1" / "step_1.ckpt"))
    assert sorted(back) == sorted(p.name for p in net.get_parameters())
    np.testing.assert_array_equal(back["head.count"].asnumpy(), net.head.count.asnumpy())
    with pytest.raises(ValueError, match="no directories starting with 'rank'"):
        ms.ckpt_to_safetensors(str(single))
    with pytest.raises(ValueError, match="must be a valid path or file"):
        ms.ckpt_to_safetensors(str(tmp_path / "nothing.ckpt"))
    with pytest.raises(ValueError, match="must be a .safetensors file"):
        ms.safetensors_to_ckpt(str(single / "net.ckpt"))
    with pytest.raises(ValueError, match="save_path must be a directory"):
        ms.ckpt_to_safetensors(str(single / "net.ckpt"), save_path=str(tmp_path / "x.ckpt"))
