"""The private MindSpore names today's zoo code (mindone 0.5.0) imports: each path imports
under the alias and behaves as MindSpore 2.10 does on one device (issue 34)."""

import importlib

import numpy as np
import pytest

import cellax as ms
from cellax import nn

PATHS = [
    ("train.serialization", "_load_dismatch_prefix_params _update_param"),
    ("train.amp", "AMP_WHITE_LIST AMP_BLACK_LIST _auto_black_list _auto_mixed_precision_rewrite"),
    ("_c_expression", "MSContext Tensor"),
    ("_c_expression.amp", "AmpLevel create_amp_strategy push_amp_strategy pop_amp_strategy"),
    ("_c_expression.amp", "get_curr_amp_strategy"),
    ("_c_expression.typing", "Type kFloat32 kBFloat16 kInt64 kBool"),
    ("ops.operations.nn_ops", "FlashAttentionScore"),
    ("ops.auto_generate", "FlashAttentionScore"),
    ("ops.function.nn_func", "_check_attn_mask_shape _check_kpm_shape _check_qkv_shape"),
    ("ops.function.nn_func", "_in_projection _in_projection_packed _inner_dropout _inner_pad"),
    ("ops.function.nn_func", "linear pad_ext _interploate_ext_make_tuple"),
    ("ops.function.nn_func", "_interpolate_ext_scale_factor_convert_size"),
    ("nn.utils", "no_init_parameters"),
    ("common.api", "_function_forbid_reuse"),
    ("mint", "functional"),
    ("ops.function.nn_func", "multi_head_attention_forward"),
    ("common", "_Function _grad_function"),
    ("common._grad_function", "_Function"),
    ("dataset.audio", "Spectrogram MelSpectrogram MelScale AmplitudeToDB Resample MFCC utils"),
    ("multiprocessing", "Process Pool Queue get_context cpu_count"),
    ("experimental.optim.optimizer", "Optimizer"),
    ("ops.operations", "FloatStatus"),
    ("ops.composite", "add_flags"),
    ("common.sparse_tensor", "RowTensorInner"),
    ("dataset.audio.utils", "BorderType MelType NormMode NormType WindowType create_dct"),
]


@pytest.fixture
def alias():
    handle = ms.alias_mindspore()
    yield handle
    handle.remove()


@pytest.mark.parametrize("path,names", PATHS, ids=[p for p, _ in PATHS])
def test_path_resolves_to_cellax(alias, path, names):
    module = importlib.import_module(f"mindspore.{path}")
    assert module is importlib.import_module(f"cellax.{path}")
    for name in names.split():
        assert getattr(module, name) is getattr(module, name)


def test_load_dismatch_prefix_params():
    net = nn.Dense(2, 1)
    weights = {
        "backbone.weight": ms.Parameter(ms.Tensor(np.ones((1, 2)), ms.float32), name="w"),
        "backbone.bias": ms.Parameter(ms.Tensor(np.full((1,), 3.0), ms.float16), name="b"),
    }
    not_loaded = ["weight", "bias"]
    ms.train.serialization._load_dismatch_prefix_params(net, weights, not_loaded, False)
    assert not_loaded == []
    assert net.weight.asnumpy().tolist() == [[1.0, 1.0]] and net.bias.dtype == ms.float32
    assert net.bias.asnumpy().tolist() == [3.0]
    with pytest.raises(RuntimeError, match="same type"):
        ms.train.serialization._update_param(net.bias, weights["backbone.bias"], True)


def test_auto_black_list_and_rewrite():
    from cellax.train import amp

    assert nn.Dense in amp.AMP_WHITE_LIST and ms.ops.MatMul in amp.AMP_WHITE_LIST
    assert amp.AMP_BLACK_LIST == [nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.LayerNorm]
    net = nn.SequentialCell(nn.Dense(3, 3), nn.LayerNorm((3,)), nn.Dense(3, 2))
    assert amp._auto_black_list(net, [nn.LayerNorm], ms.float16) is net
    assert net(ms.ops.ones((1, 3))).dtype == ms.float16
    assert net[1](ms.ops.ones((1, 3), ms.float16)).dtype == ms.float16
    assert net[1].gamma.dtype == ms.float32  # the master weights stay float32
    net = nn.SequentialCell(nn.Dense(3, 3), nn.ReLU())
    amp._auto_mixed_precision_rewrite(net, ms.bfloat16, white_list=amp.AMP_WHITE_LIST)
    assert net[0](ms.ops.ones((1, 3))).dtype == ms.float32  # cast back, as "O1"
    with pytest.raises(ValueError, match="one of white_list and black_list"):
        amp._auto_mixed_precision_rewrite(net, ms.float16)


def test_c_expression_names():
    from cellax._c_expression import MSContext, amp, typing

    assert MSContext.get_instance() is MSContext.get_instance()
    assert MSContext.get_instance().get_ascend_soc_version() == ""
    assert typing.kFloat32 is ms.float32 and isinstance(typing.kBFloat16, typing.Type)
    assert amp.get_curr_amp_strategy() is None
    amp.push_amp_strategy(amp.AmpLevel.AmpAuto, ms.float16, [("MatMul", [])], [])
    strategy = amp.get_curr_amp_strategy()
    assert strategy.get_amp_level() == amp.AmpLevel.AmpAuto
    assert strategy.get_white_list() == [("MatMul", [])] and strategy.get_black_list() == []
    amp.pop_amp_strategy()
    assert amp.get_curr_amp_strategy() is None
    with pytest.raises(AttributeError, match="C\\+\\+ context"):
        MSContext.get_instance().set_param


def test_flash_attention_score_runs_from_its_mindspore_paths():
    from cellax.ops.auto_generate import FlashAttentionScore

    fa = ms.ops.operations.nn_ops.FlashAttentionScore(4, scale_value=0.5, input_layout="BNSD")
    assert fa.head_num == 4 and fa.scale_value == 0.5 and fa.input_layout == "BNSD"
    assert type(fa) is FlashAttentionScore  # tests/test_flash_attention.py checks the values
    q = ms.ops.ones((1, 4, 2, 8), ms.float16)
    assert fa(q, q, q)[3].shape == (1, 4, 2, 8)


def test_attention_helpers():
    from cellax.ops.function import nn_func as F

    rng = np.random.default_rng(0)
    q = ms.Tensor(rng.standard_normal((3, 2, 4)), ms.float32)
    w = ms.Tensor(rng.standard_normal((12, 4)), ms.float32)
    b = ms.Tensor(rng.standard_normal((12,)), ms.float32)
    out = F._in_projection_packed(q, q, q, w, b, True, True)
    expected = q.asnumpy() @ w.asnumpy().T + b.asnumpy()
    assert len(out) == 3
    np.testing.assert_allclose(out[1].asnumpy(), expected[..., 4:8], rtol=1e-5, atol=1e-5)
    k = ms.Tensor(rng.standard_normal((3, 2, 4)), ms.float32)
    qkv = F._in_projection_packed(q, k, k, w, b, True, False)
    np.testing.assert_allclose(
        qkv[2].asnumpy(),
        k.asnumpy() @ w.asnumpy()[8:].T + b.asnumpy()[8:],
        rtol=1e-5,
        atol=1e-5,
    )
    assert F._check_qkv_shape(3, 3, 3) is True and F._check_qkv_shape(2, 2, 2) is False
    with pytest.raises(ValueError, match="must be 3D tensor"):
        F._check_qkv_shape(3, 2, 3)
    with pytest.raises(ValueError, match="key_padding_mask"):
        F._check_kpm_shape(3, 1)
    with pytest.raises(ValueError, match=r"must to be \(2, 5, 6\)"):
        F._check_attn_mask_shape(2, (5, 4), (6, 4), 3, (2, 5, 5), 2)
    mask = ms.Tensor([[True, False]])
    padded = F._inner_pad(mask, (0, 1))
    assert padded.dtype == ms.bool_ and padded.asnumpy().tolist() == [[True, False, False]]
    assert F._inner_dropout(q, 0.5, False) is q
    assert F.pad_ext(q, (1, 1)).shape == (3, 2, 6)
    x = ms.ops.ones((1, 1, 5, 7))
    assert F._interploate_ext_make_tuple(x, 2.0) == (2.0, 2.0)
    assert F._interpolate_ext_scale_factor_convert_size(x, (1.5, 0.5)) == (7, 3)


def test_no_init_parameters_and_forbid_reuse():
    from cellax.common.api import _function_forbid_reuse
    from cellax.nn.utils import no_init_parameters

    with no_init_parameters():
        net = nn.Dense(2, 1)
    assert net(ms.ops.ones((1, 2))).shape == (1, 1)
    with pytest.raises(TypeError, match="_function_forbid_reuse"):
        _function_forbid_reuse(net)


def test_mint_functional_is_mint_nn_functional():
    assert ms.mint.functional is ms.mint.nn.functional
    out = ms.mint.functional.softmax(ms.Tensor([[0.0, 0.0]]), dim=1)
    np.testing.assert_allclose(out.asnumpy(), [[0.5, 0.5]])


def test_multi_head_attention_forward_matches_multihead_attention():
    from cellax.ops.function.nn_func import multi_head_attention_forward

    rng = np.random.default_rng(0)
    layer = nn.MultiheadAttention(8, 2)
    query = ms.Tensor(rng.standard_normal((5, 3, 8)).astype(np.float32))
    memory = ms.Tensor(rng.standard_normal((4, 3, 8)).astype(np.float32))
    padding = ms.Tensor(rng.random((3, 4)) > 0.7)
    want, want_weights = layer(query, memory, memory, key_padding_mask=padding)
    out, weights = multi_head_attention_forward(
        query, memory, memory, 8, 2, layer.in_proj_weight, layer.in_proj_bias, None, None,
        False, 0.0, layer.out_proj.weight, layer.out_proj.bias, training=False,
        key_padding_mask=padding, k_is_v=True,
    )  # fmt: skip
    assert out.shape == (5, 3, 8) and weights.shape == (3, 5, 4)
    np.testing.assert_allclose(out.asnumpy(), want.asnumpy(), atol=1e-5)
    np.testing.assert_allclose(weights.asnumpy(), want_weights.asnumpy(), atol=1e-6)


class _Scale(ms.common._Function):
    @staticmethod
    def forward(ctx, x, y, scale=2.0):
        ctx.save_for_backward(x, y)
        ctx.scale = scale
        return x * y * scale, x + 1

    @staticmethod
    def backward(ctx, grad, _):
        x, y = ctx.saved_tensors
        return grad * y * ctx.scale * 10, grad * x * ctx.scale, None


@pytest.mark.parametrize("jitted", [False, True])
def test_function_uses_its_backward(jitted):
    x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])
    out, plus = _Scale.apply(x, y)
    assert out.tolist() == [6.0, 16.0] and plus.tolist() == [2.0, 3.0]
    grad = ms.grad(lambda a, b: _Scale.apply(a, b, 3.0)[0].sum(), grad_position=(0, 1))
    dx, dy = (ms.jit(grad) if jitted else grad)(x, y)
    assert dx.tolist() == [90.0, 120.0] and dy.tolist() == [3.0, 6.0]


def test_multiprocessing_is_the_standard_library():
    import multiprocessing

    assert ms.multiprocessing.Process is multiprocessing.Process
    assert ms.multiprocessing.cpu_count() == multiprocessing.cpu_count()


def test_experimental_optim_optimizer_module():
    from cellax.experimental.optim.optimizer import Optimizer

    assert Optimizer is ms.experimental.optim.Optimizer


def test_float_status_flags_nan_and_inf():
    status = ms.ops.operations.FloatStatus()
    assert status(ms.Tensor(np.array([1.0, 2.0], np.float32))).tolist() == [0.0]
    assert status(ms.Tensor(np.array([1.0, -np.inf], np.float32))).tolist() == [1.0]
    with pytest.raises(TypeError, match="FloatStatus"):
        status(ms.Tensor([1, 2]))


def test_add_flags_and_row_tensor_inner():
    from cellax.common.sparse_tensor import RowTensorInner
    from cellax.ops import composite as C

    @C.add_flags(has_effect=True)
    def f(x):
        return x

    assert f._func_graph_flags == {"has_effect": True}
    dense = RowTensorInner(ms.Tensor([1]), ms.Tensor([[1.0, 2.0]]), (2, 2)).to_dense()
    assert dense.tolist() == [[0.0, 0.0], [1.0, 2.0]]
