"""Record MindSpore 2.10 outputs of the primitives and layers real zoo code builds directly
(Conv2D, Conv2DTranspose, LpNorm, L2Normalize, ResizeNearestNeighbor, KLDivLoss, nn.OneHot).

Usage: /root/ms-ref/bin/python tests/goldens/record_compat_prims.py > tests/goldens/compat_prims.json
The JSON holds the named inputs and, per case: [name, constructor kwargs, input recipe\n(input names, or a literal such as Conv2DTranspose's input_size), the outputs, their dtype].
"""

import json

import numpy as np

import mindspore as ms
from mindspore import nn, ops


def inputs():
    x4 = np.arange(2 * 3 * 5 * 5, dtype=np.float32).reshape(2, 3, 5, 5) / 10
    return {
        "x4": x4,
        "w233": (np.arange(2 * 3 * 3 * 3, dtype=np.float32).reshape(2, 3, 3, 3) / 50 - 0.5),
        "w313": np.arange(27, dtype=np.float32).reshape(3, 1, 3, 3) / 30,
        "wt": np.arange(3 * 2 * 3 * 3, dtype=np.float32).reshape(3, 2, 3, 3) / 50,
        "s": np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4) - 10,
        "small": np.full((1, 2), 1e-3, np.float32),
        "zeros": np.zeros((2, 3), np.float32),
        "img": np.arange(8, dtype=np.float32).reshape(1, 1, 2, 4),
        "logp": np.log(np.array([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]], np.float32)),
        "p": np.array([[0.1, 0.2, 0.7], [0.3, 0.3, 0.4]], np.float32),
        "idx": np.array([[1, 3], [0, 5]], np.int32),
        "ln_x": np.arange(24, dtype=np.float32).reshape(2, 3, 4) ** 1.5,
        "g34": np.linspace(0.5, 1.5, 12, dtype=np.float32).reshape(3, 4),
        "b34": np.full((3, 4), 0.1, np.float32),
        "g4": np.linspace(0.5, 1.5, 4, dtype=np.float32),
        "b4": np.full((4,), 0.1, np.float32),
    }


CASES = [
    ("Conv2D", dict(out_channel=2, kernel_size=3), ["x4", "w233"]),
    (
        "Conv2D",
        dict(out_channel=2, kernel_size=3, pad_mode="pad", pad=(1, 0, 2, 1), stride=2),
        ["x4", "w233"],
    ),
    ("Conv2D", dict(out_channel=2, kernel_size=3, pad_mode="same", dilation=2), ["x4", "w233"]),
    ("Conv2D", dict(out_channel=3, kernel_size=3, pad_mode="same", group=3), ["x4", "w313"]),
    (
        "Conv2DTranspose",
        dict(out_channel=2, kernel_size=3, pad_mode="same", stride=2),
        ["x4", "wt", (2, 2, 10, 10)],
    ),
    (
        "Conv2DTranspose",
        dict(out_channel=2, kernel_size=3, pad_mode="same", stride=2),
        ["x4", "wt", (2, 2, 9, 9)],
    ),
    (
        "Conv2DTranspose",
        dict(out_channel=2, kernel_size=3, pad_mode="pad", pad=1, stride=2),
        ["x4", "wt", (2, 2, 9, 9)],
    ),
    ("Conv2DTranspose", dict(out_channel=2, kernel_size=3), ["x4", "wt", (2, 2, 7, 7)]),
    ("LpNorm", dict(axis=[2, 3], p=2), ["s"]),
    ("LpNorm", dict(axis=1, p=1, keep_dims=True), ["s"]),
    ("LpNorm", dict(axis=-1, p=3), ["s"]),
    ("LpNorm", dict(axis=0, p=2, epsilon=0.5), ["zeros"]),
    ("L2Normalize", dict(axis=-1), ["s"]),
    ("L2Normalize", dict(axis=1), ["s"]),
    ("L2Normalize", dict(axis=-1, epsilon=1e-4), ["small"]),
    ("ResizeNearestNeighbor", dict(size=(3, 5)), ["img"]),
    ("ResizeNearestNeighbor", dict(size=(3, 5), align_corners=True), ["img"]),
    ("ResizeNearestNeighbor", dict(size=(1, 3)), ["img"]),
    ("KLDivLoss", dict(reduction="none"), ["logp", "p"]),
    ("KLDivLoss", dict(reduction="mean"), ["logp", "p"]),
    ("KLDivLoss", dict(reduction="batchmean"), ["logp", "p"]),
    ("KLDivLoss", dict(reduction="sum"), ["logp", "p"]),
    ("nn.OneHot", dict(depth=4, on_value=2.0, off_value=-1.0), ["idx"]),
    ("nn.OneHot", dict(axis=0, depth=3), ["idx"]),
    ("LayerNorm", dict(begin_norm_axis=1, begin_params_axis=1), ["ln_x", "g34", "b34"]),
    ("LayerNorm", dict(begin_norm_axis=-1, begin_params_axis=-1), ["ln_x", "g4", "b4"]),
]


def build(name, kwargs):
    if name.startswith("nn."):
        return getattr(nn, name[3:])(**kwargs)
    return getattr(ops, name)(**kwargs)


def main():
    data = inputs()
    out = []
    for name, kwargs, recipe in CASES:
        args = [ms.Tensor(data[r]) if isinstance(r, str) else r for r in recipe]
        result = build(name, kwargs)(*args)
        results = result if isinstance(result, tuple) else (result,)
        arrays = [r.asnumpy() for r in results]
        out.append([name, kwargs, recipe, [a.tolist() for a in arrays], str(arrays[0].dtype)])
    inputs_json = {k: [v.tolist(), str(v.dtype)] for k, v in data.items()}
    print(json.dumps({"inputs": inputs_json, "cases": out}))


if __name__ == "__main__":
    main()
