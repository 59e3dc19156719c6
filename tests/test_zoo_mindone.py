"""mindone 0.5.0's models, unmodified, on cellax through alias_mindspore, against the same
architectures in PyTorch's transformers/diffusers with the same weights (issue 34).

Each case builds a tiny-config PyTorch model with a fixed seed, writes it with
``save_pretrained`` (safetensors), loads that directory with mindone's ``from_pretrained``, runs
the same inputs through both, then one training step: the gradients of a fixed linear function
of the output with respect to every trainable parameter (matched by name) and one SGD update.

Runs only where mindone, torch and transformers/diffusers import (installs nothing, e.g.
``pip install --no-deps --target DIR mindone==0.5.0 transformers==4.57.1 diffusers==0.35.1``
plus torch CPU, all on PYTHONPATH). The whole set takes a few minutes on CPU, so it also needs
``CELLAX_MINDONE=1``. ``python tests/test_zoo_mindone.py`` prints the results table.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import sys
import tempfile
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cellax

_MISSING = [
    m
    for m in ("mindone", "torch", "transformers", "diffusers")
    if importlib.util.find_spec(m) is None
]

pytestmark = [
    pytest.mark.skipif(bool(_MISSING), reason=f"not installed: {', '.join(_MISSING)}"),
    pytest.mark.skipif(os.environ.get("CELLAX_MINDONE") != "1", reason="set CELLAX_MINDONE=1"),
    # transformers/diffusers/mindone warn about their own deprecations at import and load
    pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),
]

LR = 0.1


@dataclasses.dataclass
class Case:
    """A pair of models with the same weights and the inputs to run through both."""

    torch_model: Any
    ms_model: Any
    inputs: dict[str, np.ndarray]  # numpy inputs, passed by keyword to both models
    pick: Callable[[Any], Any] = lambda out: out[0]  # the output tensor to compare
    forward_atol: float = 1e-4
    grad_rtol: float = 1e-3


@dataclasses.dataclass
class Result:
    name: str
    forward_diff: float
    grad_rel_diff: float
    step_diff: float
    forward_atol: float
    grad_rtol: float
    n_params: int  # parameters compared
    worst: str  # the parameter with the largest gradient difference
    extra: list[str]  # mindone Parameters that are buffers in PyTorch (not compared)

    @property
    def ok(self) -> bool:
        return (
            self.forward_diff < self.forward_atol
            and self.grad_rel_diff < self.grad_rtol
            and self.step_diff < self.forward_atol
        )


def _rng():
    return np.random.default_rng(0)


def _pair(torch_cls, ms_cls, config, tmp, **ms_kwargs) -> tuple[Any, Any]:
    import torch

    torch.manual_seed(0)
    torch_model = torch_cls(config).eval()
    with torch.no_grad():  # freshly initialised zeros (biases, norms) would hide layout bugs
        for p in torch_model.parameters():
            p.add_(0.02 * torch.randn_like(p))
    torch_model.save_pretrained(tmp, safe_serialization=True)
    ms_model = ms_cls.from_pretrained(tmp, **ms_kwargs)
    ms_model.set_train(False)
    return torch_model, ms_model


def _ids(*shape, vocab=99):
    return _rng().integers(1, vocab, shape).astype(np.int64)


# ---------------------------------------------------------------- mindone.transformers


def case_bert(tmp):
    import transformers as hf

    import mindone.transformers as mt

    cfg = hf.BertConfig(
        vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=37, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
        max_position_embeddings=64,
    )  # fmt: skip
    mask = np.ones((2, 7), np.int64)
    mask[1, 5:] = 0
    return Case(
        *_pair(hf.BertModel, mt.BertModel, cfg, tmp),
        {"input_ids": _ids(2, 7), "attention_mask": mask},
    )


def case_gpt2(tmp):
    import transformers as hf

    import mindone.transformers as mt

    cfg = hf.GPT2Config(
        vocab_size=99, n_embd=32, n_layer=2, n_head=4, n_positions=64,
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
    )  # fmt: skip
    return Case(*_pair(hf.GPT2LMHeadModel, mt.GPT2LMHeadModel, cfg, tmp), {"input_ids": _ids(2, 7)})


def case_llama(tmp):
    import transformers as hf

    import mindone.transformers as mt

    cfg = hf.LlamaConfig(
        vocab_size=99, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
    )  # fmt: skip
    return Case(
        *_pair(hf.LlamaForCausalLM, mt.LlamaForCausalLM, cfg, tmp), {"input_ids": _ids(2, 7)}
    )


def case_llama_flash(tmp):
    """mindone's ``flash_attention_2`` path: ``ops.flash_attention_score`` (layout BSND, causal
    mask), against PyTorch's eager attention."""
    import transformers as hf

    import mindone.transformers as mt

    cfg = hf.LlamaConfig(
        vocab_size=99, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
    )  # fmt: skip
    torch_model, ms_model = _pair(
        hf.LlamaForCausalLM, mt.LlamaForCausalLM, cfg, tmp, attn_implementation="flash_attention_2"
    )
    assert ms_model.config._attn_implementation == "flash_attention_2"
    # mindone builds its (batch, 1, q, kv) causal mask from attention_mask's length (without
    # one: one column more than the keys, which its eager path slices off and
    # flash_attention_score rejects); the kernel runs in float16.
    inputs = {"input_ids": _ids(2, 7), "attention_mask": np.ones((2, 7), np.int64)}
    return Case(torch_model, ms_model, inputs, forward_atol=5e-3, grad_rtol=5e-3)


def case_qwen2(tmp):
    import transformers as hf

    import mindone.transformers as mt

    cfg = hf.Qwen2Config(
        vocab_size=99, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
    )  # fmt: skip
    return Case(
        *_pair(hf.Qwen2ForCausalLM, mt.Qwen2ForCausalLM, cfg, tmp), {"input_ids": _ids(2, 7)}
    )


def case_t5(tmp):
    import transformers as hf

    import mindone.transformers as mt

    cfg = hf.T5Config(
        vocab_size=99, d_model=32, d_kv=8, d_ff=37, num_layers=2, num_heads=4,
        dropout_rate=0.0, relative_attention_num_buckets=8, decoder_start_token_id=0,
    )  # fmt: skip
    inputs = {"input_ids": _ids(2, 7), "decoder_input_ids": _ids(2, 5)}
    return Case(*_pair(hf.T5Model, mt.T5Model, cfg, tmp), inputs)


def case_clip_text(tmp):
    import transformers as hf

    import mindone.transformers as mt

    cfg = hf.CLIPTextConfig(
        vocab_size=99, hidden_size=32, intermediate_size=37, num_hidden_layers=2,
        num_attention_heads=4, max_position_embeddings=64, projection_dim=16,
    )  # fmt: skip
    return Case(*_pair(hf.CLIPTextModel, mt.CLIPTextModel, cfg, tmp), {"input_ids": _ids(2, 7)})


def case_clip_vision(tmp):
    import transformers as hf

    import mindone.transformers as mt

    cfg = hf.CLIPVisionConfig(
        image_size=16, patch_size=4, num_channels=3, hidden_size=32, intermediate_size=37,
        num_hidden_layers=2, num_attention_heads=4, projection_dim=16,
    )  # fmt: skip
    pixels = _rng().standard_normal((2, 3, 16, 16)).astype(np.float32)
    return Case(*_pair(hf.CLIPVisionModel, mt.CLIPVisionModel, cfg, tmp), {"pixel_values": pixels})


def case_vit(tmp):
    import transformers as hf

    import mindone.transformers as mt

    cfg = hf.ViTConfig(
        image_size=16, patch_size=4, num_channels=3, hidden_size=32, num_hidden_layers=2,
        num_attention_heads=4, intermediate_size=37, hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )  # fmt: skip
    pixels = _rng().standard_normal((2, 3, 16, 16)).astype(np.float32)
    return Case(*_pair(hf.ViTModel, mt.ViTModel, cfg, tmp), {"pixel_values": pixels})


# ---------------------------------------------------------------- mindone.diffusers


def _diffusers_pair(name, config, tmp):
    import diffusers

    import mindone.diffusers as md

    return _pair(lambda c: getattr(diffusers, name)(**c), getattr(md, name), config, tmp)


def case_unet2d_condition(tmp):
    cfg = dict(
        block_out_channels=(32, 64), layers_per_block=1, sample_size=16, in_channels=4,
        out_channels=4, down_block_types=("DownBlock2D", "CrossAttnDownBlock2D"),
        up_block_types=("CrossAttnUpBlock2D", "UpBlock2D"), cross_attention_dim=32,
        norm_num_groups=8, attention_head_dim=8,
    )  # fmt: skip
    rng = _rng()
    inputs = {
        "sample": rng.standard_normal((2, 4, 16, 16)).astype(np.float32),
        "timestep": np.array([10, 500], np.int64),
        "encoder_hidden_states": rng.standard_normal((2, 7, 32)).astype(np.float32),
    }
    return Case(*_diffusers_pair("UNet2DConditionModel", cfg, tmp), inputs)


def case_unet2d(tmp):
    # the config examples/mindone_tiny_ddpm.py writes for mindone's train_unconditional.py
    cfg = dict(
        sample_size=16, in_channels=3, out_channels=3, layers_per_block=1,
        block_out_channels=(16, 32), down_block_types=("DownBlock2D", "AttnDownBlock2D"),
        up_block_types=("AttnUpBlock2D", "UpBlock2D"), norm_num_groups=8, attention_head_dim=8,
    )  # fmt: skip
    inputs = {
        "sample": _rng().standard_normal((2, 3, 16, 16)).astype(np.float32),
        "timestep": np.array([10, 500], np.int64),
    }
    return Case(*_diffusers_pair("UNet2DModel", cfg, tmp), inputs)


def case_autoencoder_kl(tmp):
    cfg = dict(
        block_out_channels=(32, 64), in_channels=3, out_channels=3, latent_channels=4,
        down_block_types=("DownEncoderBlock2D", "DownEncoderBlock2D"),
        up_block_types=("UpDecoderBlock2D", "UpDecoderBlock2D"), norm_num_groups=8,
        sample_size=16,
    )  # fmt: skip
    pixels = _rng().standard_normal((2, 3, 16, 16)).astype(np.float32)
    return Case(*_diffusers_pair("AutoencoderKL", cfg, tmp), {"sample": pixels})


def case_dit(tmp):
    cfg = dict(
        num_attention_heads=2, attention_head_dim=8, in_channels=4, out_channels=8,
        num_layers=2, sample_size=8, patch_size=2, num_embeds_ada_norm=1000, norm_num_groups=8,
    )  # fmt: skip
    rng = _rng()
    inputs = {
        "hidden_states": rng.standard_normal((2, 4, 8, 8)).astype(np.float32),
        "timestep": np.array([10, 500], np.int64),
        "class_labels": np.array([3, 7], np.int64),
    }
    return Case(*_diffusers_pair("DiTTransformer2DModel", cfg, tmp), inputs)


def case_sd3_transformer(tmp):
    cfg = dict(
        sample_size=8, patch_size=2, in_channels=4, num_layers=2, attention_head_dim=8,
        num_attention_heads=4, caption_projection_dim=32, joint_attention_dim=32,
        pooled_projection_dim=16, out_channels=4, pos_embed_max_size=16,
    )  # fmt: skip
    rng = _rng()
    inputs = {
        "hidden_states": rng.standard_normal((2, 4, 8, 8)).astype(np.float32),
        "encoder_hidden_states": rng.standard_normal((2, 7, 32)).astype(np.float32),
        "pooled_projections": rng.standard_normal((2, 16)).astype(np.float32),
        "timestep": np.array([10, 500], np.int64),
    }
    return Case(*_diffusers_pair("SD3Transformer2DModel", cfg, tmp), inputs)


MODEL_CASES: dict[str, Callable[[str], Case]] = {
    "BertModel": case_bert,
    "GPT2LMHeadModel": case_gpt2,
    "LlamaForCausalLM": case_llama,
    "LlamaForCausalLM-flash_attention_2": case_llama_flash,
    "Qwen2ForCausalLM": case_qwen2,
    "T5Model": case_t5,
    "CLIPTextModel": case_clip_text,
    "CLIPVisionModel": case_clip_vision,
    "ViTModel": case_vit,
    "UNet2DConditionModel": case_unet2d_condition,
    "UNet2DModel": case_unet2d,
    "AutoencoderKL": case_autoencoder_kl,
    "DiTTransformer2DModel": case_dit,
    "SD3Transformer2DModel": case_sd3_transformer,
}


_MS_SUFFIXES = {"embedding_table": "weight", "gamma": "weight", "beta": "bias"}


def _torch_name(name: str) -> str:
    """mindone's parameter path as PyTorch's (``nn.Embedding``/``nn.LayerNorm`` spell the
    weights ``embedding_table``/``gamma``/``beta``; mindone's loader maps them the same way)."""
    head, _, last = name.rpartition(".")
    last = _MS_SUFFIXES.get(last, last)
    return f"{head}.{last}" if head else last


def _to_ms(x: np.ndarray):
    import mindspore as ms

    return ms.Tensor(x)


def compare_model(name: str) -> Result:
    """Forward, gradients and one SGD step of mindone's model against the PyTorch one."""
    import mindspore as ms
    import torch

    with tempfile.TemporaryDirectory() as tmp:
        case = MODEL_CASES[name](tmp)
    tm, mm = case.torch_model, case.ms_model
    t_in = {k: torch.from_numpy(v) for k, v in case.inputs.items()}
    m_in = {k: _to_ms(v) for k, v in case.inputs.items()}

    t_out = case.pick(tm(**t_in))
    m_out = case.pick(mm(**m_in))
    forward_diff = float(np.abs(t_out.detach().numpy() - m_out.asnumpy()).max())

    # One training step: d(sum(out * w))/d(params), then SGD(lr) on both. The models stay in
    # eval mode: the configs have no dropout, and DiT's class-label dropout (not configurable)
    # draws from each framework's own generator.
    w = _rng().standard_normal(tuple(t_out.shape)).astype(np.float32)
    (case.pick(tm(**t_in)) * torch.from_numpy(w)).sum().backward()
    t_grads = {n: p.grad.numpy() for n, p in tm.named_parameters() if p.grad is not None}

    params = mm.trainable_params()
    paths = {id(p): _torch_name(n) for n, p in mm.parameters_and_names()}
    names = [paths[id(p)] for p in params]
    w_ms = ms.Tensor(w)

    def loss_fn(**kw):
        return (case.pick(mm(**kw)) * w_ms).sum()

    _, m_grads = ms.value_and_grad(loss_fn, None, params)(**m_in)
    m_grads = {n: g.asnumpy() for n, g in zip(names, m_grads)}
    t_params = dict(tm.named_parameters())
    # mindone keeps some PyTorch buffers as Parameters (SD3's pos_embed): not trained there.
    extra = sorted(set(m_grads) - set(t_params))
    missing = sorted(set(t_params) - set(m_grads))
    assert not missing, f"PyTorch parameters mindone lacks: {missing[:8]}"
    t_grads = {  # a parameter the loss does not reach has a zero gradient
        n: p.grad.numpy() if p.grad is not None else np.zeros(tuple(p.shape), np.float32)
        for n, p in t_params.items()
    }
    # Relative to each parameter's gradient, floored at 1e-3 of the largest one: some are
    # zero up to rounding (attention key biases, which softmax cancels).
    floor = 1e-3 * max(float(np.abs(g).max()) for g in t_grads.values())
    worst, grad_rel = "", 0.0
    for n, g in t_grads.items():
        rel = float(np.abs(m_grads[n] - g).max() / max(float(np.abs(g).max()), floor))
        if rel >= grad_rel:
            worst, grad_rel = n, rel

    optimizer = ms.nn.SGD(params, learning_rate=LR)
    optimizer(tuple(ms.Tensor(m_grads[n]) for n in names))
    with torch.no_grad():
        for n, p in tm.named_parameters():
            if p.grad is not None:
                p.sub_(LR * p.grad)
    step_diff = max(
        float(np.abs(t_params[n].detach().numpy() - p.asnumpy()).max())
        for n, p in zip(names, params)
        if n in t_params
    )
    return Result(
        name, forward_diff, grad_rel, step_diff, case.forward_atol, case.grad_rtol,
        len(t_params), worst, extra,
    )  # fmt: skip


# ---------------------------------------------------------------- schedulers


SCHEDULERS = ["DDPMScheduler", "DDIMScheduler", "EulerDiscreteScheduler"]


def compare_scheduler(name: str) -> float:
    """add_noise, then the ten steps of a 10-step schedule on the same model outputs: the
    largest difference relative to the reference's magnitude.

    DDPM's step adds fresh noise (different generators on the two sides), so there the
    deterministic ``pred_original_sample`` is compared at every step, both sides continue from
    PyTorch's sample, and ``prev_sample`` is compared at the last step (t=0, no noise)."""
    import diffusers
    import mindspore as ms
    import torch

    import mindone.diffusers as md

    def rel(t, m):
        ref = t.numpy()
        return float(np.abs(ref - m.asnumpy()).max() / max(float(np.abs(ref).max()), 1e-6))

    t_sched = getattr(diffusers, name)(num_train_timesteps=1000)
    m_sched = getattr(md, name)(num_train_timesteps=1000)
    stochastic = name == "DDPMScheduler"
    rng = _rng()
    x0, noise = (rng.standard_normal((2, 4, 8, 8)).astype(np.float32) for _ in range(2))
    steps = np.array([10, 700], np.int64)
    diff = rel(
        t_sched.add_noise(torch.from_numpy(x0), torch.from_numpy(noise), torch.from_numpy(steps)),
        m_sched.add_noise(ms.Tensor(x0), ms.Tensor(noise), ms.Tensor(steps)),
    )
    t_sched.set_timesteps(10)
    m_sched.set_timesteps(10)
    assert np.array_equal(t_sched.timesteps.numpy(), m_sched.timesteps.asnumpy())
    t_x, m_x = torch.from_numpy(x0), ms.Tensor(x0)
    if hasattr(t_sched, "init_noise_sigma"):
        t_x, m_x = t_x * t_sched.init_noise_sigma, m_x * float(m_sched.init_noise_sigma)
    for i, (t_t, m_t) in enumerate(zip(t_sched.timesteps, m_sched.timesteps)):
        eps = rng.standard_normal((2, 4, 8, 8)).astype(np.float32)
        diff = max(
            diff, rel(t_sched.scale_model_input(t_x, t_t), m_sched.scale_model_input(m_x, m_t))
        )
        t_out = t_sched.step(torch.from_numpy(eps), t_t, t_x, return_dict=True)
        m_out = m_sched.step(ms.Tensor(eps), m_t, m_x, return_dict=True)
        diff = max(diff, rel(t_out.pred_original_sample, m_out.pred_original_sample))
        if not stochastic or i == len(t_sched.timesteps) - 1:
            diff = max(diff, rel(t_out.prev_sample, m_out.prev_sample))
        t_x, m_x = (
            t_out.prev_sample,
            (ms.Tensor(t_out.prev_sample.numpy()) if stochastic else m_out.prev_sample),
        )
    return diff


# ---------------------------------------------------------------- tests


@pytest.fixture(scope="module")
def mindone():
    handle = cellax.alias_mindspore()
    saved = {k: v for k, v in sys.modules.items() if k == "mindone" or k.startswith("mindone.")}
    try:
        import mindone as module

        yield module
    finally:
        for name in [n for n in sys.modules if n == "mindone" or n.startswith("mindone.")]:
            del sys.modules[name]
        sys.modules.update(saved)
        handle.remove()


@pytest.mark.parametrize("name", list(MODEL_CASES))
def test_mindone_model_matches_pytorch(mindone, name):
    result = compare_model(name)
    assert result.ok, result


@pytest.mark.parametrize("name", SCHEDULERS)
def test_mindone_scheduler_matches_diffusers(mindone, name):
    assert compare_scheduler(name) < 1e-5


if __name__ == "__main__":
    cellax.alias_mindspore()
    only = sys.argv[1:]
    print(
        "| model | parameters | forward max abs diff | max grad rel diff | SGD step max abs diff | status |"
    )
    print("|---|---:|---:|---:|---:|---|")
    for name in MODEL_CASES:
        if only and name not in only:
            continue
        try:
            r = compare_model(name)
            status = "pass" if r.ok else f"FAIL (worst: {r.worst})"
            print(
                f"| {name} | {r.n_params} | {r.forward_diff:.1e} | {r.grad_rel_diff:.1e} | {r.step_diff:.1e} | {status} |"
            )
            if r.extra:
                print(f"|   (not compared, buffers in PyTorch: {r.extra}) |")
        except Exception as e:  # noqa: BLE001 - the table reports each model's first failure
            print(f"| {name} | | | | {type(e).__name__}: {str(e)[:150]} |")
            if os.environ.get("TRACE"):
                import traceback

                traceback.print_exc()
        sys.stdout.flush()
    for name in SCHEDULERS:
        if only and name not in only:
            continue
        try:
            d = compare_scheduler(name)
            print(
                f"| {name} add_noise + 10 steps | - | {d:.1e} (relative) | - | - | {'pass' if d < 1e-5 else 'FAIL'} |"
            )
        except Exception as e:  # noqa: BLE001
            print(f"| {name} | | | | {type(e).__name__}: {str(e)[:150]} |")
