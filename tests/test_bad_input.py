"""Bad input gets a clear error of a builtin type before anything is allocated (issue 22)."""

import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import cellax as ms
from cellax import Tensor, nn, ops
from cellax import _limits
from cellax._limits import AllocationError, check_alloc, device_bytes

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Each of these crashed (SIGABRT inside XLA), hung, or raised a JAX/NumPy error before: run them
# in a child process, so a regression fails this test instead of killing the test run.
_CASES = {
    "zeros": "ops.zeros((2**62, 8))",
    "ones": "ops.ones((2**20, 2**20))",
    "full": "ops.full((2**31, 2**31), 1.0)",
    "eye": "ops.eye(10**12)",
    "arange": "ops.arange(0, 10**13)",
    "randn": "ops.randn((2**40, 2**20))",
    "one_hot": "ops.one_hot(Tensor(np.array([1, 2]), ms.int32), 10**12, Tensor(1.0), Tensor(0.0))",
    "interpolate": "ops.interpolate(x4, size=(10**6, 10**6))",
    "adaptive_pool": "nn.AdaptiveAvgPool2d((2**62, 8))(x4)",
    "layer_norm": "nn.LayerNorm((2**62, 8))",
    "dense": "nn.Dense(10**12, 3)",
    "conv": "nn.Conv2d(3, 10**12, 3)",
    "embedding": "nn.Embedding(10**12, 4)",
    "lstm": "nn.LSTM(4, 10**12)",
    "tile": "ops.tile(Tensor(np.ones(3, np.float32)), (4 * 10**9,))",
    "repeat": "Tensor(np.ones(3, np.float32)).repeat(-1)",
    # issue 38: SIGABRT inside XLA, a hang in the constructor, a MemoryError with no message
    "linspace": "ops.linspace(0.0, 1.0, 10**12)",
    "scatter_nd": "ops.scatter_nd(Tensor([[0]]), Tensor(np.ones(1, np.float32)), (10**13,))",
    "scatter_nd_int64": "ops.scatter_nd(Tensor([[0]]), Tensor([1.0]), (10**12, 10**12))",
    "lstm_layers": "nn.LSTM(4, 8, num_layers=10**12)",
    "prelu": "nn.PReLU(channel=10**12)",
}
_EXPECTED = {
    "zeros": ("ValueError", "For 'zeros', 'size'"),
    "ones": ("AllocationError", "For 'ones', 'shape'"),
    "full": ("AllocationError", "For 'full', 'size'"),
    "eye": ("ValueError", "For 'eye', 'n'"),
    "arange": ("AllocationError", "For 'arange', 'end'"),
    "randn": ("AllocationError", "For 'randn', 'size'"),
    "one_hot": ("AllocationError", "For 'one_hot', 'depth'"),
    "interpolate": ("AllocationError", "For 'interpolate', 'size'"),
    "adaptive_pool": ("ValueError", "For 'adaptive_avg_pool2d', 'output_size'"),
    "layer_norm": ("ValueError", "For 'LayerNorm', a parameter"),
    "dense": ("AllocationError", "For 'Dense', a parameter"),
    "conv": ("AllocationError", "For 'Conv2d', a parameter"),
    "embedding": ("AllocationError", "For 'Embedding', a parameter"),
    "lstm": ("AllocationError", "For 'LSTM', a parameter"),
    "tile": ("AllocationError", "For 'tile', 'dims'"),
    "repeat": ("ValueError", "For 'tile', 'dims' must not be negative"),
    "linspace": ("AllocationError", "For 'linspace', 'steps'"),
    "scatter_nd": ("AllocationError", "For 'scatter_nd', 'shape'"),
    "scatter_nd_int64": ("ValueError", "For 'scatter_nd', 'shape'"),
    "lstm_layers": ("AllocationError", "For 'LSTM', 'num_layers'"),
    "prelu": ("AllocationError", "For 'PReLU', 'channel'"),
}
_CHILD = """
import json, sys
import numpy as np
import cellax as ms
from cellax import Tensor, nn, ops
x4 = Tensor(np.ones((1, 1, 4, 4), np.float32))
results = {}
for name, code in json.loads(sys.argv[1]).items():
    try:
        eval(code)
        results[name] = ["no error", ""]
    except BaseException as error:  # noqa: BLE001 - the type is what is checked
        results[name] = [type(error).__name__, str(error)]
print(json.dumps(results))
"""


def test_huge_sizes_raise_before_allocating():
    # the huge MemoryError cases are far beyond any machine (TiB and more)
    assert device_bytes() < 2**40
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(_CASES)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])
    for name, (kind, start) in _EXPECTED.items():
        got_kind, message = results[name]
        assert got_kind == kind and message.startswith(start), (name, got_kind, message)


def test_check_alloc_rules():
    check_alloc("api", "shape", (0, 5))  # empty arrays are fine
    with pytest.raises(ValueError, match="must not have negative dimensions"):
        check_alloc("api", "shape", (-1, 5))
    with pytest.raises(ValueError, match="more than an int64 can count"):
        check_alloc("api", "shape", (2**32, 2**32))
    with pytest.raises(MemoryError, match="For 'api', 'shape' gives a shape"):
        check_alloc("api", "shape", (device_bytes() // 4 + 1,), 4)
    # MindSpore's kernels raise RuntimeError where its NumPy initializers raise MemoryError
    with pytest.raises(RuntimeError, match="more than the device holds"):
        check_alloc("api", "shape", (device_bytes() // 4 + 1,), 4)


def test_check_alloc_uses_the_free_memory(monkeypatch):
    # between what is free and the device total (issue 38: RESOURCE_EXHAUSTED from XLA)
    monkeypatch.setattr(_limits, "free_bytes", lambda: 2**30)
    with pytest.raises(AllocationError, match=r"For 'zeros', 'size' .* can allocate now \(1 GiB"):
        ops.zeros((2**29,))  # 2 GiB of float32, allocated only if the check is missing
    assert ops.zeros((4,)).shape == (4,)  # small requests do not ask for the free memory


def test_ordinary_sizes_still_work():
    assert ops.zeros((2, 0)).shape == (2, 0)
    assert ops.tile(Tensor([1, 2]), (3,)).shape == (6,)
    assert ops.arange(0, 10, 3).shape == (4,)
    assert nn.AdaptiveAvgPool2d((8, 8))(Tensor(np.ones((1, 1, 4, 4), np.float32))).shape == (
        1,
        1,
        8,
        8,
    )


def test_jit_returns_constants_as_mindspore_does():
    x = Tensor(np.ones(3, np.float32))
    assert ms.jit(lambda x: 3)(x) == 3 and type(ms.jit(lambda x: 3)(x)) is int
    out = ms.jit(lambda x: (x * 2, 2.0, x.shape))(x)
    assert isinstance(out[0], Tensor) and out[1] == 2.0 and type(out[1]) is float
    assert out[2] == (3,)
    constant = ms.jit(lambda x: np.ones(2))(x)
    assert type(constant) is np.ndarray
    import jax.numpy as jnp

    computed = ms.jit(lambda x: jnp.ones(2))(x)  # a device array becomes a Tensor
    assert isinstance(computed, Tensor)
    np.testing.assert_array_equal(computed.asnumpy(), [1.0, 1.0])


_X = np.arange(12, dtype=np.float32).reshape(3, 4)
_OUT_OF_RANGE = [
    (lambda x: ops.gather(x, Tensor([0, 5]), 0), RuntimeError, "For 'gather', 'input_indices'"),
    (lambda x: ops.gather_d(x, 1, Tensor([[0, 9]] * 3)), RuntimeError, "For 'gather_elements'"),
    (lambda x: ops.gather_nd(x, Tensor([[5, 0]])), RuntimeError, "For 'gather_nd', 'indices'"),
    (lambda x: ops.index_select(x, 0, Tensor([0, 5])), RuntimeError, "For 'index_select'"),
    (
        lambda x: ops.scatter_nd(Tensor([[5]]), Tensor(np.ones((1, 4), np.float32)), (3, 4)),
        RuntimeError,
        "For 'scatter_nd'",
    ),
    (
        lambda x: ops.tensor_scatter_update(x, Tensor([[5]]), Tensor(np.ones((1, 4), np.float32))),
        ValueError,
        "For 'tensor_scatter_update'",
    ),
    (lambda x: nn.Embedding(3, 2)(Tensor([5])), RuntimeError, "For 'embedding', 'input'"),
    (lambda x: ops.cross_entropy(x, Tensor([0, 1, 7])), RuntimeError, "For 'cross_entropy'"),
    (lambda x: ops.nll_loss(x, Tensor([0, 1, 7])), RuntimeError, "For 'nll_loss', 'target'"),
    (lambda x: x[[0, 5]], IndexError, "index 5 is out of bounds"),
    # a Tensor index: MindSpore 2.10's Gather kernel raises RuntimeError (oracle, with
    # pynative_synchronize; a list index is an IndexError)
    (lambda x: x[Tensor([0, 5])], RuntimeError, "index 5 is out of bounds"),
]


@pytest.mark.parametrize("call, error, match", _OUT_OF_RANGE)
def test_out_of_range_indices_raise_eagerly(call, error, match):
    with pytest.raises(error, match=match):
        call(Tensor(_X))


def test_in_range_and_ignored_indices_still_work():
    x = Tensor(_X)
    np.testing.assert_array_equal(ops.index_select(x, 0, Tensor([2, 0])).asnumpy(), _X[[2, 0]])
    np.testing.assert_array_equal(x[Tensor([-1])].asnumpy(), _X[[-1]])
    loss = ops.cross_entropy(x, Tensor([0, 1, -100]))  # ignore_index is not a class
    assert np.isfinite(loss.asnumpy())
    # under jit the values are unknown while compiling: clamped, as documented
    out = ms.jit(lambda a, b: ops.index_select(a, 0, b))(x, Tensor([0, 5]))
    np.testing.assert_array_equal(out.asnumpy(), _X[[0, 2]])


def test_every_op_names_itself_when_its_input_is_bad():
    # tools/fuzz_bad_input.py: None, a str, a dict and a ragged list as each required
    # positional argument of every public cellax.ops function; each call raises a builtin type
    # naming the API, or accepts the value (e.g. a dtype-like argument)
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import fuzz_bad_input
    finally:
        sys.path.pop(0)
    from cellax._random import RNG_STATE

    key = RNG_STATE._data
    try:
        assert fuzz_bad_input.campaign(all_positions=True) == []
    finally:
        RNG_STATE._data = key  # random ops that accepted their arguments drew keys
