"""Record MindSpore 2.10 goldens for the module-surface features (run with MindSpore's python):
/root/ms-ref/bin/python tests/goldens/record_surface.py  -> tests/goldens/surface.json

Cases adapted from MindSpore's tests/ut/python (parallel/test_set_auto_parallel_context.py,
nn/test_pad.py, ops/test_multitype_ops.py) to the behaviours cellax provides."""

import json
import os

import numpy as np

import mindspore as ms
from mindspore import Tensor, context, nn, ops
from mindspore.common import initializer as init

out = {}


def outcome(fn):
    try:
        value = fn()
        return ["ok", value]
    except Exception as exc:  # noqa: BLE001
        return [type(exc).__name__, str(exc).split("\n")[0]]


# auto-parallel context: values after set, errors for bad values, defaults after reset
SET_CASES = [
    {
        "device_num": 4,
        "global_rank": 3,
        "parallel_mode": "auto_parallel",
        "parameter_broadcast": False,
    },
    {"gradients_mean": True, "full_batch": True, "pipeline_stages": 2},
    {"device_num": 0},
    {"device_num": 4097},
    {"global_rank": -1},
    {"global_rank": 4096},
    {"parallel_mode": "wrong_mode"},
    {"gradients_mean": 1},
    {"no_such_key": 1},
]
KEYS = [
    "device_num",
    "global_rank",
    "parallel_mode",
    "parameter_broadcast",
    "gradients_mean",
    "full_batch",
    "pipeline_stages",
]
out["auto_parallel"] = []
for case in SET_CASES:
    context.reset_auto_parallel_context()
    result = outcome(lambda: context.set_auto_parallel_context(**case))
    values = {k: context.get_auto_parallel_context(k) for k in KEYS}
    out["auto_parallel"].append([case, result[0], values])
context.reset_auto_parallel_context()
out["auto_parallel_defaults"] = {k: context.get_auto_parallel_context(k) for k in KEYS}

# nn.Pad on 2-D and 4-D inputs
x2 = np.arange(6, dtype=np.float32).reshape(2, 3)
x4 = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)
out["pad"] = []
for paddings, mode, x in [
    (((1, 1), (2, 2)), "CONSTANT", x2),
    (((1, 1), (2, 2)), "REFLECT", x2),
    (((1, 1), (2, 2)), "SYMMETRIC", x2),
    (((0, 0), (0, 0), (1, 2), (2, 1)), "REFLECT", x4),
    (((0, 0), (1, 0), (0, 1), (2, 2)), "SYMMETRIC", x4),
]:
    y = nn.Pad(paddings, mode)(Tensor(x)).asnumpy()
    out["pad"].append([paddings, mode, list(x.shape), y.tolist()])

# clip_by_global_norm, HyperMap, Map, MultitypeFuncGraph, tuple_to_array
grads = (Tensor(np.array([3.0, 4.0], np.float32)), Tensor(np.array([[12.0]], np.float32)))
out["clip_by_global_norm"] = {
    str(c): [g.asnumpy().tolist() for g in ops.clip_by_global_norm(grads, c)]
    for c in (1.0, 5.0, 100.0)
}
hm = ops.HyperMap()
r = hm(
    ops.mul, (Tensor(2.0), [Tensor(3.0), Tensor(4.0)]), (Tensor(5.0), [Tensor(6.0), Tensor(7.0)])
)
out["hypermap"] = [float(r[0].asnumpy()), [float(v.asnumpy()) for v in r[1]], type(r[1]).__name__]
add = ops.MultitypeFuncGraph("add")


@add.register("Number", "Number")
def _nn(a, b):
    return a + b


@add.register("Tensor", "Tensor")
def _tt(a, b):
    return ops.add(a, b) * 10


out["multitype"] = [
    add(1, 2),
    add(Tensor(1.0), Tensor(2.0)).asnumpy().tolist(),
    outcome(lambda: add("a", 1))[0],
]
out["tuple_to_array"] = [
    [str(ops.tuple_to_array(t).dtype), ops.tuple_to_array(t).asnumpy().tolist()]
    for t in [(1, 2, 3), (1.0, 2.5)]
]

# initializer fan helpers
out["fans"] = [
    [
        s,
        list(init._calculate_fan_in_and_fan_out(s)),
        init._calculate_correct_fan(s, "fan_in"),
        init._calculate_correct_fan(s, "fan_out"),
    ]
    for s in [(4, 3), (8, 4, 3, 3), (2, 3, 4)]
]
out["fans_error"] = outcome(lambda: init._calculate_fan_in_and_fan_out((5,)))

# Conv2d.conv2d honours stride/padding/dilation/group; Dense.matmul is x @ w.T
ms.set_seed(1)
conv = nn.Conv2d(4, 6, 3, stride=2, pad_mode="pad", padding=1, dilation=1, group=2, has_bias=False)
xc = np.random.default_rng(0).standard_normal((1, 4, 7, 7)).astype(np.float32)
w = np.random.default_rng(1).standard_normal((6, 2, 3, 3)).astype(np.float32)
out["conv2d_attr"] = {
    "x": xc.tolist(),
    "w": w.tolist(),
    "y": conv.conv2d(Tensor(xc), Tensor(w)).asnumpy().tolist(),
}

# Generator: state layout, _step, set_state round trip
g = ms.Generator()
g.manual_seed(5)
step = [int(v.asnumpy()) for v in g._step(Tensor(3))]
g2 = ms.Generator()
g2.set_state(g.get_state())
out["generator"] = {
    "step": step,
    "state": g.get_state().asnumpy().tolist(),
    "restored_seed": g2.initial_seed(),
    "bad_seed": outcome(lambda: g.manual_seed(1.5)),
}

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "surface.json"), "w") as f:
    json.dump(out, f)
print("recorded", list(out))
