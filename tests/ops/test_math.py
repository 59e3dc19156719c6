"""Elementwise math, comparison and reductions vs NumPy references and MindSpore goldens."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.special as sp
from jax.test_util import check_grads

import cellax as ms
from cellax import ops

from ._common import assert_golden, rng

T = ms.Tensor

FLOAT_UNARY = {
    "exp": np.exp,
    "expm1": np.expm1,
    "log": np.log,
    "log2": np.log2,
    "log10": np.log10,
    "log1p": np.log1p,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "tanh": np.tanh,
    "asin": np.arcsin,
    "acos": np.arccos,
    "atan": np.arctan,
    "asinh": np.arcsinh,
    "acosh": np.arccosh,
    "atanh": np.arctanh,
    "erf": sp.erf,
    "erfc": sp.erfc,
    "reciprocal": lambda x: 1 / x,
    "lgamma": sp.gammaln,
    "digamma": sp.digamma,
    "sigmoid": sp.expit,
    "deg2rad": np.deg2rad,
    "exp2": np.exp2,
}
# inputs are scaled/shifted into the domain of the inverse functions
SHIFT = {"asin": 0.25, "acos": 0.25, "atanh": 0.25}
OFFSET = {"acosh": 1.0}
SAME_UNARY = {
    "abs": np.abs,
    "neg": np.negative,
    "square": np.square,
    "sign": np.sign,
    "floor": np.floor,
    "ceil": np.ceil,
    "trunc": np.trunc,
    "isnan": np.isnan,
    "isinf": np.isinf,
    "isfinite": np.isfinite,
    "logical_not": np.logical_not,
}


def _positive(shape, seed=0):
    return rng(seed).uniform(0.5, 3.0, shape).astype(np.float32)


@pytest.mark.parametrize("name", sorted(FLOAT_UNARY))
def test_float_unary_matches_numpy(name):
    x = _positive((2, 3)) * SHIFT.get(name, 1.0) + OFFSET.get(name, 0.0)
    got = getattr(ops, name)(T(x))
    assert got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy(), FLOAT_UNARY[name](x), rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["exp", "sqrt", "sin", "erf", "sigmoid"])
@pytest.mark.parametrize("dtype", [ms.int32, ms.int64, ms.bool_])
def test_float_unary_integer_input_computes_float32(name, dtype):
    x = np.array([1, 2, 3]) if dtype != ms.bool_ else np.array([True, False, True])
    if name == "exp" and dtype == ms.int32:  # MindSpore's Exp rejects Int32 (accepts Int64)
        with pytest.raises(TypeError):
            ops.exp(T(x, dtype))
        return
    got = getattr(ops, name)(T(x, dtype))
    assert got.dtype == ms.float32
    ref = FLOAT_UNARY[name](x.astype(np.float32))
    np.testing.assert_allclose(got.asnumpy(), ref, rtol=1e-6)


@pytest.mark.parametrize("name", sorted(SAME_UNARY))
@pytest.mark.parametrize("dtype", [ms.float32, ms.int32])
def test_same_dtype_unary(name, dtype):
    x = rng(1).normal(size=(3, 4)) * 3
    if name not in ("isnan", "isinf", "isfinite") and dtype == ms.int32:
        x = np.round(x)
    x = x.astype(dtype.np_dtype)
    if name == "ceil" and dtype == ms.int32:  # MindSpore's Ceil accepts float Tensors only
        with pytest.raises(TypeError):
            ops.ceil(T(x))
        return
    got = getattr(ops, name)(T(x))
    ref = SAME_UNARY[name](x)
    assert got.asnumpy().dtype == ref.dtype
    np.testing.assert_array_equal(got.asnumpy(), ref)


BINARY = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.true_divide,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "floor_div": np.floor_divide,
    "floor_mod": np.mod,
    "remainder": np.mod,
    "fmod": np.fmod,
    "pow": np.power,
    "atan2": np.arctan2,
    "hypot": np.hypot,
    "logaddexp": np.logaddexp,
    "squared_difference": lambda a, b: (a - b) ** 2,
    "xlogy": sp.xlogy,
    "eq": np.equal,
    "ne": np.not_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
    "lt": np.less,
    "le": np.less_equal,
    "logical_and": np.logical_and,
    "logical_or": np.logical_or,
    "logical_xor": np.logical_xor,
}


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("shapes", [((2, 3), (3,)), ((4, 1), (1, 5))])
def test_binary_broadcasting_matches_numpy(name, shapes):
    a = _positive(shapes[0], 2)
    b = _positive(shapes[1], 3)
    got = getattr(ops, name)(T(a), T(b))
    ref = BINARY[name](a, b)
    assert got.shape == ref.shape
    assert got.asnumpy().dtype == ref.dtype
    np.testing.assert_allclose(got.asnumpy(), ref, rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize(
    "fn, expected_dtype",
    [
        (lambda: ops.add(T([1, 2], ms.int32), 2.5), ms.float32),
        (lambda: ops.add(T([1, 2], ms.int32), 2), ms.int32),
        (lambda: ops.mul(T([1, 2], ms.int64), 2.0), ms.float32),
        (lambda: ops.div(T([1, 2], ms.int32), T([2, 2], ms.int32)), ms.float32),
        (lambda: ops.pow(T([1, 2], ms.int32), 2), ms.int32),
        (lambda: ops.add(T([1.0], ms.float16), 1.5), ms.float16),
        (lambda: ops.add(np.array([1.0], np.float32), jnp.array([1.0], jnp.float32)), ms.float32),
        (lambda: ops.gt(T([1, 2]), 1.5), ms.bool_),
        (lambda: ops.clamp(T([1, 2, 3]), 1.5, 2.5), ms.float32),
        (lambda: ops.mean(T([1, 2], ms.int32)), ms.int32),  # MindSpore keeps the integer dtype
    ],
)
def test_type_promotion(fn, expected_dtype):
    assert fn().dtype == expected_dtype


def test_inputs_of_every_kind_return_tensors():
    param = ms.Parameter(T([1.0, 2.0]), name="p")
    for value in (
        T([1.0, 2.0]),
        param,
        np.array([1.0, 2.0], np.float32),
        jnp.array([1.0, 2.0]),
        [1.0, 2.0],
    ):
        result = ops.add(value, 1.0)
        assert isinstance(result, ms.Tensor)
        np.testing.assert_allclose(result.asnumpy(), [2.0, 3.0])
    assert isinstance(ops.add(1, 2), ms.Tensor)


def test_div_rounding_modes():
    a, b = T([-7.0, 7.0, -7.5]), T([2.0, -2.0, 2.0])
    np.testing.assert_array_equal(ops.div(a, b, rounding_mode="floor").asnumpy(), [-4, -4, -4])
    np.testing.assert_array_equal(ops.div(a, b, rounding_mode="trunc").asnumpy(), [-3, -3, -3])
    ints = ops.div(T([-7, 7]), T([2, -2]), rounding_mode="trunc")
    assert ints.dtype == ms.int64
    np.testing.assert_array_equal(ints.asnumpy(), [-3, -3])
    with pytest.raises(ValueError, match="For 'div', 'rounding_mode'"):
        ops.div(a, b, rounding_mode="round")


def test_clamp_lerp_addcmul_isclose():
    x = rng(4).normal(size=(3, 4)).astype(np.float32)
    np.testing.assert_allclose(ops.clamp(T(x), -0.5, 0.5).asnumpy(), np.clip(x, -0.5, 0.5))
    np.testing.assert_allclose(ops.clip(T(x), max=0.1).asnumpy(), np.minimum(x, 0.1))
    low = T(np.full((4,), -0.2, np.float32))
    np.testing.assert_allclose(ops.clamp(T(x), low).asnumpy(), np.maximum(x, -0.2))
    np.testing.assert_allclose(ops.lerp(T(x), T(x * 2), 0.25).asnumpy(), x + 0.25 * x, rtol=1e-6)
    np.testing.assert_allclose(
        ops.addcmul(T(x), T(x), T(x), 0.5).asnumpy(), x + 0.5 * x * x, rtol=1e-6
    )
    np.testing.assert_allclose(
        ops.addcdiv(T(x), T(x), T(x + 9), 2).asnumpy(), x + 2 * x / (x + 9), rtol=1e-6
    )
    assert bool(ops.allclose(T(x), T(x + 1e-9)))
    np.testing.assert_array_equal(ops.isclose(T(x), T(x + 1)).asnumpy(), np.zeros_like(x, bool))
    with pytest.raises(ValueError, match="For 'clamp', at least one of 'min' and 'max'"):
        ops.clamp(T(x))


def test_bitwise_and_shifts():
    a, b = np.array([5, 12, 7], np.int32), np.array([3, 10, 1], np.int32)
    assert ops.bitwise_and(T(a), T(b)).asnumpy().tolist() == (a & b).tolist()
    assert ops.bitwise_or(T(a), T(b)).asnumpy().tolist() == (a | b).tolist()
    assert ops.bitwise_xor(T(a), T(b)).asnumpy().tolist() == (a ^ b).tolist()
    assert ops.bitwise_left_shift(T(a), T(b)).asnumpy().tolist() == (a << b).tolist()
    assert ops.invert(T(a)).asnumpy().tolist() == (~a).tolist()
    with pytest.raises(TypeError, match="For 'bitwise_and', the inputs must be integer"):
        ops.bitwise_and(T([1.0]), T([2.0]))


REDUCTIONS = {
    "sum": (lambda x, a, k: ops.sum(x, a, k), np.sum),
    "mean": (lambda x, a, k: ops.mean(x, a, k), np.mean),
    "prod": (lambda x, a, k: ops.prod(x, a, k), np.prod),
    "amax": (lambda x, a, k: ops.amax(x, a, k), np.max),
    "amin": (lambda x, a, k: ops.amin(x, a, k), np.min),
    "std": (lambda x, a, k: ops.std(x, a, keepdims=k), np.std),
    "var": (lambda x, a, k: ops.var(x, a, keepdims=k), np.var),
    "logsumexp": (lambda x, a, k: ops.logsumexp(x, a, k), sp.logsumexp),
    "nansum": (lambda x, a, k: ops.nansum(x, a, k), np.nansum),
}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@pytest.mark.parametrize(
    "axis, keepdims", [(None, False), (-1, True), ((0, 2), False), ([1], True)]
)
def test_reductions_match_numpy(name, axis, keepdims):
    if name == "logsumexp" and axis is None:
        axis = (0, 1, 2)
    x = rng(5).normal(size=(2, 3, 4)).astype(np.float32)
    ours, ref = REDUCTIONS[name]
    got = ours(T(x), axis, keepdims)
    np_axis = tuple(axis) if isinstance(axis, list) else axis
    expected = ref(x, axis=np_axis, keepdims=keepdims)
    assert got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=2e-5, atol=1e-6)


def test_reduction_dtypes_and_ddof():
    x = rng(6).normal(size=(3, 4)).astype(np.float32)
    assert ops.sum(T([1, 2], ms.int32)).dtype == ms.int64  # as MindSpore
    assert ops.cumsum(T([1, 2], ms.int32), 0).dtype == ms.int32  # as MindSpore
    assert ops.sum(T([1, 2], ms.int32), dtype=ms.float64).dtype == ms.float64
    np.testing.assert_allclose(ops.var(T(x), 1, ddof=1).asnumpy(), np.var(x, 1, ddof=1), rtol=1e-5)
    var, mean = ops.var_mean(T(x), 0, ddof=1)
    np.testing.assert_allclose(var.asnumpy(), np.var(x, 0, ddof=1), rtol=1e-5)
    np.testing.assert_allclose(mean.asnumpy(), np.mean(x, 0), rtol=1e-5)
    assert ops.all(T(x) > -10).asnumpy().item() is True
    assert ops.any(T(x) > 10, 1).asnumpy().tolist() == [False] * 3


@pytest.mark.parametrize("dtype", [ms.float32, ms.int32])
def test_scans(dtype):
    x = (rng(7).normal(size=(3, 4)) * 3).astype(dtype.np_dtype)
    np.testing.assert_allclose(ops.cumsum(T(x), 1).asnumpy(), np.cumsum(x, 1), rtol=1e-5)
    np.testing.assert_allclose(ops.cumprod(T(x), 0).asnumpy(), np.cumprod(x, 0), rtol=1e-5)
    values, indices = ops.cummax(T(x), 1)
    np.testing.assert_array_equal(values.asnumpy(), np.maximum.accumulate(x, 1))
    assert indices.dtype == ms.int64
    np.testing.assert_array_equal(np.take_along_axis(x, indices.asnumpy(), 1), values.asnumpy())
    if dtype == ms.float32:
        np.testing.assert_allclose(
            ops.logcumsumexp(T(x), 1).asnumpy(), np.logaddexp.accumulate(x, 1), rtol=1e-5
        )


def test_median_quantile_count_nonzero():
    x = rng(8).normal(size=(3, 5)).astype(np.float32)
    values, indices = ops.median(T(x), 1)
    np.testing.assert_allclose(values.asnumpy(), np.median(x, 1))
    np.testing.assert_array_equal(x[np.arange(3), indices.asnumpy()], values.asnumpy())
    np.testing.assert_allclose(
        ops.quantile(T(x), 0.3, 1).asnumpy(), np.quantile(x, 0.3, 1), rtol=1e-5
    )
    x[0, :2] = 0
    got = ops.count_nonzero(T(x), 1)
    assert got.dtype == ms.int32 and got.asnumpy().tolist() == [3, 5, 5]


GOLDEN_CASES = {
    "max_axis1": lambda X: ops.max(X, 1),
    "max_axis0_keepdims": lambda X: ops.max(X, 0, True),
    "max_all": lambda X: ops.max(X),
    "min_axis1": lambda X: ops.min(X, 1),
    "argmax_dim1": lambda X: ops.argmax(X, 1),
    "argmax_all": lambda X: ops.argmax(X),
    "argmin_axis1": lambda X: ops.argmin(X, 1),
    "std_all": lambda X: ops.std(X),
    "var_axis1": lambda X: ops.var(X, 1),
    "var_axis1_ddof1": lambda X: ops.var(X, 1, ddof=1),
    "std_mean": lambda X: ops.std_mean(X),
    "cummax": lambda X: ops.cummax(X, 1),
    "cummin": lambda X: ops.cummin(X, 1),
    "median": lambda X: ops.median(X, 1),
    "count_nonzero": lambda X: ops.count_nonzero(X),
    "mean_int_axis": lambda X: ops.mean(X, 1, True),
    "logsumexp": lambda X: ops.logsumexp(X, 1),
    "argmaxwithvalue": lambda X: ops.ArgMaxWithValue(axis=1)(X),
    "Argmax_prim": lambda X: ops.Argmax()(X),
    "isclose": lambda X: ops.isclose(T([1.0, 2.0]), T([1.0, 2.1])),
    "round": lambda X: ops.round(T(np.array([0.5, 1.5, 2.5, -0.5, -1.5, 3.7], np.float32))),
    "remainder_int": lambda X: ops.remainder(T([-3, 3, -7]), T([2, -2, 3])),
    "floor_mod": lambda X: ops.floor_mod(T([-3.0, 3.0]), T([2.0, -2.0])),
    "fmod": lambda X: ops.fmod(T([-3.0, 3.0]), T([2.0, -2.0])),
    "floor_div": lambda X: ops.floor_div(T([-3, 3]), T([2, 2])),
    "sqrt_int": lambda X: ops.sqrt(T([1, 4, 9])),
    "add_int_float": lambda X: ops.add(T([1, 2]), 2.5),
    "div_int": lambda X: ops.div(T([1, 2]), T([2, 2])),
    "pow_int": lambda X: ops.pow(T([1, 2, 3]), 2),
    "sum_int": lambda X: ops.sum(T([1, 2, 3])),
    "clamp_int_float": lambda X: ops.clamp(T([1, 2, 3]), 1.5, 2.5),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_mindspore_goldens(name):
    X = T(np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], np.float32))
    assert_golden(name, GOLDEN_CASES[name](X))


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: ops.exp(x),
        lambda x: ops.log(x),
        lambda x: ops.sqrt(x),
        lambda x: ops.tanh(x),
        lambda x: ops.erf(x),
        lambda x: ops.pow(x, 3.0),
        lambda x: ops.mul(x, x),
        lambda x: ops.div(x, x + 1),
        lambda x: ops.sum(x, 1),
        lambda x: ops.mean(x),
        lambda x: ops.prod(x, 0),
        lambda x: ops.std(x, 1),
        lambda x: ops.logsumexp(x, 1),
        lambda x: ops.cumsum(x, 1),
        lambda x: ops.amax(x, 1),
        lambda x: ops.clamp(x, 0.8, 2.0),
        lambda x: ops.lerp(x, x * x, 0.3),
        lambda x: ops.max(x, 1)[0],
    ],
)
def test_gradients(fn):
    x = jnp.asarray(_positive((2, 3), 9), jnp.float64)
    check_grads(
        jax.jit(lambda v: fn(T(v)).jax), (x,), order=1, modes=("rev",), atol=1e-3, rtol=1e-3
    )


def test_ops_under_jit_and_cellax_grad():
    @jax.jit
    def f(v):
        x = T(v)
        values, index = ops.max(x, 1)
        return ops.add(ops.sum(ops.exp(x)), ops.mean(values)).jax, index.jax

    x = _positive((2, 3))
    total, index = f(x)
    np.testing.assert_allclose(total, np.exp(x).sum() + x.max(1).mean(), rtol=1e-5)
    np.testing.assert_array_equal(index, x.argmax(1))
    grad = ms.grad(lambda t: ops.sum(ops.square(t)))(T(x))
    np.testing.assert_allclose(grad.asnumpy(), 2 * x, rtol=1e-6)


def test_errors_name_the_op_and_argument():
    x = T(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"For 'add', the shapes of 'input' \(2, 3\) and 'other'"):
        ops.add(x, T(np.ones(4, np.float32)))
    with pytest.raises(ValueError, match=r"For 'sum', 'dim' must be in range \[-2, 2\), but got 5"):
        ops.sum(x, 5)
    with pytest.raises(TypeError, match="For 'exp', 'input' must be a Tensor"):
        ops.exp("abc")
    with pytest.raises(TypeError, match="For 'argmin', 'axis' must be an int"):
        ops.argmin(x, 1.5)
    with pytest.raises(RuntimeError, match="For 'matmul', the last dimension of 'input'"):
        ops.matmul(x, x)  # MindSpore's MatMulExt raises RuntimeError
    with pytest.raises(RuntimeError, match="For 'trace', 'input' must be 2-D"):
        ops.trace(T(np.ones(3)))  # MindSpore's Trace checks the rank with a RuntimeError
    with pytest.raises(TypeError, match="For 'addn', 'x' must be a non-empty list"):
        ops.addn([])


def test_pow_of_integers_with_negative_exponents():
    # MindSpore 2.10 CPU (oracle): truncation toward 0, (+-1) ** -n exact, 0 ** -n the minimum
    base = ms.Tensor(np.array([2, 1, -1, 0, 3, -2], np.int32))
    exponent = ms.Tensor(np.array([-1, -2, -3, -1, -2, -1], np.int32))
    low = np.iinfo(np.int32).min
    np.testing.assert_array_equal(ops.pow(base, exponent).asnumpy(), [0, 1, -1, low, 0, 0])
    np.testing.assert_array_equal(ops.pow(base, -1).asnumpy(), [0, 1, -1, low, 0, 0])
    np.testing.assert_array_equal((base**-2).asnumpy(), [0, 1, 1, low, 0, 0])
    np.testing.assert_array_equal(ops.pow(base, 2).asnumpy(), [4, 1, 1, 0, 9, 4])
