"""Bad-argument round 2, group A (elementwise math, activations, products, decompositions,
norms, distances): the builtin exception type of each case is MindSpore 2.10's (issue 38;
tools/fuzz_bad_input_ops.py against MindSpore's recorded outcomes), and the deliberate
acceptances stay accepted."""

import numpy as np
import pytest

from cellax import Tensor, mint, ops

from .test_bad_input_ops import ALL, assert_raises, assert_returns

_UNARY = (
    "abs acos asin atan cos cosh erf erfc exp expm1 floor isfinite isinf isnan log log1p log2 "
    "logical_not neg reciprocal round rsqrt sign sin sinh sqrt square tan tanh trunc"
).split()
_ACTIVATIONS = (
    "celu elu gelu glu hardshrink hardsigmoid hardswish hardtanh leaky_relu log_softmax "
    "logsigmoid mish relu relu6 selu sigmoid silu softmax softmin softplus softshrink softsign "
    "threshold"
).split()
_PRODUCTS = "bmm dot inner matmul mm mv outer tensor_dot".split()

# A Python number where MindSpore 2.10 requires a Tensor: TypeError naming the op.
NUMBER = [
    *(f"ops.{api}/0/int" for api in _UNARY + _ACTIVATIONS),
    *(f"ops.{api}/{n}/int" for api in _PRODUCTS for n in (0, 1)),
    *(
        f"ops.{api}/{n}/int"
        for api in ("lerp", "isclose", "logaddexp", "logical_and", "cosine_similarity")
        for n in (0, 1)
    ),
    *(f"ops.addcmul/{n}/int" for n in (0, 1, 2)),
    *("ops.addmm/1/int", "ops.addmm/2/int", "ops.prelu/0/int", "ops.prelu/1/int"),
    *("ops.eq/0/int", "ops.equal/0/int", "ops.clamp/0/int", "ops.clip/0/int", "ops.where/0/int"),
    *("ops.masked_fill/0/int", "ops.norm/0/int", "ops.det/0/int", "ops.inverse/0/int"),
    *("ops.matrix_power/0/int", "ops.pdist/0/int", "ops.logit/0/int"),
    *("mint.bmm/0/int", "mint.bmm/1/int", "mint.clamp/0/int", "mint.where/0/int"),
    *("mint.lerp/0/int", "mint.lerp/1/int"),
    *(
        f"mint.nn.functional.{api}/0/int"
        for api in (
            "elu",
            "gelu",
            "glu",
            "hardtanh",
            "leaky_relu",
            "log_softmax",
            "relu",
            "softmax",
        )
    ),
]

# A dtype MindSpore's frontend refuses on every device: TypeError.
DTYPE = [
    *(
        f"ops.{api}/0/{label}"
        for api in ("celu", "gelu", "hardshrink", "mish", "relu6", "softmax", "softmin")
        for label in ("bool", "int32")
    ),
    *(
        f"ops.{api}/0/{label}"
        for api in ("softshrink", "softsign", "pdist", "prelu")
        for label in ("bool", "int32")
    ),
    *(
        f"ops.{api}/0/{label}"
        for api in ("einsum", "inverse", "dot")
        for label in ("bool", "int32")
    ),
    *("ops.dot/1/bool", "ops.dot/1/int32", "ops.selu/0/bool", "ops.hardsigmoid/0/bool"),
    *(f"ops.lerp/{n}/{label}" for n in (0, 1) for label in ("bool", "int32")),
    *(f"mint.lerp/{n}/{label}" for n in (0, 1) for label in ("bool", "int32")),
    *(f"ops.addcmul/{n}/bool" for n in (0, 1, 2)),
    *(
        f"mint.nn.functional.{api}/0/{label}"
        for api in ("leaky_relu", "softmax", "gelu")
        for label in ("bool", "int32")
    ),
    # the dtype is checked before the shapes, as in MindSpore
    "ops.bitwise_and/0/empty",
    "ops.bitwise_and/1/empty",
    "ops.pow/1/tuple",  # a sequence is not a number
]

OTHER = {
    # a Bool Tensor is refused by MindSpore's clamp (ValueError)
    "ops.clamp/0/bool": "ValueError",
    "ops.clip/0/bool": "ValueError",
    "mint.clamp/0/bool": "ValueError",
    # mint's matmul of a 0-D Tensor
    "mint.matmul/0/0d": "ValueError",
    "mint.matmul/1/0d": "ValueError",
    # masked_fill checks the shapes before the mask's dtype
    "ops.masked_fill/1/empty": "ValueError",
    # mint's GLU: a dim out of range is an IndexError, a 0-D input a RuntimeError
    "mint.nn.functional.glu/0/0d": "RuntimeError",
    **{f"mint.nn.functional.glu/0/{label}": "IndexError" for label in ("bool", "empty", "int32")},
    **{
        f"mint.nn.functional.glu/1/{label}": "IndexError"
        for label in ("huge", "negative_out", "out_of_range")
    },
    "mint.nn.functional.softmax/0/0d": "IndexError",  # dim 1 of a 0-D Tensor
}

EXPECTED = {**{name: "TypeError" for name in NUMBER + DTYPE}, **OTHER}

# Accepted where MindSpore 2.10 raises, deliberately (the cellax.ops package's "Differences
# from MindSpore").
ACCEPTED = [
    # CPU-kernel dtype gaps ("Select CPU operator ... fail", "kernel ... unregistered")
    *(
        f"ops.{api}/0/int32"
        for api in ("sin", "log", "acos", "elu", "logit", "sigmoid", "log_softmax")
    ),
    *("ops.round/0/bool", "ops.norm/0/bool", "mint.nn.functional.elu/0/int32"),
    *("mint.nn.functional.log_softmax/0/int32", "mint.nn.functional.hardtanh/0/bool"),
    # mixed dtypes are promoted (as ops.add and ops.mul do)
    *("ops.matmul/0/int32", "mint.matmul/0/bool", "ops.mm/0/int32", "ops.mv/0/bool"),
    *("ops.inner/1/int32", "ops.tensor_dot/0/int32", "ops.addcmul/1/int32", "ops.isclose/0/bool"),
    "ops.cosine_similarity/0/bool",
    "ops.einsum/0/empty",  # a zero-size operand: the result is defined
]


def test_the_tables_name_campaign_cases():
    assert set(EXPECTED) <= set(ALL) and set(ACCEPTED) <= set(ALL)
    assert len(EXPECTED) >= 170


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_mindspores_exception_type(name):
    assert_raises(name, EXPECTED[name])


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_the_deliberate_acceptances_return(name):
    assert_returns(name)


def test_mint_softmax_of_a_0d_tensor_is_one():
    # MindSpore 2.10: dim 0 or -1 of a 0-D Tensor is its only element
    s = Tensor(np.float32(1.5))
    for dim in (0, -1):
        out = mint.nn.functional.softmax(s, dim)
        assert out.shape == () and float(out) == 1.0
    with pytest.raises(IndexError, match="'softmax'"):
        mint.nn.functional.softmax(s, 1)
    with pytest.raises(ValueError, match="'softmax'"):  # MindSpore's Softmax axis check
        mint.nn.functional.softmax(Tensor(np.ones((2, 3), np.float32)), 2)


def test_mint_glu_odd_dimension_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="'glu'"):
        mint.nn.functional.glu(Tensor(np.ones((2, 3), np.float32)), 1)
    assert mint.nn.functional.glu(Tensor(np.ones((2, 4), np.float32)), -1).shape == (2, 2)


def test_numbers_stay_accepted_where_mindspore_takes_them():
    x = Tensor(np.ones((2, 3), np.float32))
    assert ops.pow(3, x).shape == (2, 3)
    assert ops.eq(x, 1).shape == (2, 3)
    assert ops.clamp(x, 0, 0.5).shape == (2, 3)
    assert ops.addcmul(x, x, x, 2).shape == (2, 3)
    assert ops.leaky_relu(Tensor(np.ones((2,), np.int32)), 0.2).shape == (2,)
