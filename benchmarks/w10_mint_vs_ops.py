"""W10 mint-vs-ops: a ``cellax.mint`` call costs what the ``cellax.ops``/``nn`` call it maps to costs.

Pairs, each row compared with its ops row (target: at most 1.05x):

* eager ``mint.add(x, y)`` vs ``ops.add(x, y)`` on float32[3] (pure dispatch cost);
* eager ``mint.sum(m, dim=1)`` vs ``ops.sum(m, 1)`` and ``mint.matmul`` vs ``ops.matmul`` on
  float32[64, 64];
* eager ``mint.nn.Linear(64, 64)`` vs ``nn.Dense(64, 64)`` forward on float32[32, 64];
* one jitted train step (value_and_grad + SGD) of a 3-layer MLP built from ``mint.nn.Linear``
  + ``mint.nn.functional.relu`` + ``mint.optim.SGD`` vs ``nn.Dense`` + ``ops.relu`` +
  ``nn.SGD`` with the same weights (their first losses are checked equal).
"""

from __future__ import annotations

import numpy as np

from benchmarks._harness import Settings, main, measure, result

WORKLOAD = "W10"
TITLE = "mint-vs-ops: mint adapters vs the ops/nn calls they map to"
SIZES = (64, 128, 128, 10)


def _mlp_pair():
    """The same MLP as mint and as ops/nn Cells, with copied weights, and their train steps."""
    import cellax as ms
    from cellax import mint, nn, ops

    class MintMLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList([mint.nn.Linear(a, b) for a, b in zip(SIZES[:-1], SIZES[1:])])

        def construct(self, x):
            for i, layer in enumerate(self.layers):
                x = layer(x)
                if i < len(self.layers) - 1:
                    x = mint.nn.functional.relu(x)
            return x

    class OpsMLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList([nn.Dense(a, b) for a, b in zip(SIZES[:-1], SIZES[1:])])

        def construct(self, x):
            for i, layer in enumerate(self.layers):
                x = layer(x)
                if i < len(self.layers) - 1:
                    x = ops.relu(x)
            return x

    mint_net, ops_net = MintMLP(), OpsMLP()
    for mp, op in zip(mint_net.trainable_params(), ops_net.trainable_params()):
        op.set_data(ms.Tensor(mp.asnumpy()))
    steps = {}
    for name, net, optimizer, loss_fn in (
        ("ops", ops_net, nn.SGD(ops_net.trainable_params(), 0.01), nn.CrossEntropyLoss()),
        ("mint", mint_net, mint.optim.SGD(mint_net.trainable_params(), lr=0.01),
         mint.nn.CrossEntropyLoss()),
    ):  # fmt: skip
        grad_fn = ms.value_and_grad(
            lambda x, y, net=net, loss_fn=loss_fn: loss_fn(net(x), y), None, optimizer.parameters
        )

        def step(x, y, grad_fn=grad_fn, optimizer=optimizer):
            loss, grads = grad_fn(x, y)
            optimizer(grads)
            return loss

        steps[name] = ms.jit(step)
    return steps


def run(level: str = "full") -> dict:
    import cellax as ms
    from cellax import mint, nn, ops

    settings = Settings.for_level(level, full=(40, 20, 20), quick=(8, 10, 5))
    rng = np.random.default_rng(0)
    x3 = ms.Tensor([1.0, 2.0, 3.0], ms.float32)
    y3 = ms.Tensor([4.0, 5.0, 6.0], ms.float32)
    m = ms.Tensor(rng.standard_normal((64, 64)).astype(np.float32))
    n = ms.Tensor(rng.standard_normal((64, 64)).astype(np.float32))
    batch = ms.Tensor(rng.standard_normal((32, 64)).astype(np.float32))
    linear = mint.nn.Linear(64, 64)
    dense = nn.Dense(64, 64)
    dense.weight.set_data(ms.Tensor(linear.weight.asnumpy()))
    dense.bias.set_data(ms.Tensor(linear.bias.asnumpy()))
    labels = ms.Tensor(rng.integers(0, SIZES[-1], 32).astype(np.int32))
    train = _mlp_pair()

    pairs = {
        "add f32[3]": (lambda: ops.add(x3, y3), lambda: mint.add(x3, y3)),
        "sum f32[64,64] dim 1": (lambda: ops.sum(m, 1), lambda: mint.sum(m, dim=1)),
        "matmul f32[64,64]": (lambda: ops.matmul(m, n), lambda: mint.matmul(m, n)),
        "Linear(64,64) f32[32,64]": (lambda: dense(batch), lambda: linear(batch)),
        "jit MLP train step": (lambda: train["ops"](batch, labels),
                               lambda: train["mint"](batch, labels)),
    }  # fmt: skip
    for label, (ops_call, mint_call) in pairs.items():
        want, got = ops_call().asnumpy(), mint_call().asnumpy()
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=label)
    steps = {}
    for label, (ops_call, mint_call) in pairs.items():
        steps[f"cellax.ops {label}"] = lambda f=ops_call: f().jax.block_until_ready()
        steps[f"cellax.mint {label}"] = lambda f=mint_call: f().jax.block_until_ready()
    rows = measure(steps, settings)
    for label in pairs:
        rows[f"cellax.ops {label}"]["vs"] = f"cellax.ops {label}"
        rows[f"cellax.mint {label}"]["vs"] = f"cellax.ops {label}"
    target = {f"cellax.mint {label}": 1.05 for label in pairs}
    return result(WORKLOAD, TITLE, "us/call", rows, baseline="cellax.ops add f32[3]", target=target)


if __name__ == "__main__":
    main(run)
