"""Record MindSpore 2.10's two-rank DATA_PARALLEL training (CPU, msrun) for test_distributed.

Run (writes tests/goldens/dp_msrun.json; MindSpore's python, no PYTHONPATH):
    /root/ms-ref/bin/msrun --worker_num=2 --local_worker_num=2 --master_port=PORT \
        --log_dir=/tmp/msrun_logs --join=True tests/goldens/record_dp_msrun.py
    /root/ms-ref/bin/python tests/goldens/record_dp_msrun.py --merge
Each rank trains a bias-free Dense(8, 4) with MSE and SGD(0.5) on its half of a global batch
of 16 for 4 steps, with nn.DistributedGradReducer (gradients_mean=True).
"""

import json
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
PARTS = pathlib.Path("/tmp/dp_msrun_parts")


def data():
    rng = np.random.default_rng(0)
    w0 = (rng.standard_normal((4, 8)) * 0.3).astype(np.float32)
    xs = rng.standard_normal((4, 16, 8)).astype(np.float32)
    ys = rng.standard_normal((4, 16, 4)).astype(np.float32)
    return w0, xs, ys


def main():
    import mindspore as ms
    from mindspore import nn
    from mindspore.communication import get_group_size, get_rank, init

    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    init()
    rank, size = get_rank(), get_group_size()
    w0, xs, ys = data()
    net = nn.Dense(8, 4, weight_init=ms.Tensor(w0), has_bias=False)
    loss_fn = nn.MSELoss()
    opt = nn.SGD(net.trainable_params(), 0.5)
    reducer = nn.DistributedGradReducer(opt.parameters)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
    per = 16 // size
    losses = []
    for x, y in zip(xs, ys):
        part = slice(rank * per, (rank + 1) * per)
        loss, grads = grad_fn(ms.Tensor(x[part]), ms.Tensor(y[part]))
        opt(reducer(grads))
        losses.append(float(loss.asnumpy()))
    PARTS.mkdir(exist_ok=True)
    result = {"losses": losses, "weight": net.weight.asnumpy().tolist()}
    (PARTS / f"rank{rank}.json").write_text(json.dumps(result))


def merge():
    ranks = [json.loads((PARTS / f"rank{r}.json").read_text()) for r in (0, 1)]
    golden = {"rank_losses": [r["losses"] for r in ranks], "weight": ranks[0]["weight"]}
    assert ranks[0]["weight"] == ranks[1]["weight"]
    (HERE / "dp_msrun.json").write_text(json.dumps(golden, indent=1) + "\n")


if __name__ == "__main__":
    merge() if "--merge" in sys.argv else main()
