"""mindone 0.5.0's DDPM training example, unmodified, through ``python -m cellax run`` (issue 34).

``examples/diffusers/unconditional_image_generation/train_unconditional.py`` from the mindone
repository trains a tiny ``UNet2DModel`` (examples/mindone_tiny_ddpm.py writes its config and
an 8-image folder) for two epochs in GRAPH_MODE with mindone's ``TrainStep``, saves
checkpoints, validation images and the ``DDPMPipeline``. The script is third-party and never
copied into this repository: the test runs only when ``CELLAX_MINDONE_EXAMPLES`` names a folder
holding the repository's ``examples/diffusers`` tree and mindone, Hugging Face ``datasets``,
``tensorboardX`` and Pillow import (docs/running_mindspore_code.md lists the installs). With
torch and diffusers importable too, the script's last validation images are checked against
PyTorch's ``diffusers`` running the saved pipeline with the same noise.

MindSpore 2.10's CPU build runs the script identically up to the first training step (the same
log lines and hparams.yml), then stops: mindone's UNet calls ``mint`` convolutions that
MindSpore runs on Ascend only.
"""

from __future__ import annotations

import importlib.util
import math
import os
import pathlib
import re

import pytest

from ._cellax_run import cellax_run

EXAMPLES = os.environ.get("CELLAX_MINDONE_EXAMPLES", "")
SCRIPT = os.path.join(EXAMPLES, "unconditional_image_generation", "train_unconditional.py")
ROOT = pathlib.Path(__file__).resolve().parent.parent
NEEDED = ("mindone", "datasets", "tensorboardX", "PIL")

pytestmark = [
    pytest.mark.skipif(
        not (EXAMPLES and os.path.isfile(SCRIPT))
        or any(importlib.util.find_spec(name) is None for name in NEEDED),
        reason="set CELLAX_MINDONE_EXAMPLES to mindone's examples/diffusers and install "
        "mindone 0.5.0, datasets, tensorboardX and Pillow",
    ),
    pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::UserWarning"),
]

# The docs' command line (docs/running_mindspore_code.md): 8 images, batches of 4, 2 epochs
ARGS = [
    "--train_data_dir", "tiny/images",
    "--model_config_name_or_path", "tiny/unet",
    "--resolution", "16",
    "--train_batch_size", "4",
    "--num_epochs", "2",
    "--lr_warmup_steps", "1",
    "--checkpointing_steps", "2",
    "--save_images_epochs", "1",
    "--eval_batch_size", "2",
    "--ddpm_num_inference_steps", "5",
    "--output_dir", "out",
]  # fmt: skip


def _load_helper():
    spec = importlib.util.spec_from_file_location(
        "mindone_tiny_ddpm", ROOT / "examples" / "mindone_tiny_ddpm.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """The script's output folder and everything it printed."""
    work = tmp_path_factory.mktemp("mindone_ddpm")
    _load_helper().make_tiny_ddpm(str(work / "tiny"))
    output = cellax_run([SCRIPT, *ARGS], work, timeout=1800).replace("\r", "\n")
    return work / "out", output


def test_logs_and_steps(run):
    out, output = run
    for line in [
        "Dataset size: 8",
        "Num Epochs = 2",
        "Instantaneous batch size per device = 4",
        "Total optimization steps = 4",
        "Saved state to out/checkpoint-2",
        "Saved state to out/checkpoint-4",
    ]:
        assert re.search(r"INFO - __main__ - +" + re.escape(line), output), line
    steps = {}
    for loss, lr, step in re.findall(r"loss=([^,]+), lr=([^,]+), step=(\d+)", output):
        steps[int(step)] = (float(loss), float(lr))
    assert sorted(steps) == [1, 2, 3, 4]
    # the loss is the MSE between the UNet's prediction and unit Gaussian noise: about 1 for a
    # freshly initialised UNet
    assert all(math.isfinite(loss) and 0.5 < loss < 2.0 for loss, _ in steps.values())
    # mindone's get_scheduler("cosine", 1e-4, warmup 1, 4 steps): the rates of steps 0..3 are
    # 0, 1e-4, 7.5e-5, 2.5e-5; get_lr() after step k reads rate k; after the last step the
    # index is past the list, where cellax repeats the last rate (MindSpore's CPU Gather
    # raises an out-of-range error there)
    lrs = [steps[k][1] for k in (1, 2, 3, 4)]
    assert lrs == pytest.approx([1e-4, 7.5e-5, 2.5e-5, 2.5e-5], rel=1e-2)


def test_saved_files(run):
    import numpy as np

    import cellax as ms

    out, _ = run
    for name in [
        "model_index.json",
        "scheduler/scheduler_config.json",
        "unet/config.json",
        "unet/diffusion_pytorch_model.safetensors",
        "logs/hparams.yml",
        "logs/validation/epoch0/0000.jpg",
        "logs/validation/epoch1/0001.jpg",
    ]:
        assert (out / name).is_file(), name
    assert any(p.name.startswith("events.out.tfevents") for p in (out / "logs").iterdir())
    first = ms.load_checkpoint(str(out / "checkpoint-2" / "pytorch_model.ckpt"))
    last = ms.load_checkpoint(str(out / "checkpoint-4" / "pytorch_model.ckpt"))
    assert sorted(first) == sorted(last) and len(last) > 50
    moved = [k for k in last if not np.array_equal(first[k].asnumpy(), last[k].asnumpy())]
    assert len(moved) > len(last) // 2  # steps 3 and 4 trained (lr > 0)
    # the final pipeline holds checkpoint-4's weights; the checkpoint names them "unet.<name>",
    # as MindSpore 2.10 does: TrainStep's `self.unet = self.model` renames the UNet's
    # Parameters after their new attribute path, and ms.save_checkpoint(unet) writes those
    from safetensors.numpy import load_file

    final = load_file(str(out / "unet" / "diffusion_pytorch_model.safetensors"))
    assert sorted(f"unet.{name}" for name in final) == sorted(last)
    for name, value in final.items():
        np.testing.assert_array_equal(value, last[f"unet.{name}"].asnumpy(), err_msg=name)


def test_validation_images_match_pytorch_diffusers(run):
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("diffusers") is None:
        pytest.skip("torch and diffusers are needed for the PyTorch comparison")
    out, _ = run
    results = _load_helper().compare_with_diffusers(str(out), 2, 5, 1)
    assert len(results) == 2
    for result in results:
        assert result["std"] > 10  # a real image, not a flat one
        # uint8 levels after JPEG; measured 0 on CPU (1% on the last conv's weights moves
        # them by up to 16 levels)
        assert result["max_abs_diff"] <= 2 and result["mean_abs_diff"] < 0.05, result
