"""Property tests of mint's broadcasting and dtype rules (bounded: few, small examples).

The rules (MindSpore 2.10, checked case by case in tests/goldens/mint.json): shapes broadcast as
NumPy; two Tensors promote as NumPy within a kind (bool < int < float), and a float Tensor
meeting a bool/int Tensor keeps its float dtype; a Python float meets an int/bool Tensor as
Float32 and leaves a float Tensor's dtype; arithmetic of two Bool Tensors stays Bool (``sub``
is an exclusive or); comparisons give Bool.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import cellax as ms
from cellax import mint

DTYPES = {
    "bool": np.bool_,
    "int32": np.int32,
    "int64": np.int64,
    "float16": np.float16,
    "float32": np.float32,
}
ARITH = ["add", "sub", "mul", "maximum", "minimum"]
COMPARE = ["eq", "ne", "lt", "le", "gt", "ge"]


def _kind(dtype):
    return "b" if dtype == np.bool_ else "i" if np.issubdtype(dtype, np.integer) else "f"


def _promote(a, b):
    ka, kb = _kind(a), _kind(b)
    if ka == "f" and kb != "f":
        return np.dtype(a)
    if kb == "f" and ka != "f":
        return np.dtype(b)
    return np.promote_types(a, b)


@st.composite
def _broadcast_pair(draw):
    """Two shapes (rank <= 3, sizes <= 3) that broadcast together."""
    rank = draw(st.integers(0, 3))
    full = draw(st.lists(st.integers(1, 3), min_size=rank, max_size=rank))
    shapes = []
    for _ in range(2):
        drop = draw(st.integers(0, rank))
        shapes.append(tuple(1 if draw(st.booleans()) else n for n in full[drop:]))
    return shapes


def _array(draw, shape, dtype):
    if dtype == np.bool_:
        values = st.booleans()
    elif np.issubdtype(dtype, np.integer):
        values = st.integers(-5, 5)
    else:
        values = st.sampled_from([-2.5, -1.0, -0.5, 0.0, 0.25, 1.0, 3.0])
    size = int(np.prod(shape))
    return np.array(draw(st.lists(values, min_size=size, max_size=size)), dtype).reshape(shape)


@settings(max_examples=15)
@given(
    st.data(),
    _broadcast_pair(),
    st.sampled_from(sorted(DTYPES)),
    st.sampled_from(sorted(DTYPES)),
    st.sampled_from(ARITH + COMPARE),
)
def test_binary_broadcast_and_promotion(data, shapes, da, db, name):
    a = _array(data.draw, shapes[0], DTYPES[da])
    b = _array(data.draw, shapes[1], DTYPES[db])
    out = getattr(mint, name)(ms.Tensor(a), ms.Tensor(b))
    want = getattr(
        np,
        {
            "add": "add",
            "sub": "subtract",
            "mul": "multiply",
            "eq": "equal",
            "ne": "not_equal",
            "lt": "less",
            "le": "less_equal",
            "gt": "greater",
            "ge": "greater_equal",
        }.get(name, name),
    )(a.astype(np.float64), b.astype(np.float64))
    assert tuple(out.shape) == np.broadcast_shapes(a.shape, b.shape)
    expected_dtype = np.bool_ if name in COMPARE else _promote(a.dtype, b.dtype)
    if da == db == "bool":
        expected_dtype = np.bool_  # MindSpore: or / xor / and / or / and of the two
    assert out.asnumpy().dtype == expected_dtype, (name, da, db, out.dtype)
    got = out.asnumpy().astype(np.float64)
    if expected_dtype == np.bool_:
        want = want.astype(bool)
    np.testing.assert_allclose(got, want.astype(np.float64), rtol=1e-3, atol=1e-3)


@settings(max_examples=15)
@given(st.data(), st.sampled_from(sorted(DTYPES)), st.sampled_from([2, 2.5, True]))
def test_python_scalar_operand(data, da, scalar):
    a = _array(data.draw, (2, 3), DTYPES[da])
    out = mint.add(ms.Tensor(a), scalar)
    if _kind(a.dtype) == "f":
        expected = a.dtype
    elif isinstance(scalar, float):
        expected = np.dtype(np.float32)
    elif isinstance(scalar, bool) or da != "bool":
        expected = a.dtype
    else:
        expected = np.dtype(np.int64)
    assert out.asnumpy().dtype == expected, (da, scalar, out.dtype)
    want = a.astype(np.float64) + scalar
    if expected == np.bool_:
        want = want.astype(bool)  # bool + True is a logical or
    np.testing.assert_allclose(out.asnumpy().astype(np.float64), want, rtol=1e-3)


@settings(max_examples=8)
@given(st.data(), _broadcast_pair(), st.sampled_from([1, 2, -0.5]))
def test_add_alpha_and_where_broadcast(data, shapes, alpha):
    a = _array(data.draw, shapes[0], np.float32)
    b = _array(data.draw, shapes[1], np.float32)
    out = mint.add(ms.Tensor(a), ms.Tensor(b), alpha=alpha)
    np.testing.assert_allclose(out.asnumpy(), a + alpha * b, rtol=1e-6, atol=1e-6)
    cond = a > 0
    picked = mint.where(ms.Tensor(cond), ms.Tensor(a), ms.Tensor(b))
    np.testing.assert_array_equal(picked.asnumpy(), np.where(cond, a, b))


@settings(max_examples=15)
@given(st.data(), st.sampled_from(["float32", "int32", "bool"]), st.integers(-2, 1), st.booleans())
def test_reduction_dim_keepdim(data, dtype, dim, keepdim):
    a = _array(data.draw, (2, 3), DTYPES[dtype])
    got = mint.sum(ms.Tensor(a), dim=dim, keepdim=keepdim)
    want = np.sum(a, axis=dim, keepdims=keepdim)
    assert got.shape == want.shape
    # MindSpore: sum of bool/int32 is Int64, float keeps its dtype
    assert got.asnumpy().dtype == (np.float32 if dtype == "float32" else np.int64)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
