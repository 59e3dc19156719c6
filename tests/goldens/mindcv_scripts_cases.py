"""The mindcv 0.3.0 ``train.py``/``validate.py`` runs shared by the MindSpore recording
(record_mindcv_scripts.py) and the cellax test (tests/test_zoo_mindcv_scripts.py).

Everything here is deterministic and framework-free (NumPy, Pillow): the ImageFolder dataset,
the config that switches mindcv's randomness off (no shuffle, no flips, no colour jitter, the
random crop covering the whole image, no dropout), the starting weights (a function of each
parameter's name and shape), the command lines and the parser of the printed numbers.
"""

import re
import zlib

import numpy as np

CLASSES = 4
SIZE = 64
MODEL = "resnet18"  # no dropout: mindcv trains it deterministically
INIT_CKPT = "init-0_0.ckpt"  # train.py reads the starting epoch from the name: "<x>-<epoch>_<step>"

# mindcv's config.py reads this YAML as the parser's defaults (scale/ratio are tuples there:
# only a config file can set them; color_jitter: null switches RandomColorAdjust off).
CONFIG = """\
shuffle: False
hflip: 0.0
vflip: 0.0
color_jitter: null
scale: [1.0, 1.0]
ratio: [1.0, 1.0]
opt: momentum
lr: 0.0002
momentum: 0.9
weight_decay: 0.0001
warmup_epochs: 0
scheduler: cosine_decay
min_lr: 0.00002
"""

COMMON = (
    "--data_dir {data} --model " + MODEL + " --image_resize " + str(SIZE) + " --batch_size 4 "
    "--num_parallel_workers 1 --num_classes 4 -c {config}"
)


def train_args(mode: int, data, config, ckpt_dir, init_ckpt) -> list:
    """train.py's arguments: 2 epochs of 2 batches, validation after each, from `init_ckpt`."""
    args = COMMON.format(data=data, config=config)
    args += f" --mode {mode} --epoch_size 2 --val_while_train True --log_interval 1"
    args += f" --ckpt_save_dir {ckpt_dir} --ckpt_path {init_ckpt}"
    args += f" --dataset_sink_mode {mode == 0}"
    return args.split()


def validate_args(mode: int, data, config, ckpt) -> list:
    args = COMMON.format(data=data, config=config) + f" --mode {mode} --ckpt_path {ckpt}"
    return args.split()


def make_data(root) -> None:
    """train/ (2 images per class) and val/ (1 per class) of SIZE x SIZE RGB PNGs, and config.yaml.

    Unshuffled, ImageFolder reads a class after the other: with 2 images of each of 4 classes,
    each batch of 4 holds two classes (one-class batches make BatchNorm's gradients so
    ill-conditioned that float32 rounding alone moves the second epoch's losses by percents,
    in MindSpore as in cellax)."""
    import pathlib

    from PIL import Image

    root = pathlib.Path(root)
    rng = np.random.default_rng(0)
    for split, count in (("train", 2), ("val", 1)):
        for label in range(CLASSES):
            folder = root / split / f"class{label}"
            folder.mkdir(parents=True, exist_ok=True)
            for index in range(count):
                # smooth pictures (a few low-frequency waves): noise images make the early
                # layers' gradients cancel, so float32 rounding alone moves them by percents
                grid = np.linspace(0.0, 2.0 * np.pi, SIZE)
                phase, freq = rng.random((2, 3, 2))
                waves = [
                    np.sin(freq[c, 0] * 3 * grid[:, None] + phase[c, 0] * 6)
                    * np.cos(freq[c, 1] * 3 * grid[None, :] + phase[c, 1] * 6)
                    for c in range(3)
                ]
                pixels = np.stack(waves, -1) * 80 + 100 + 20 * label  # the classes differ
                Image.fromarray(pixels.astype("uint8")).save(folder / f"{index}.png")
    (root / "config.yaml").write_text(CONFIG)


def init_value(name: str, shape) -> np.ndarray:
    """The starting value of parameter `name`: BatchNorm statistics and affine terms as
    initialised, biases 0, weights He-normal from a generator seeded by the name."""
    shape = tuple(int(s) for s in shape)
    leaf = name.rsplit(".", 1)[-1]
    if leaf in ("gamma", "moving_variance"):
        return np.ones(shape, np.float32)
    if leaf in ("beta", "moving_mean", "bias"):
        return np.zeros(shape, np.float32)
    fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)


def init_checkpoint(ms, path) -> None:
    """Build mindcv's model under `ms` (MindSpore or cellax), set every parameter to
    init_value and save it as `path`."""
    from mindcv.models import create_model

    net = create_model(model_name=MODEL, num_classes=CLASSES)
    for param in net.get_parameters():
        param.set_data(ms.Tensor(init_value(param.name, param.shape)))
    ms.save_checkpoint(net, str(path))


def digest(ms, path) -> dict:
    """A checkpoint file read back: name -> [sum, sum of squares] (of the float32s in float64,
    9 significant digits)."""
    out = {}
    for name, value in ms.load_checkpoint(str(path)).items():
        array = np.asarray(value.asnumpy(), np.float64)
        out[name] = [float(f"{array.sum():.9g}"), float(f"{(array * array).sum():.9g}")]
    return out


_STEP = re.compile(
    r"Epoch: \[(\d+)/\d+\], batch: \[(\d+)/\d+\], loss: ([-\d.]+), lr: ([-\d.]+), time"
)
_VAL = re.compile(r"Validation (.*), time: ")
_METRIC = re.compile(r"(\w+): ([-\d.]+)%")
_SAVED = re.compile(r"Saving model to (\S+)")
_RESULT = re.compile(r"^(\{'Top_1_Accuracy'.*\})$", re.M)


def parse_train(text: str) -> dict:
    """train.py's printed numbers: per-step loss and lr, per-epoch validation metrics (%),
    the checkpoints it says it saves (base names)."""
    steps = [[int(e), int(b), float(loss), float(lr)] for e, b, loss, lr in _STEP.findall(text)]
    vals = [{k: float(v) for k, v in _METRIC.findall(line)} for line in _VAL.findall(text)]
    saved = [p.replace("\\", "/").rsplit("/", 1)[-1] for p in _SAVED.findall(text)]
    return {"steps": steps, "validation": vals, "saved": saved}


def parse_validate(text: str) -> dict:
    """validate.py's result dict (its last printed line) and its per-batch lines."""
    import ast

    found = _RESULT.findall(text)
    result = ast.literal_eval(found[-1]) if found else None
    return {"result": result, "batches": len(re.findall(r"^batch: \d+/\d+, time: ", text, re.M))}


def main(argv) -> None:
    """``python mindcv_scripts_cases.py DIR``: DIR/data and DIR/init-0_0.ckpt (under
    MindSpore, or under cellax through ``python -m cellax run``)."""
    import pathlib

    import mindspore as ms

    root = pathlib.Path(argv[0])
    make_data(root / "data")
    init_checkpoint(ms, root / INIT_CKPT)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
