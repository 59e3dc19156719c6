"""The mindocr 0.5.0 ``tools/train.py``/``tools/eval.py`` run shared by the MindSpore recording
(record_mindocr_scripts.py) and the cellax test (tests/test_zoo_mindocr_scripts.py).

Deterministic and framework-free (NumPy, OpenCV): a tiny recognition dataset (8 word images of
32x100 with lowercase labels, in RecDataset's ``name<TAB>text`` label-file form), a CRNN
config (VGG7 backbone, Bi-LSTM neck, CTC head and loss, AdamW with a warm-up cosine schedule,
a static loss scale, validation after each epoch, no shuffling, no AMP), the starting weights (a
function of each parameter's name and shape), the command lines and the parsers of the logs.

mindocr 0.5.0's top package imports ``mindspore.parallel._transformer`` (for ABINet's layers,
``mindocr/models/utils/abinet_layers.py``), which MindSpore 2.10 no longer has: ``import
mindocr`` fails under MindSpore 2.10 as it does under cellax. ``PRELUDE`` registers a stand-in
for that module (enough to import, not to build ABINet) before the script runs; the scripts
themselves run unmodified.
"""

import re
import zlib

import numpy as np

IMAGES = 8
HEIGHT, WIDTH = 32, 100
CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"

# Runs a script unmodified after registering a stand-in for mindspore.parallel._transformer:
# python PRELUDE_FILE SCRIPT ARGS... (or python -m cellax run PRELUDE_FILE SCRIPT ARGS...).
PRELUDE = '''\
import runpy
import sys
import types


class _Unavailable:
    """Stands for a mindspore.parallel._transformer name: importable, usable as a decorator
    factory or a default value, not as a layer."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, function):
        return function


for _name in ("", ".layers", ".moe", ".op_parallel_config", ".transformer"):
    _module = types.ModuleType("mindspore.parallel._transformer" + _name)
    _module.__getattr__ = lambda attribute: _Unavailable
    sys.modules[_module.__name__] = _module

script = sys.argv[1]
sys.argv = sys.argv[1:]
sys.path[0] = __import__("os").path.dirname(__import__("os").path.abspath(script))
runpy.run_path(script, run_name="__main__")
'''

# WARMUP: mindocr 0.5.0's AdamW advances its global step only when the string
# mindspore.version.__version__ >= "2.2", false for "2.10.0": under MindSpore 2.10 (and cellax,
# which reports the same version) the learning rate stays at the schedule's first entry, which a
# warm-up makes 0 (no training at all). Without warm-up it is the base rate throughout.
CONFIG = """\
system:
  mode: 1
  distribute: False
  amp_level: O0
  seed: 42
  log_interval: 1
  val_while_train: True
  drop_overflow_update: False
  ckpt_max_keep: 2

common:
  character_dict_path: &character_dict_path
  num_classes: &num_classes 37
  max_text_len: &max_text_len 23
  infer_mode: &infer_mode False
  use_space_char: &use_space_char False
  batch_size: &batch_size 4

model:
  type: rec
  transform: null
  pretrained: {init}
  backbone:
    name: rec_vgg7
    pretrained: False
  neck:
    name: RNNEncoder
    hidden_size: 32
  head:
    name: CTCHead
    weight_init: crnn_customised
    bias_init: crnn_customised
    out_channels: *num_classes

postprocess:
  name: RecCTCLabelDecode
  character_dict_path: *character_dict_path
  use_space_char: *use_space_char

metric:
  name: RecMetric
  main_indicator: acc
  character_dict_path: *character_dict_path
  ignore_space: True
  print_flag: False

loss:
  name: CTCLoss
  pred_seq_len: 24
  max_label_len: *max_text_len
  batch_size: *batch_size

scheduler:
  scheduler: warmup_cosine_decay
  min_lr: 0.0
  lr: 0.001
  num_epochs: 2
  warmup_epochs: 0  # see WARMUP
  decay_epochs: 2

optimizer:
  opt: adamw
  filter_bias_and_bn: True
  momentum: 0.95
  weight_decay: 0.0001
  nesterov: False

loss_scaler:
  type: static
  loss_scale: 1024

train:
  ckpt_save_dir: {save}
  pred_cast_fp32: False
  dataset_sink_mode: False
  dataset:
    type: RecDataset
    dataset_root: {data}
    data_dir: images
    label_file: train.txt
    sample_ratio: 1.0
    shuffle: False
    transform_pipeline:
      - DecodeImage:
          img_mode: BGR
          to_float32: False
      - RecCTCLabelEncode:
          max_text_len: *max_text_len
          character_dict_path: *character_dict_path
          use_space_char: *use_space_char
          lower: True
      - RecResizeImg:
          image_shape: [32, 100]
          infer_mode: *infer_mode
          character_dict_path: *character_dict_path
          padding: False
      - NormalizeImage:
          bgr_to_rgb: True
          is_hwc: True
          mean : [127.0, 127.0, 127.0]
          std : [127.0, 127.0, 127.0]
      - ToCHWImage:
    output_columns: ['image', 'text_seq']
    net_input_column_index: [0]
    label_column_index: [1]
  loader:
    shuffle: False
    batch_size: *batch_size
    drop_remainder: True
    max_rowsize: 12
    num_workers: 1

eval:
  ckpt_load_path: {save}/best.ckpt
  dataset_sink_mode: False
  dataset:
    type: RecDataset
    dataset_root: {data}
    data_dir: images
    label_file: train.txt
    sample_ratio: 1.0
    shuffle: False
    transform_pipeline:
      - DecodeImage:
          img_mode: RGB
          to_float32: False
      - RecCTCLabelEncode:
          max_text_len: *max_text_len
          character_dict_path: *character_dict_path
          use_space_char: *use_space_char
          lower: True
      - RecResizeNormForInfer:
          target_height: 32
          target_width: 100
          keep_ratio: False
          padding: False
          norm_before_pad: False
      - ToCHWImage:
    output_columns: ['image', 'text_padded', 'text_length']
    net_input_column_index: [0]
    label_column_index: [1, 2]
  loader:
    shuffle: False
    batch_size: 4
    drop_remainder: False
    max_rowsize: 12
    num_workers: 1
"""


def make_data(root, save, init) -> str:
    """images/*.png and train.txt (``name<TAB>word``) under `root`, and crnn.yaml training from
    the weights `init` into `save`; returns the config's path."""
    import pathlib

    import cv2

    root = pathlib.Path(root)
    (root / "images").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    lines = []
    for index in range(IMAGES):
        word = "".join(rng.choice(list(CHARS), int(rng.integers(3, 7))))
        image = (rng.random((HEIGHT, WIDTH, 3)) * 40 + 180).astype(np.uint8)
        for position, char in enumerate(word):
            # one dark block a character, its height and shade a function of the character
            shade = 20 + 5 * CHARS.index(char)
            top = 4 + CHARS.index(char) % 8
            left = 4 + 15 * position
            image[top : top + 16, left : left + 10] = shade
        name = f"word_{index}.png"
        cv2.imwrite(str(root / "images" / name), image)
        lines.append(f"{name}\t{word}")
    (root / "train.txt").write_text("\n".join(lines) + "\n")
    config = root / "crnn.yaml"
    config.write_text(CONFIG.format(data=root, save=save, init=init))
    return str(config)


def init_value(name: str, shape) -> np.ndarray:
    """BatchNorm statistics/affine terms as initialised, biases 0.01, other weights
    He-normal (LSTM weights a quarter of that) from a generator seeded by the name."""
    shape = tuple(int(s) for s in shape)
    leaf = name.rsplit(".", 1)[-1]
    if leaf in ("gamma", "moving_variance"):
        return np.ones(shape, np.float32)
    if leaf in ("beta", "moving_mean"):
        return np.zeros(shape, np.float32)
    if "bias" in leaf or len(shape) < 2:
        return np.full(shape, 0.01, np.float32)
    fan_in = int(np.prod(shape[1:]))
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    scale = np.sqrt(2.0 / fan_in) * (0.25 if "seq_encoder" in name else 1.0)
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def init_checkpoint(ms, config: str, path: str) -> None:
    """Builds the config's model with framework `ms` (mindspore or cellax, aliased) and saves
    init_value's weights for its parameters to `path`."""
    import yaml
    from addict import Dict

    from mindocr.models import build_model

    cfg = Dict(yaml.safe_load(open(config)))
    cfg.model.pop("pretrained")
    network = build_model(cfg.model, amp_level="O0")
    params = [
        {"name": p.name, "data": ms.Tensor(init_value(p.name, p.shape))}
        for p in network.get_parameters()
    ]
    ms.save_checkpoint(params, path)


def train_args(mode: int, config: str) -> list:
    return ["-c", config, "-o", f"system.mode={mode}"]


def eval_args(mode: int, config: str, checkpoint: str | None = None) -> list:
    """tools/eval.py's command line: the config's ``eval.ckpt_load_path`` (the best checkpoint
    of the training run) or `checkpoint`, each prediction logged (``metric.print_flag``)."""
    options = [f"system.mode={mode}", "metric.print_flag=True"]
    if checkpoint is not None:
        options.append(f"eval.ckpt_load_path={checkpoint}")
    return ["-c", config, "-o", *options]


STEP = re.compile(r"epoch: \[(\d+)/\d+\] step: \[(\d+)/\d+\], loss: ([-\d.e+]+), lr: ([\d.e-]+)")
EPOCH = re.compile(r"epoch: \[(\d+)/\d+\], loss: ([-\d.e+]+), epoch time")
PERF = re.compile(r"Performance: (\{.*?\}), eval time")
EVAL_PERF = re.compile(r"mindocr\.eval INFO - Performance: (\{.*\})$", re.M)
PREDICTION = re.compile(r"rec_metrics INFO - (.*) :: (.*)$", re.M)


def parse_train(text: str) -> dict:
    """The logged steps ``[epoch, step, loss, lr]``, epoch losses ``[epoch, loss]`` and
    validation results (dicts) of a train.py log."""
    import ast

    return {
        "steps": [[int(e), int(s), float(v), float(lr)] for e, s, v, lr in STEP.findall(text)],
        "epochs": [[int(e), float(v)] for e, v in EPOCH.findall(text)],
        "evals": [ast.literal_eval(m) for m in PERF.findall(text)],
    }


def parse_eval(text: str) -> dict:
    """What an eval.py log reports: ``metrics``, the final results (a dict, None if the log has
    none), and ``texts``, each image's ``[prediction, label]``."""
    import ast

    found = EVAL_PERF.findall(text)
    return {
        "metrics": ast.literal_eval(found[-1]) if found else None,
        "texts": [list(pair) for pair in PREDICTION.findall(text)],
    }
