"""Bad input round 2, group B2 (issue 38): indexing, sorting, reductions and scans raise the
builtin type MindSpore 2.10 raises for the campaign's cases (tools/fuzz_bad_input_ops.py),
and the acceptances left on purpose still return.
"""

import numpy as np
import pytest

import cellax as ms
from cellax import Tensor, mint, ops

from .test_bad_input_ops import assert_raises, assert_returns

# a Python number where MindSpore requires a Tensor ("Failed calling X with X(input=int)")
_NUMBER_INPUTS = [
    *(f"ops.{api}/0/int" for api in ("all", "amax", "amin", "any", "argmax", "argmin")),
    *(f"ops.{api}/0/int" for api in ("argsort", "count_nonzero", "cummax", "cummin")),
    *(f"ops.{api}/0/int" for api in ("cumprod", "cumsum", "gather_elements", "histc")),
    *(f"ops.{api}/0/int" for api in ("index_select", "logsumexp", "mean", "median")),
    *(f"ops.{api}/0/int" for api in ("nansum", "one_hot", "prod", "searchsorted", "sort")),
    *(f"ops.{api}/0/int" for api in ("std", "sum", "take", "topk", "var")),
    *("ops.gather/1/int", "ops.gather_elements/2/int", "ops.index_select/2/int"),
    *("ops.searchsorted/1/int", "ops.take/1/int"),
    *(f"mint.{api}/0/int" for api in ("argmax", "cumsum", "gather", "index_select", "mean")),
    *(f"mint.{api}/0/int" for api in ("sort", "sum", "topk")),
    *("mint.gather/2/int", "mint.index_select/2/int"),
]

CHANGED = {
    **{name: "TypeError" for name in _NUMBER_INPUTS},
    # dtypes MindSpore's frontend refuses on every device
    **{name: "TypeError" for name in ("ops.topk/0/bool", "mint.topk/0/bool", "ops.histc/0/bool")},
    # one_hot's on_value and off_value of different dtypes
    **{
        f"ops.one_hot/{n}/{label}": "TypeError"
        for n in (2, 3)
        for label in ("bool", "int", "int32")
    },
    # a repeated axis of a reduction
    **{
        f"{api}/1/repeated": "RuntimeError"
        for api in (
            *("ops.all", "ops.any", "ops.amax", "ops.amin", "ops.count_nonzero"),
            *("ops.logsumexp", "ops.mean", "ops.nansum", "ops.sum", "mint.mean", "mint.sum"),
        )
    },
    # the rank of an index is checked before its dtype, as MindSpore does
    **{
        f"{api}/{label}": "ValueError"
        for api in ("ops.index_select/2", "mint.index_select/2", "ops.bincount/0")
        for label in ("empty", "float")
    },
    "ops.scatter_nd/0/empty": "ValueError",
    "ops.scatter_nd/0/float": "ValueError",
    # mint.argmax's dim of a 0-D Tensor must be 0 or -1 (ops.argmax takes any int there)
    "mint.argmax/0/0d": "ValueError",
}

# MindSpore 2.10 CPU raises, cellax returns on purpose (kernel gaps of MindSpore's CPU backend,
# or refusals that would break reasonable code; cellax.ops' "Differences from MindSpore")
LEFT_ACCEPTED = [
    # "Select CPU operator[...] fail! Unsupported data type" / "The kernel X unregistered"
    *("ops.amax/0/bool", "ops.amin/0/bool", "ops.argmin/0/bool", "ops.argsort/0/bool"),
    *("ops.sort/0/bool", "ops.cummax/0/bool", "ops.cummin/0/bool", "ops.logsumexp/0/bool"),
    *("ops.std/0/bool", "ops.std/0/int32", "ops.var/0/bool", "ops.var/0/int32"),
    *("mint.argmax/ok", "mint.cumsum/0/int32", "mint.sort/0/int32", "mint.topk/0/int32"),
    *("mint.index_select/0/bool", "ops.take/ok", "ops.take/0/int32"),
    # "bad_function_call" of MindSpore's CPU searchsorted for int32/bool Tensors
    *("ops.searchsorted/0/int32", "ops.searchsorted/1/bool", "ops.searchsorted/1/int32"),
    # a frontend refusal cellax does not copy: counting the True values of a mask, and
    # logsumexp of an Int32 Tensor (MindSpore's Exp takes Int64 and Bool, not Int32)
    *("ops.count_nonzero/0/bool", "ops.logsumexp/0/int32"),
]


@pytest.mark.parametrize("name", sorted(CHANGED))
def test_the_group_raises_mindspores_type(name):
    assert_raises(name, CHANGED[name])


@pytest.mark.parametrize("name", LEFT_ACCEPTED)
def test_the_acceptances_left_return(name):
    assert_returns(name)


def test_what_mindspore_accepts_still_runs():
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    idx = Tensor(np.array([0, 2], np.int32))
    # one_hot's fills of one dtype: Python ints (Int64), floats (Float32), Float32 Tensors
    assert ops.one_hot(idx, 3, 1, 0).dtype == ms.int64
    assert ops.one_hot(idx, 3, 1.0, 0.0).dtype == ms.float32
    assert ops.one_hot(idx, 3, Tensor(1.0), 0.0).dtype == ms.float32
    assert ops.one_hot(idx, 3, 3.0, Tensor(np.zeros(3, np.float32))[0]).dtype == ms.float32
    with pytest.raises(TypeError, match="For 'one_hot', 'on_value' and 'off_value'"):
        ops.one_hot(idx, 3, 1, 0.0)
    assert mint.nn.functional.one_hot(idx, 3).dtype == ms.int64
    # Tensor.searchsorted takes a number (MindSpore's method does)
    v = Tensor(np.array([0.5, 1.0, 2.0], np.float32))
    assert int(v.searchsorted(1.0)) == 1
    # mint.argmax of a 0-D Tensor over dim 0 or -1; ops.argmax over any int
    s0 = Tensor(np.float32(1.5))
    assert int(mint.argmax(s0, 0)) == 0 and int(mint.argmax(s0, -1)) == 0
    assert int(ops.argmax(s0, 1)) == 0
    # int and float Tensors of topk and histc; a 1-D float index of index_select is a dtype error
    assert ops.topk(Tensor(np.array([3, 1, 2], np.int32)), 2)[0].asnumpy().tolist() == [3, 2]
    assert ops.histc(Tensor(np.array([1, 2], np.int32)), 2).shape == (2,)
    with pytest.raises(TypeError, match="For 'index_select', 'index' must be an integer"):
        ops.index_select(x, 1, Tensor(np.array([0.0, 1.0], np.float32)))
    # var/std keep ValueError for a repeated axis (as MindSpore)
    with pytest.raises(ValueError, match="For 'var'"):
        ops.var(x, (1, 1))
