"""Data-parallel training, MindSpore's tutorial pattern; prints JSON (run by test_distributed).

argv[1]: "stand_alone" or "data_parallel". The device count comes from XLA_FLAGS.
"""

import json
import sys

import numpy as np
from _spec import spec

import cellax as ms
from cellax import nn, ops
from cellax.communication import get_group_size, get_rank, init

mode = sys.argv[1]
light = "light" in sys.argv[2:]  # the 2-process launcher test: sections 1 and 4 only
# ckpt=DIR (launcher test): section 5, sharded checkpoints written by every rank into DIR
ckpt_dir = next((a[5:] for a in sys.argv[2:] if a.startswith("ckpt=")), None)
ms.set_context(mode=ms.GRAPH_MODE)
ms.set_auto_parallel_context(parallel_mode=mode, gradients_mean=True)
init()
ms.set_seed(1)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(32, 64)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(64, 10)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


rng = np.random.default_rng(0)
xs = rng.standard_normal((20, 64, 32)).astype(np.float32)
ys = rng.integers(0, 10, (20, 64)).astype(np.int32)
# each rank reads its own slice of every global batch (num_shards/shard_id in MindSpore)
per = 64 // get_group_size()
xs = xs[:, get_rank() * per : (get_rank() + 1) * per]
ys = ys[:, get_rank() * per : (get_rank() + 1) * per]

# 1. functional loop with DistributedGradReducer (distributed_data_parallel.py)
net = Net()
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.SGD(net.trainable_params(), 0.1)
grad_reducer = nn.DistributedGradReducer(optimizer.parameters)


def forward_fn(data, label):
    logits = net(data)
    return loss_fn(logits, label), logits


grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params(), has_aux=True)


@ms.jit
def train_step(inputs, labels):
    (loss, _), grads = grad_fn(inputs, labels)
    grads = grad_reducer(grads)
    optimizer(grads)
    return loss


losses = [float(train_step(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for x, y in zip(xs, ys)]
weights = {p.name: p.asnumpy().tolist() for p in net.trainable_params()}
losses2 = weights2 = losses3 = moments = losses4 = level3 = None
hlo = hlo3 = ""
shardings = {}
step = None
if not light:
    hlo = train_step.lower(ms.Tensor(xs[0]), ms.Tensor(ys[0])).compile().as_text()
    shardings = {p.name: spec(p._data) for p in net.trainable_params()}

    # 2. Model.train / TrainOneStepCell (implicit reducer)
    ms.set_seed(1)
    net2 = Net()
    model = ms.train.Model(net2, nn.CrossEntropyLoss(), nn.SGD(net2.trainable_params(), 0.1))
    step = nn.TrainOneStepCell(nn.WithLossCell(net2, nn.CrossEntropyLoss()), model._optimizer)
    step_jit = ms.jit(step)
    losses2 = [float(step_jit(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for x, y in zip(xs, ys)]
    weights2 = {p.name: p.asnumpy().tolist() for p in net2.trainable_params()}

    # 3. optimizer-state sharding (enable_parallel_optimizer, threshold 0 KB): Momentum
    ms.set_auto_parallel_context(
        enable_parallel_optimizer=True,
        parallel_optimizer_config={"parallel_optimizer_threshold": 0},
    )
    ms.set_seed(1)
    net3 = Net()
    opt3 = nn.Momentum(net3.trainable_params(), 0.1, 0.9)
    step3 = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net3, nn.CrossEntropyLoss()), opt3))
    losses3 = [float(step3(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for x, y in zip(xs, ys)]
    moments = {p.name: list(p._data.addressable_shards[0].data.shape) for p in opt3.moments}
    hlo3 = step3.lower(ms.Tensor(xs[0]), ms.Tensor(ys[0])).compile().as_text()

    # 3b. level3 (weights too) with Adam, parallel_optimizer=False on fc1.bias
    ms.set_auto_parallel_context(
        parallel_optimizer_config={"parallel_optimizer_threshold": 0, "optimizer_level": "level3"}
    )
    ms.set_seed(1)
    net4 = Net()
    net4.fc1.bias.parallel_optimizer = False
    opt4 = nn.Adam(net4.trainable_params(), 1e-3)
    step4 = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net4, nn.CrossEntropyLoss()), opt4))
    losses4 = [float(step4(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for x, y in zip(xs[:5], ys[:5])]
    level3 = {
        p.name: list(p._data.addressable_shards[0].data.shape)
        for p in list(net4.trainable_params()) + list(opt4.moment1)
    }
    ms.set_auto_parallel_context(enable_parallel_optimizer=False)

# 4. MindSpore's two-rank msrun run of tests/goldens/record_dp_msrun.py, same data
grng = np.random.default_rng(0)
w0 = (grng.standard_normal((4, 8)) * 0.3).astype(np.float32)
gxs = grng.standard_normal((4, 16, 8)).astype(np.float32)
gys = grng.standard_normal((4, 16, 4)).astype(np.float32)
gnet = nn.Dense(8, 4, weight_init=ms.Tensor(w0), has_bias=False)
gloss = nn.MSELoss()
gopt = nn.SGD(gnet.trainable_params(), 0.5)
greducer = nn.DistributedGradReducer(gopt.parameters)
ggrad = ms.value_and_grad(lambda x, y: gloss(gnet(x), y), None, gopt.parameters)


@ms.jit
def golden_step(x, y):
    loss, grads = ggrad(x, y)
    gopt(greducer(grads))
    return loss


gper = 16 // get_group_size()
gpart = slice(get_rank() * gper, (get_rank() + 1) * gper)
golden_losses = [
    float(golden_step(ms.Tensor(x[gpart]), ms.Tensor(y[gpart])).asnumpy()) for x, y in zip(gxs, gys)
]
golden_weight = gnet.weight.asnumpy().tolist()

# 4b. mean=False sums over ranks: one step moves the weights size x as far as mean=True
snet = nn.Dense(8, 4, weight_init=ms.Tensor(w0), has_bias=False)
sopt = nn.SGD(snet.trainable_params(), 0.5)
sreducer = nn.DistributedGradReducer(sopt.parameters, mean=False)
sgrad = ms.value_and_grad(lambda x, y: gloss(snet(x), y), None, sopt.parameters)
ms.jit(lambda x, y: sopt(sreducer(sgrad(x, y)[1])))(
    ms.Tensor(gxs[0][gpart]), ms.Tensor(gys[0][gpart])
)
sum_delta = (snet.weight.asnumpy() - w0).tolist()

# eager collectives across processes (mindcv's AllReduceSum()(Tensor(count)))
rank_sum = float(ops.AllReduce()(ms.Tensor(float(get_rank()))).asnumpy())
ranks = ops.AllGather()(ms.Tensor([get_rank()])).asnumpy().tolist()
ops.Barrier()()
# mint.distributed's torch-style collectives, in place, across processes
from cellax.ops import communication as dist  # noqa: E402

me = float(get_rank() + 1)
t_sum = ms.Tensor([me, 10 * me])
dist.all_reduce(t_sum)
t_list = [ms.Tensor([0.0]) for _ in range(get_group_size())]
dist.all_gather(t_list, ms.Tensor([me]))
t_cat = ms.Tensor(np.zeros(2 * get_group_size(), np.float32))
dist.all_gather_into_tensor(t_cat, ms.Tensor([me, me]))
t_scatter = ms.Tensor([0.0])
dist.reduce_scatter_tensor(t_scatter, ms.Tensor(np.arange(get_group_size(), dtype=np.float32) * me))
t_bcast = ms.Tensor([me])
dist.broadcast(t_bcast, src=1 if get_group_size() > 1 else 0)
t_reduce = ms.Tensor([me])
dist.reduce(t_reduce, dst=0, op="sum", async_op=True).wait()
t_gather = [ms.Tensor([0.0]) for _ in range(get_group_size())]
dist.gather(ms.Tensor([me]), t_gather, dst=1 % get_group_size())
t_scat = ms.Tensor([0.0])
dist.scatter(t_scat, [ms.Tensor([10.0 * (r + 1)]) for r in range(get_group_size())], src=0)
two = get_group_size() == 2
t_a2a = ms.Tensor(np.zeros(3, np.float32))
dist.all_to_all_single(
    t_a2a,
    ms.Tensor(np.arange(3, dtype=np.float32) + 10 * get_rank()),
    input_split_sizes=([1, 2] if get_rank() == 0 else [2, 1]) if two else None,
)
t_a2a_list = [ms.Tensor([0.0]) for _ in range(get_group_size())]
dist.all_to_all(t_a2a_list, [ms.Tensor([10.0 * get_rank() + j]) for j in range(get_group_size())])
dist.barrier()
mint_dist = {
    "all_to_all_single": t_a2a.asnumpy().tolist(),
    "all_to_all": [t.asnumpy().tolist() for t in t_a2a_list],
    "gather": [t.asnumpy().tolist() for t in t_gather],
    "scatter": t_scat.asnumpy().tolist(),
    "all_reduce": t_sum.asnumpy().tolist(),
    "all_gather": [t.asnumpy().tolist() for t in t_list],
    "into_tensor": t_cat.asnumpy().tolist(),
    "reduce_scatter": t_scatter.asnumpy().tolist(),
    "broadcast": t_bcast.asnumpy().tolist(),
    "reduce": t_reduce.asnumpy().tolist(),
    "world": [dist.get_rank(), dist.get_world_size(), dist.is_initialized()],
}
# a compiled function of the batch: each rank gets its own part back (the whole batch in
# one process)
doubled = ms.jit(lambda x: x * 2)(ms.Tensor(xs[0])).asnumpy()
gathered = [list(doubled.shape), float(doubled.sum())]
# BatchNorm in train mode, compiled: per rank it normalises with its own batch's statistics;
# the running mean kept is rank 0's (one rank: the whole batch's)
bn = nn.BatchNorm1d(32)
bn.set_train()
ms.jit(lambda x: bn(x))(ms.Tensor(xs[0]))
bn_mean = bn.moving_mean.asnumpy().tolist()
# AllReduce inside a compiled step sums the ranks' own values (one rank: its own)
jit_all_reduce = float(ms.jit(lambda x: ops.AllReduce()(x.sum()))(ms.Tensor(xs[0])).asnumpy())

# 5. sharded checkpoints across processes: a weight split over the ranks, saved whole and as
# per-rank slices, loaded into another split
checkpoints = None
if ckpt_dir:
    import os

    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
    ms.set_seed(5)
    expected = {p.name: p.asnumpy() for p in nn.Dense(16, 8).get_parameters()}  # unsharded
    ms.set_seed(5)

    def make(plan):
        cell = nn.Dense(16, 8)
        cell.shard(((1, 1),), parameter_plan=plan)
        return cell

    src = make({"weight": (2, 1), "bias": (2,)})
    full = {p.name: p.asnumpy() for p in src.get_parameters()}  # gathered from both ranks
    rank = get_rank()
    ms.save_checkpoint(src, os.path.join(ckpt_dir, f"full_{rank}.ckpt"))
    rank_files = [os.path.join(ckpt_dir, f"rank_{r}", "net.ckpt") for r in range(get_group_size())]
    os.makedirs(os.path.dirname(rank_files[rank]), exist_ok=True)
    ms.save_checkpoint(src, rank_files[rank], integrated_save=False)
    ops.Barrier()()  # every rank's file is written
    whole = ms.load_checkpoint(os.path.join(ckpt_dir, f"full_{rank}.ckpt"))
    own = ms.load_checkpoint(rank_files[rank])
    dst = make({"weight": (1, 2), "bias": (1,)})
    missing = ms.load_distributed_checkpoint(dst, rank_files)
    # the rank folders merged offline into one full checkpoint (each rank its own copy)
    from cellax.parallel import parameter_broadcast, transform_checkpoints

    merged_dir = os.path.join(ckpt_dir, f"merged_{rank}")
    transform_checkpoints(ckpt_dir, merged_dir, "net")
    merged = ms.load_checkpoint(os.path.join(merged_dir, "rank_0", "net0.ckpt"))
    # parameter_broadcast: every rank starts from its own random values, then takes rank 0's
    ms.set_seed(rank)
    mine = nn.Dense(16, 8)
    parameter_broadcast(mine, {"weight": None}, cur_rank=rank)
    ms.set_seed(0)
    rank0 = nn.Dense(16, 8)
    loaded = missing == []
    for p in dst.get_parameters():
        for shard in p._data.addressable_shards:
            loaded &= np.array_equal(np.asarray(shard.data), full[p.name][shard.index])
    checkpoints = {
        "gathered": all(np.array_equal(full[k], v) for k, v in expected.items()),
        "weight_spec": spec(src.weight._data),
        "integrated": all(np.array_equal(whole[k].asnumpy(), v) for k, v in full.items()),
        "own_slices": sorted(k for k in own if "@" in k),
        "loaded": bool(loaded),
        "dst_spec": spec(dst.weight._data),
        "merged": sorted(merged) == sorted(full)
        and all(np.array_equal(merged[k].asnumpy(), v) for k, v in full.items()),
        "broadcast": bool(np.array_equal(mine.weight.asnumpy(), rank0.weight.asnumpy()))
        and (rank == 0) == bool(np.array_equal(mine.bias.asnumpy(), rank0.bias.asnumpy())),
    }

print(
    "RESULT"
    + json.dumps(
        {
            "rank": get_rank(),
            "size": get_group_size(),
            "devices": len(__import__("jax").devices()),
            "losses": losses,
            "weights": weights,
            "losses2": losses2,
            "weights2": weights2,
            "all_reduce": hlo.count("all-reduce("),
            "shardings": shardings,
            "reducer": type(step.grad_reducer).__name__ if step else None,
            "rank_sum": rank_sum,
            "golden_losses": golden_losses,
            "golden_weight": golden_weight,
            "sum_delta": sum_delta,
            "gathered": gathered,
            "jit_all_reduce": jit_all_reduce,
            "bn_mean": bn_mean,
            "losses3": losses3,
            "moments": moments,
            "losses4": losses4,
            "level3": level3,
            "all_gather3": hlo3.count("all-gather("),
            "ranks": ranks,
            "checkpoints": checkpoints,
            "mint_dist": mint_dist,
        }
    )
)
