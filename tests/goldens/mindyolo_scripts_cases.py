"""The mindyolo 0.5.0 ``train.py`` run shared by the MindSpore recording
(record_mindyolo_scripts.py) and the cellax test (tests/test_zoo_mindyolo_scripts.py).

Deterministic and framework-free (NumPy, OpenCV): a tiny COCO-format (YOLO label files)
dataset of 10 images with 2 classes, the config (yolov8n from the scripts' own configs with
every random augmentation switched off, no EMA, no summary), the starting weights (a function
of each parameter's name and shape), the command line and the parser of the printed losses.
"""

import re
import zlib

import numpy as np

# train.py logs every log_interval-th step of an epoch, computing the learning rate at the
# optimizer's global step after the update: at the last step of the run that index is one past
# the schedule, and MindSpore's CPU Gather rejects it ("'input_indices' should be in the range
# [0, 4), but got 4"). 5 steps an epoch logged every 2nd never log the last step.
SIZE = 64
IMAGES = 10  # 5 steps of 2 a epoch
CONFIG = """\
__BASE__: ['{scripts}/configs/yolov8/yolov8n.yaml']
epochs: 2
per_batch_size: 2
img_size: {size}
ema: False
summary: False
sync_bn: False
log_interval: 2
keep_checkpoint_max: 2
device_target: CPU
optimizer:
  nesterov: False  # MindSpore 2.10's CPU kernel runs Nesterov as plain momentum; cellax doesn't
data:
  dataset_name: tiny
  train_set: {data}/train.txt
  val_set: {data}/train.txt
  nc: 2
  names: ['a', 'b']
  num_parallel_workers: 1
  train_transforms: {{
    stage_epochs: [2],
    trans_list: [[
      {{func_name: letterbox, scaleup: False}},
      {{func_name: label_norm, xyxy2xywh_: True}},
      {{func_name: label_pad, padding_size: 160, padding_value: -1}},
      {{func_name: image_norm, scale: 255.}},
      {{func_name: image_transpose, bgr2rgb: True, hwc2chw: True}}
    ]]
  }}
"""


def make_data(root, scripts) -> str:
    """images/train/*.jpg, labels/train/*.txt (class cx cy w h, normalised), train.txt,
    annotations/instances_val2017.json (the same boxes in COCO form, which train.py's
    --run_eval and test.py read beside the val set) and tiny.yaml under `root`; returns the
    config's path."""
    import json
    import pathlib

    import cv2

    root = pathlib.Path(root)
    (root / "images" / "train").mkdir(parents=True, exist_ok=True)
    (root / "labels" / "train").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    lines = []
    coco = {
        "images": [],
        "annotations": [],
        "categories": [{"id": 0, "name": "a"}, {"id": 1, "name": "b"}],
    }
    for index in range(IMAGES):
        # textured, not flat: flat pictures tie the assigner's alignment scores, and MindSpore's
        # CPU TopK and XLA's break ties differently
        image = (rng.random((SIZE, SIZE, 3)) * 60 + 20 + 15 * index).astype(np.uint8)
        labels = []
        for box in range(2):
            cls = (index + box) % 2
            w, h = rng.integers(12, 28, 2)
            x0, y0 = rng.integers(0, SIZE - 28, 2)
            colour = np.array((200, 60, 60) if cls == 0 else (60, 60, 200))
            patch = colour + rng.integers(-40, 40, (h, w, 3))
            image[y0 : y0 + h, x0 : x0 + w] = np.clip(patch, 0, 255).astype(np.uint8)
            cx, cy = (x0 + w / 2) / SIZE, (y0 + h / 2) / SIZE
            labels.append(f"{cls} {cx:.6f} {cy:.6f} {w / SIZE:.6f} {h / SIZE:.6f}")
            coco["annotations"].append({
                "id": len(coco["annotations"]) + 1, "image_id": index, "category_id": cls,
                "bbox": [int(x0), int(y0), int(w), int(h)], "area": int(w * h), "iscrowd": 0,
            })  # fmt: skip
        coco["images"].append(
            {"id": index, "file_name": f"{index:06d}.jpg", "width": SIZE, "height": SIZE}
        )
        name = f"{index:06d}"
        cv2.imwrite(str(root / "images" / "train" / f"{name}.jpg"), image)
        (root / "labels" / "train" / f"{name}.txt").write_text("\n".join(labels) + "\n")
        lines.append(f"./images/train/{name}.jpg")
    (root / "train.txt").write_text("\n".join(lines) + "\n")
    (root / "annotations").mkdir(exist_ok=True)
    (root / "annotations" / "instances_val2017.json").write_text(json.dumps(coco))
    config = root / "tiny.yaml"
    config.write_text(CONFIG.format(scripts=scripts, data=root, size=SIZE))
    return str(config)


def init_value(name: str, shape) -> np.ndarray:
    """BatchNorm statistics/affine terms as initialised, biases 0.01, other weights
    He-normal from a generator seeded by the name."""
    shape = tuple(int(s) for s in shape)
    leaf = name.rsplit(".", 1)[-1]
    if leaf in ("gamma", "moving_variance"):
        return np.ones(shape, np.float32)
    if leaf in ("beta", "moving_mean"):
        return np.zeros(shape, np.float32)
    if leaf == "bias" or len(shape) < 2:
        return np.full(shape, 0.01, np.float32)
    fan_in = int(np.prod(shape[1:]))
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)


def init_checkpoint(ms, config, path) -> None:
    """Build the config's network under `ms` (MindSpore or cellax) through mindyolo, set every
    parameter to init_value and save it as `path`."""
    from mindyolo.models import create_model
    from mindyolo.utils.config import load_config

    cfg, _, _ = load_config(config)
    net = create_model(model_name="yolov8", model_cfg=_Dict(cfg["network"]), num_classes=2)
    for param in net.get_parameters():
        param.set_data(ms.Tensor(init_value(param.name, param.shape)))
    ms.save_checkpoint(net, str(path))


class _Dict(dict):
    __getattr__ = dict.get


def train_args(mode: int, config, save_dir, weight, run_eval=False) -> list:
    """train.py's command line; ``run_eval`` evaluates (test.py's test_detect, pycocotools)
    after each epoch on the val set (the train images, annotations/instances_val2017.json)."""
    return [
        "--config", str(config), "--ms_mode", str(mode), "--save_dir", str(save_dir),
        "--weight", str(weight), "--device_target", "CPU", "--run_eval", str(run_eval),
    ]  # fmt: skip


def evaluate_args(mode: int, config, save_dir, weight) -> list:
    """test.py's command line: the val set at the training size and batch."""
    return [
        "--config", str(config), "--ms_mode", str(mode), "--save_dir", str(save_dir),
        "--weight", str(weight), "--device_target", "CPU", "--per_batch_size", "2",
        "--img_size", str(SIZE),
    ]  # fmt: skip


_METRIC = re.compile(r"Average (?:Precision|Recall) +\((AP|AR)\) @\[ (.*?) \] = (\S+)$", re.M)
_EVAL = re.compile(r"Epoch (\d+)/\d+, eval accuracy: (\S+), run_eval", re.M)


def parse_eval(text: str) -> dict:
    """pycocotools' summary lines ([[AP/AR, setting, value], ...], twelve per evaluation) and
    train.py's "eval accuracy" lines ([epoch, mAP])."""
    metrics = [
        [kind, " ".join(where.split()), float(v)] for kind, where, v in _METRIC.findall(text)
    ]
    evals = [[int(epoch), float(acc)] for epoch, acc in _EVAL.findall(text)]
    return {"metrics": metrics, "evals": evals}


_STEP = re.compile(r"Epoch (\d+)/\d+, Step (\d+)/\d+, imgsize \S+ \S+, (.*?), cur_lr: (\S+)$", re.M)


def parse_train(text: str) -> dict:
    """train.py's per-step lines as [epoch, step, {loss item: value}, lr] and the checkpoint
    files it names."""
    steps = []
    for epoch, step, items, lr in _STEP.findall(text):
        values = {k: float(v) for k, v in re.findall(r"(\w+): ([-\d.]+)", items)}
        steps.append([int(epoch), int(step), values, float(lr)])
    return {"steps": steps}
