"""A tiny model and dataset for mindone's DDPM training example, and a PyTorch cross-check.

mindone's ``examples/diffusers/unconditional_image_generation/train_unconditional.py`` trains
a ``UNet2DModel`` on an image folder and saves a ``DDPMPipeline``. Its defaults (a 64x64 UNet
with 114M parameters, a Hugging Face hub dataset) need a large device and the network; this
helper writes what a CPU run without network needs instead (docs/running_mindspore_code.md,
"A mindone training script end to end"):

    python examples/mindone_tiny_ddpm.py make tiny          # tiny/images/*.png, tiny/unet/
    python -m cellax run train_unconditional.py --train_data_dir tiny/images \\
        --model_config_name_or_path tiny/unet --resolution 16 ... --output_dir out
    python examples/mindone_tiny_ddpm.py compare out        # needs torch and diffusers

``compare`` loads the pipeline the script saved into PyTorch's ``diffusers``, reproduces the
script's last validation images (the script seeds a NumPy ``PCG64(0)`` generator; the same
draws are fed to PyTorch's pipeline in the same order) and reports how far the script's JPEG
files are from PyTorch's.
"""

from __future__ import annotations

import argparse
import io
import json
import os

import numpy as np

# A UNet2DModel with the example's block types, two levels deep, 16 and 32 channels
TINY_UNET = {
    "_class_name": "UNet2DModel",
    "sample_size": 16,
    "in_channels": 3,
    "out_channels": 3,
    "layers_per_block": 1,
    "block_out_channels": [16, 32],
    "down_block_types": ["DownBlock2D", "AttnDownBlock2D"],
    "up_block_types": ["AttnUpBlock2D", "UpBlock2D"],
    "norm_num_groups": 8,
    "attention_head_dim": 8,
}


def make_tiny_ddpm(root: str, num_images: int = 8, size: int = 24, seed: int = 0) -> dict:
    """Write ``root/images`` (an image folder of ``num_images`` RGB PNGs, ``size`` pixels
    square: a colour gradient and a disc each) and ``root/unet/config.json`` (``TINY_UNET``).

    Args:
        root (str): The folder to write (created if needed).
        num_images (int): How many images. Default: ``8``.
        size (int): Their width and height. Default: ``24``.
        seed (int): Seed of the NumPy generator that picks the colours. Default: ``0``.

    Returns:
        dict, the paths: ``{"images": ..., "unet": ...}``.

    Examples:
        >>> import os, tempfile
        >>> paths = make_tiny_ddpm(tempfile.mkdtemp())
        >>> sorted(os.listdir(paths["images"]))[:2], os.listdir(paths["unet"])
        (['00.png', '01.png'], ['config.json'])
    """
    from PIL import Image

    images, unet = os.path.join(root, "images"), os.path.join(root, "unet")
    os.makedirs(images, exist_ok=True)
    os.makedirs(unet, exist_ok=True)
    rng = np.random.default_rng(seed)
    ramp = np.linspace(0.0, 1.0, size)[None, :, None]
    rows, cols = np.mgrid[:size, :size]
    for index in range(num_images):
        start, stop, disc = rng.random((3, 3))
        pixels = start + (stop - start) * ramp * np.ones((size, 1, 1))
        centre, radius = rng.uniform(size / 4, 3 * size / 4, 2), rng.uniform(size / 8, size / 3)
        inside = (rows - centre[0]) ** 2 + (cols - centre[1]) ** 2 < radius**2
        pixels[inside] = disc
        Image.fromarray(np.uint8(np.round(pixels * 255))).save(
            os.path.join(images, f"{index:02d}.png")
        )
    with open(os.path.join(unet, "config.json"), "w") as file:
        json.dump(TINY_UNET, file, indent=2)
    return {"images": images, "unet": unet}


def compare_with_diffusers(
    output_dir: str, eval_batch_size: int, num_inference_steps: int, epoch: int
) -> list:
    """Reproduce the validation images of ``epoch`` with PyTorch's ``diffusers`` and compare.

    Loads ``output_dir`` (the ``DDPMPipeline`` the script saved at the end) with
    ``diffusers.DDPMPipeline.from_pretrained``, runs it with the noise of a NumPy
    ``PCG64(seed=0)`` generator drawn in the order mindone's pipeline draws it (the starting
    image, then each step's variance noise), and compares each image, JPEG-encoded as the
    script encodes it, with ``output_dir/logs/validation/epoch{epoch}/NNNN.jpg``. Only the
    last epoch's images were made with the saved weights.

    Args:
        output_dir (str): The script's ``--output_dir``.
        eval_batch_size (int): The script's ``--eval_batch_size``.
        num_inference_steps (int): The script's ``--ddpm_num_inference_steps``.
        epoch (int): The last epoch (``--num_epochs`` minus one).

    Returns:
        list[dict], per image: ``max_abs_diff`` and ``mean_abs_diff`` (uint8 levels) and the
        image's ``mean`` and ``std``.

    Examples:
        >>> compare_with_diffusers("out", 2, 5, 1)  # doctest: +SKIP
        [{'max_abs_diff': 0, 'mean_abs_diff': 0.0, 'mean': ..., 'std': ...}, ...]
    """
    import torch
    from PIL import Image
    from diffusers import DDPMPipeline
    from diffusers.pipelines.ddpm import pipeline_ddpm
    from diffusers.schedulers import scheduling_ddpm

    draws = np.random.Generator(np.random.PCG64(seed=0))  # the script's validation generator

    def numpy_noise(shape, generator=None, device=None, dtype=None, layout=None):
        return torch.tensor(draws.standard_normal(tuple(shape)), dtype=dtype or torch.float32)

    saved = pipeline_ddpm.randn_tensor, scheduling_ddpm.randn_tensor
    pipeline_ddpm.randn_tensor = scheduling_ddpm.randn_tensor = numpy_noise
    try:
        pipeline = DDPMPipeline.from_pretrained(output_dir)
        pipeline.set_progress_bar_config(disable=True)
        images = pipeline(batch_size=eval_batch_size, num_inference_steps=num_inference_steps)[0]
    finally:
        pipeline_ddpm.randn_tensor, scheduling_ddpm.randn_tensor = saved
    folder = os.path.join(output_dir, "logs", "validation", f"epoch{epoch}")
    results = []
    for index, image in enumerate(images):
        buffer = io.BytesIO()
        image.save(buffer, "JPEG")
        theirs = np.asarray(Image.open(buffer), np.int32)
        mine = np.asarray(Image.open(os.path.join(folder, f"{index:04d}.jpg")), np.int32)
        difference = np.abs(mine - theirs)
        results.append(
            {
                "max_abs_diff": int(difference.max()),
                "mean_abs_diff": float(difference.mean()),
                "mean": float(theirs.mean()),
                "std": float(theirs.std()),
            }
        )
    return results


def main(argv: list | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("make", help="write the tiny dataset and UNet config")
    make.add_argument("root")
    make.add_argument("--num_images", type=int, default=8)
    compare = commands.add_parser("compare", help="check the saved pipeline against PyTorch")
    compare.add_argument("output_dir")
    compare.add_argument("--eval_batch_size", type=int, default=2)
    compare.add_argument("--ddpm_num_inference_steps", type=int, default=5)
    compare.add_argument("--epoch", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "make":
        paths = make_tiny_ddpm(args.root, args.num_images)
        print(
            f"wrote {args.num_images} images to {paths['images']}, UNet config to {paths['unet']}"
        )
        return
    results = compare_with_diffusers(
        args.output_dir, args.eval_batch_size, args.ddpm_num_inference_steps, args.epoch
    )
    for index, result in enumerate(results):
        print(
            f"image {index}: max |script - diffusers| = {result['max_abs_diff']} "
            f"(mean {result['mean_abs_diff']:.3f}) uint8 levels; "
            f"image mean {result['mean']:.1f}, std {result['std']:.1f}"
        )


if __name__ == "__main__":
    main()
