"""Bad-argument round 2, group B1 (shape ops, creation, matrix_diag, random, repeat; issue 38):
each case raises a clean error (naming the API called) of the builtin type MindSpore 2.10
raises, where cellax raised another type or returned before (tools/fuzz_bad_input_ops.py's
cases, tests/goldens/bad_ops_cases.py).
"""

import numpy as np
import pytest

import cellax as ms
from cellax import mint, ops

from .test_bad_input_ops import assert_raises

# case -> the builtin type it now raises (MindSpore 2.10's, or TypeError where MindSpore fails
# on attribute access of a Python number: ops.zeros_like)
NOW = {
    "mint.cat/0/int": "TypeError",
    "mint.cat/1/int": "TypeError",
    "mint.narrow/0/int": "TypeError",
    "mint.permute/0/int": "TypeError",
    "mint.repeat_interleave/1/negative": "RuntimeError",
    "mint.reshape/0/int": "TypeError",
    "mint.stack/0/int": "TypeError",
    "mint.stack/1/int": "TypeError",
    "mint.transpose/0/int": "TypeError",
    "mint.tril/0/int": "TypeError",
    "ops.cartesian_prod/0/int": "TypeError",
    "ops.cartesian_prod/1/int": "TypeError",
    "ops.cat/0/int": "TypeError",
    "ops.cat/1/int": "TypeError",
    "ops.concat/0/int": "TypeError",
    "ops.concat/1/int": "TypeError",
    "ops.diag/0/int": "TypeError",
    "ops.diagonal/0/int": "TypeError",
    "ops.diff/0/0d": "TypeError",
    "ops.diff/0/int": "TypeError",
    "ops.diff/1/negative": "RuntimeError",
    "ops.hstack/0/int": "TypeError",
    "ops.hstack/1/int": "TypeError",
    "ops.linspace/0/tuple": "ValueError",
    "ops.linspace/1/tuple": "ValueError",
    "ops.matrix_band_part/0/int": "TypeError",
    "ops.meshgrid/0/int": "TypeError",
    "ops.meshgrid/1/int": "TypeError",
    "ops.moveaxis/0/int": "TypeError",
    "ops.movedim/0/int": "TypeError",
    "ops.narrow/0/int": "TypeError",
    "ops.permute/0/int": "TypeError",
    "ops.randint/1/negative": "RuntimeError",
    "ops.randint/1/zero": "RuntimeError",
    "ops.randint/2/None": "ValueError",
    "ops.randint/2/float_int": "ValueError",
    "ops.randint/2/str": "ValueError",
    "ops.repeat_elements/1/huge": "ValueError",
    "ops.repeat_interleave/1/huge": "ValueError",
    "ops.reshape/0/int": "TypeError",
    "ops.rot90/0/int": "TypeError",
    "ops.rot90/2/huge": "RuntimeError",
    "ops.sequence_mask/1/huge": "ValueError",
    "ops.slice/0/int": "TypeError",
    "ops.slice/2/negative": "RuntimeError",
    "ops.swapaxes/0/int": "TypeError",
    "ops.tensor_split/0/int": "TypeError",
    "ops.trace/0/0d": "RuntimeError",
    "ops.trace/0/5d": "RuntimeError",
    "ops.trace/0/int": "TypeError",
    "ops.transpose/0/int": "TypeError",
    "ops.tril/0/int": "TypeError",
    "ops.triu/0/int": "TypeError",
    "ops.unbind/0/int": "TypeError",
    "ops.unfold/0/bool": "TypeError",
    "ops.unstack/0/int": "TypeError",
    "ops.vander/0/int": "TypeError",
    "ops.vstack/0/int": "TypeError",
    "ops.vstack/1/int": "TypeError",
    "mint.broadcast_to/0/int": "TypeError",
    "mint.flatten/0/int": "TypeError",
    "mint.tile/0/int": "TypeError",
    "mint.unsqueeze/0/int": "TypeError",
    "ops.atleast_2d/0/int": "TypeError",
    "ops.bernoulli/0/int": "TypeError",
    "ops.block_diag/0/int": "TypeError",
    "ops.block_diag/1/int": "TypeError",
    "ops.broadcast_to/0/int": "TypeError",
    "ops.cov/0/bool": "TypeError",
    "ops.dense/0/bool": "TypeError",
    "ops.dense/0/int32": "TypeError",
    "ops.dense/1/bool": "TypeError",
    "ops.dense/1/int32": "TypeError",
    "ops.expand_dims/0/int": "TypeError",
    "ops.flatten/0/int": "TypeError",
    "ops.full_like/0/int": "TypeError",
    "ops.kl_div/0/bool": "TypeError",
    "ops.kl_div/0/int32": "TypeError",
    "ops.kl_div/1/bool": "TypeError",
    "ops.kl_div/1/int32": "TypeError",
    "ops.multinomial/0/bool": "TypeError",
    "ops.ones_like/0/int": "TypeError",
    "ops.stack/0/bool": "TypeError",
    "ops.stack/0/int32": "TypeError",
    "ops.stack/1/bool": "TypeError",
    "ops.stack/1/int32": "TypeError",
    "ops.tile/0/int": "TypeError",
    "ops.unsqueeze/0/int": "TypeError",
    "ops.zeros_like/0/int": "TypeError",
}


@pytest.mark.parametrize("name", sorted(NOW))
def test_raises_the_type_mindspore_raises(name):
    assert_raises(name, NOW[name])


def test_what_stays_accepted():
    x = ms.Tensor(np.ones((2, 3), np.float32))
    xi = ms.Tensor(np.ones((2, 3), np.int32))
    xb = ms.Tensor(np.ones((2, 3), bool))
    # ops.stack takes Python numbers; mint.stack promotes Tensors of different dtypes
    assert ops.stack([1, 2.5]).shape == (2,)
    assert ops.stack([ms.Tensor(1.5), 2]).shape == (2,)
    assert mint.stack((x, xi)).dtype == ms.float32
    # repeating a Bool mask (MindSpore's ops refuse it: docs in cellax.ops)
    assert ops.repeat_interleave(xb, 2, 1).shape == (2, 6)
    assert ops.repeat_elements(xb, 2, 1).dtype == ms.bool_
    assert mint.repeat_interleave(xb, 2, 1).shape == (2, 6)
    # a list size of randint, a one-element Tensor bound of linspace
    assert ops.randint(0, 5, [2, 3]).shape == (2, 3)
    assert ops.linspace(ms.Tensor([0.0]), 1.0, 3).shape == (3,)
    # Dense and KLDivLoss of one dtype (BFloat16 too, which MindSpore refuses)
    assert ops.dense(xi, ms.Tensor(np.ones((4, 3), np.int32))).dtype == ms.int32
    half = ms.Tensor(np.ones((2, 3), np.float16))
    assert ops.kl_div(half, half).dtype == ms.float16
    assert ops.unfold(ops.ones((1, 1, 3, 3), ms.bfloat16), 2).shape == (1, 4, 4)
    assert ops.multinomial(xi, 1).shape == (2, 1)


def test_the_new_errors_name_the_rule():
    x = ms.Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(TypeError, match="For 'stack', all Tensors must have the same dtype"):
        ops.stack((x, ms.Tensor(np.ones((2, 3), np.float16))))
    with pytest.raises(TypeError, match="For 'dense', 'input' and 'weight' must have the same"):
        ops.dense(x, ms.Tensor(np.ones((4, 3), np.int32)))
    # two float widths compute in the wider one, as nn.Dense and mint's linear do
    assert ops.dense(x, ms.Tensor(np.ones((4, 3), np.float16))).dtype == ms.float32
    with pytest.raises(TypeError, match="For 'kl_div', the inputs must have the same dtype"):
        mint.nn.functional.kl_div(x, ms.Tensor(np.ones((2, 3), np.float16)))
    with pytest.raises(TypeError, match="For 'permute', 'input' must be a Tensor"):
        mint.permute(3, (1, 0))
    with pytest.raises(TypeError, match="For 'expand_as', 'input' must be a Tensor"):
        ops.expand_as(3, x)
    with pytest.raises(ValueError, match="For 'linspace', 'start' must be a number or a one"):
        ops.linspace(ms.Tensor([0.0, 1.0]), 1.0, 3)
    with pytest.raises(RuntimeError, match="For 'rot90', 'dims' must be two different"):
        ops.rot90(x, 1, (0, 0))
    with pytest.raises(
        ValueError, match=r"For 'repeat_interleave', 'repeats' must be in \[0, 2\*\*31 - 1\]"
    ):
        ops.repeat_interleave(x, 2**31, 1)
