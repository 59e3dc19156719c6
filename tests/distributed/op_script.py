"""Operator parallel (MindSpore's distributed_operator_parallel sample, smaller); prints JSON.

argv[1]: "semi_auto_parallel" (the context, then an AutoParallel wrapper) or "stand_alone". The device count comes from XLA_FLAGS.
"""

import json
import re
import sys

import numpy as np
from _spec import spec

import cellax as ms
from cellax import nn, ops
from cellax.common.initializer import Normal, initializer
from cellax.parallel.auto_parallel import AutoParallel

how = sys.argv[1]
ms.set_context(mode=ms.GRAPH_MODE)
if how == "semi_auto_parallel":
    ms.set_auto_parallel_context(parallel_mode=how)
ms.communication.init()
ms.set_seed(1)


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = ops.Flatten()
        self.fc1_weight = ms.Parameter(initializer(Normal(0.3), [64, 32], ms.float32))
        self.fc2_weight = ms.Parameter(initializer(Normal(0.3), [32, 32], ms.float32))
        self.fc3_weight = ms.Parameter(initializer(Normal(0.3), [32, 10], ms.float32))
        self.matmul1 = ops.MatMul().shard(((2, 4), (4, 1)))
        self.relu1 = ops.ReLU().shard(((4, 1),))
        self.matmul2 = ops.MatMul().shard(((1, 8), (8, 1)))
        self.relu2 = ops.ReLU().shard(((8, 1),))
        self.matmul3 = ops.MatMul()

    def construct(self, x):
        x = self.flatten(x)
        x = self.relu1(self.matmul1(x, self.fc1_weight))
        x = self.relu2(self.matmul2(x, self.fc2_weight))
        return self.matmul3(x, self.fc3_weight)


net = Network()
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.SGD(net.trainable_params(), 1e-2)


def forward_fn(data, target):
    return loss_fn(net(data), target)


grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())


def train_step(inputs, targets):
    loss, grads = grad_fn(inputs, targets)
    optimizer(grads)
    return loss


step = ms.jit(train_step)
rng = np.random.default_rng(0)
xs = rng.standard_normal((5, 32, 8, 8)).astype(np.float32)
ys = rng.integers(0, 10, (5, 32)).astype(np.int32)
losses = [float(step(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for x, y in zip(xs, ys)]
result = {"losses": losses, "devices": len(__import__("jax").devices())}

if how == "semi_auto_parallel":
    lowered = step.lower(ms.Tensor(xs[0]), ms.Tensor(ys[0]))
    result["constraints"] = lowered.as_text().count("sharding_constraint")
    hlo = lowered.compile().as_text()
    groups = re.findall(r"all-reduce\(.*?replica_groups=(.*?), (?:use_global|to_apply)", hlo)
    result["groups"] = sorted(set(groups))
    # the strategy checks
    errors = {}
    x = ms.Tensor(np.ones((16, 64), np.float32))
    w = ms.Tensor(np.ones((64, 30), np.float32))
    cases = {
        "divide": (((2, 1), (1, 4)), (x, w)),
        "k": (((2, 4), (2, 1)), (x, ms.Tensor(np.ones((64, 8), np.float32)))),
        "count": (((3, 1), (1, 1)), (ms.Tensor(np.ones((6, 64), np.float32)), w)),
        "rank": (((2,), (1, 1)), (x, w)),
    }
    for name, (strategy, args) in cases.items():
        try:
            ops.MatMul().shard(strategy)(*args)
        except ValueError as error:
            errors[name] = str(error)
    result["errors"] = errors

    # column -> row parallel MLP with Cell.shard / parameter_plan on a (2, 4) view
    ms.set_seed(2)

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(16, 32)
            self.fc2 = nn.Dense(32, 8)
            self.relu = nn.ReLU()

        def construct(self, x):
            return self.fc2(self.relu(self.fc1(x)))

    mlp = MLP()
    mlp.fc1.shard(((2, 1),), parameter_plan={"self.weight": (4, 1), "bias": (4,)})
    assert mlp.fc2.shard(((2, 4),), parameter_plan={"weight": (1, 4)}) is None
    step2 = nn.TrainOneStepCell(
        nn.WithLossCell(mlp, nn.MSELoss()), nn.SGD(mlp.trainable_params(), 0.1)
    )
    step2 = ms.jit(step2)
    xm = rng.standard_normal((10, 16, 16)).astype(np.float32)
    ym = rng.standard_normal((10, 16, 8)).astype(np.float32)
    result["mlp_losses"] = [float(step2(ms.Tensor(xm[0]), ms.Tensor(ym[0])).asnumpy())]
    first_count = step2.trace_count
    result["mlp_losses"] += [
        float(step2(ms.Tensor(a), ms.Tensor(b)).asnumpy()) for a, b in zip(xm[1:], ym[1:])
    ]
    result["retraced"] = step2.trace_count - first_count
    w1 = mlp.fc1.weight._data
    result["mlp_w1"] = [spec(w1), list(w1.addressable_shards[0].data.shape)]
    w2 = mlp.fc2.weight._data
    result["mlp_w2"] = [spec(w2), list(w2.addressable_shards[0].data.shape)]
    # sharded checkpoints: saved from a (2, 4) layout, loaded into an (8,) layout
    import os
    import tempfile

    folder = tempfile.mkdtemp()

    def make(plan0, plan1):
        cell = nn.SequentialCell([nn.Dense(16, 32), nn.Dense(32, 8)])
        cell[0].shard(((1, 1),), parameter_plan=plan0)
        cell[1].shard(((1, 1),), parameter_plan=plan1)
        return cell

    ms.set_seed(3)
    src = make({"weight": (2, 4), "bias": (2,)}, {"weight": (1, 2)})
    full = {p.name: np.asarray(p._data) for p in src.get_parameters()}
    ms.save_checkpoint(src, os.path.join(folder, "full.ckpt"))
    back = ms.load_checkpoint(os.path.join(folder, "full.ckpt"))
    result["integrated_equal"] = all(np.array_equal(back[k].asnumpy(), v) for k, v in full.items())
    ms.save_checkpoint(src, os.path.join(folder, "slices.ckpt"), integrated_save=False)
    ms.save_checkpoint(src, os.path.join(folder, "full.safetensors"), format="safetensors")
    result["slice_keys"] = sorted(
        k for k in ms.load_checkpoint(os.path.join(folder, "slices.ckpt")) if "@" in k
    )

    def check(files, fmt):
        ms.set_seed(4)
        dst = make({"weight": (1, 8), "bias": (8,)}, {"weight": (8, 1)})
        before = {p.name: p._data.sharding for p in dst.get_parameters()}
        missing = ms.load_distributed_checkpoint(
            dst, [os.path.join(folder, f) for f in files], format=fmt
        )
        ok = missing == []
        for p in dst.get_parameters():
            ok &= p._data.sharding == before[p.name]
            for shard in p._data.addressable_shards:
                ok &= np.array_equal(np.asarray(shard.data), full[p.name][shard.index])
        return bool(ok)

    result["sliced_into_8"] = check(["slices.ckpt"], "ckpt")
    result["full_st_into_8"] = check(["full.safetensors"], "safetensors")
    # parallel.shard of a function, and Cell.set_data_parallel with full batches fed
    twice = ms.jit(ms.shard(lambda v: v * 2, in_strategy=((1, 8),), out_strategy=((1, 8),)))
    result["shard_fn"] = spec(twice(ms.Tensor(np.ones((4, 16), np.float32)))._value)
    # Layouts: MatMul with (dp, mp) x (mp, None) layouts (k split over mp) and reshard
    from cellax.parallel import Layout, reshard

    layout = Layout((2, 4), ("dp", "mp"))
    lay_mm = ops.MatMul().shard(in_strategy=(layout("dp", "mp"), layout("mp", "None")))
    lx = rng.standard_normal((16, 64)).astype(np.float32)
    lw = rng.standard_normal((64, 8)).astype(np.float32)
    lay_fn = ms.jit(lambda a, b: reshard(lay_mm(a, b), layout("None", ("dp", "mp"))))
    lay_out = lay_fn(ms.Tensor(lx), ms.Tensor(lw))
    lay_hlo = lay_fn.lower(ms.Tensor(lx), ms.Tensor(lw)).compile().as_text()
    result["layout"] = {
        "error": float(np.abs(lay_out.asnumpy() - lx @ lw).max()),
        "spec": spec(lay_out._value),
        "groups": sorted(
            set(
                re.findall(r"all-reduce\(.*?replica_groups=(.*?), (?:use_global|to_apply)", lay_hlo)
            )
        ),
    }
    # Cell.shard and parallel.shard with Layouts (inputs, a parameter_plan, outputs)
    lay_net = nn.Dense(16, 8)
    lay_net.shard(
        in_strategy=(layout("dp", "None"),), parameter_plan={"weight": layout("mp", "None")}
    )
    lay_in = rng.standard_normal((8, 16)).astype(np.float32)
    lay_ref = lay_in @ lay_net.weight.asnumpy().T + lay_net.bias.asnumpy()
    lay_net_out = ms.jit(lambda a: lay_net(a))(ms.Tensor(lay_in))
    lay_fn = ms.shard(
        lambda a: a * 2, in_strategy=(layout("dp", "mp"),), out_strategy=(layout("dp", "mp"),)
    )
    result["layout"]["cell"] = [
        float(np.abs(lay_net_out.asnumpy() - lay_ref).max()),
        spec(lay_net.weight._data),
        list(lay_net.weight._data.addressable_shards[0].data.shape),
        spec(ms.jit(lay_fn)(ms.Tensor(lay_in))._value),
    ]
    try:
        Layout((2, 4), ("dp", "mp"))("dp", "mp").sharding("MatMul", (15, 64))
    except ValueError as error:
        result["layout"]["divide"] = str(error)

    # more of the strategy table: transpose_b, BatchMatMul, OneHot's output-shaped strategy with
    # scalars (), Gather's independent params/indices splits (an embedding); outputs returned
    def run(prim, *args):
        fn = ms.jit(lambda *xs: prim(*xs))
        out = fn(*args)
        text = fn.lower(*args).compile().as_text() if prim.name != "Gather" else ""
        groups = re.findall(r"all-reduce\(.*?replica_groups=(.*?), (?:use_global|to_apply)", text)
        return (
            out.asnumpy(),
            [list(s.data.shape) for s in out._value.addressable_shards][:1],
            groups,
        )

    ta = rng.standard_normal((16, 32)).astype(np.float32)
    tb = rng.standard_normal((24, 32)).astype(np.float32)
    bx = rng.standard_normal((4, 8, 16)).astype(np.float32)
    by = rng.standard_normal((4, 16, 8)).astype(np.float32)
    ids = rng.integers(0, 8, (16,)).astype(np.int32)
    table = rng.standard_normal((16, 8)).astype(np.float32)
    rows = rng.integers(0, 16, (4, 8)).astype(np.int32)
    one, zero = ms.Tensor(1.0), ms.Tensor(0.0)
    cases = {
        "transpose_b": (
            run(ops.MatMul(transpose_b=True).shard(((2, 4), (1, 4))), ms.Tensor(ta), ms.Tensor(tb)),
            ta @ tb.T,
        ),
        "batch_matmul": (
            run(ops.BatchMatMul().shard(((2, 1, 4), (2, 4, 1))), ms.Tensor(bx), ms.Tensor(by)),
            bx @ by,
        ),
        "one_hot": (
            run(ops.OneHot().shard(((2, 4), (), ())), ms.Tensor(ids), 8, one, zero),
            np.eye(8, dtype=np.float32)[ids],
        ),
        "gather": (
            run(ops.Gather().shard(((1, 1), (2, 1))), ms.Tensor(table), ms.Tensor(rows), 0),
            table[rows],
        ),
        "gather_mp": (
            run(ops.Gather().shard(((8, 1), (1, 1))), ms.Tensor(table), ms.Tensor(rows), 0),
            table[rows],
        ),
    }
    result["table"] = {
        name: [float(np.abs(out - ref).max()), shard, groups]
        for name, ((out, shard, groups), ref) in cases.items()
    }
    for name, prim, args in (
        ("one_hot_rank", ops.OneHot().shard(((2,), (), ())), (ms.Tensor(ids), 8, one, zero)),
        ("one_hot_depth", ops.OneHot().shard(((2, 3), (), ())), (ms.Tensor(ids), 8, one, zero)),
        ("add", ops.Add().shard(((2, 1), (4, 1))), (ms.Tensor(ta), ms.Tensor(ta))),
    ):
        try:
            ms.jit(lambda *xs: prim(*xs))(*args)
        except ValueError as error:
            result["errors"][name] = str(error)
    ms.set_auto_parallel_context(full_batch=True)
    dp_cell = nn.Dense(16, 8)
    dp_cell.set_data_parallel()
    out = ms.jit(lambda v: dp_cell(v))(ms.Tensor(np.ones((16, 16), np.float32)))
    result["set_dp"] = spec(out._value)
    ms.set_auto_parallel_context(full_batch=False)

    # the same network through AutoParallel(train_step, "semi_auto"), context reset
    ms.reset_auto_parallel_context()
    ms.set_seed(1)
    net = Network()
    optimizer = nn.SGD(net.trainable_params(), 1e-2)
    grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())
    auto_step = AutoParallel(train_step, parallel_mode="semi_auto")
    auto_step.dataset_strategy(((2, 1, 1), (2,)))
    result["auto_losses"] = [
        float(auto_step(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for x, y in zip(xs, ys)
    ]
if how == "stand_alone":
    ms.set_seed(2)
    mlp = nn.SequentialCell([nn.Dense(16, 32), nn.ReLU(), nn.Dense(32, 8)])
    step2 = ms.jit(
        nn.TrainOneStepCell(nn.WithLossCell(mlp, nn.MSELoss()), nn.SGD(mlp.trainable_params(), 0.1))
    )
    xm = rng.standard_normal((10, 16, 16)).astype(np.float32)
    ym = rng.standard_normal((10, 16, 8)).astype(np.float32)
    result["mlp_losses"] = [
        float(step2(ms.Tensor(a), ms.Tensor(b)).asnumpy()) for a, b in zip(xm, ym)
    ]
print("RESULT" + json.dumps(result))
