"""mint.optim golden cases, run under MindSpore 2.10 (recording) and cellax alike.

Each case builds a two-Parameter network, a mint optimizer (plain or with parameter groups)
and a ``jit``-compiled train step (MindSpore 2.10 CPU leaves Parameters unchanged when a mint
optimizer runs eagerly, so the recording uses ``jit``), runs :data:`STEPS` steps and returns
the Parameters after every step. ``lr`` entries change a group's learning rate between steps
by assigning its ``'lr'`` Parameter, which is what MindSpore's lr schedulers do.
"""

import numpy as np

STEPS = 3

# name -> (optimizer, defaults, groups or None, {step: {group: new lr}})
CASES = {
    "sgd": ("SGD", dict(lr=0.1), None, {}),
    "sgd_momentum": ("SGD", dict(lr=0.1, momentum=0.9), None, {}),
    "sgd_nesterov_wd": (
        "SGD",
        dict(lr=0.1, momentum=0.9, weight_decay=0.05, nesterov=True),
        None,
        {},
    ),  # fmt: skip
    "sgd_dampening": ("SGD", dict(lr=0.1, momentum=0.8, dampening=0.5), None, {}),
    "sgd_maximize": ("SGD", dict(lr=0.1, momentum=0.5, maximize=True), None, {}),
    "sgd_groups": (
        "SGD",
        dict(lr=0.1, momentum=0.9),
        [{"weight_decay": 0.1}, {"lr": 0.01, "momentum": 0.5}],
        {},
    ),  # fmt: skip
    "sgd_lr_change": (
        "SGD",
        dict(lr=0.1, momentum=0.9),
        [{}, {"lr": 0.02}],
        {1: {0: 0.05}, 2: {1: 0.2}},
    ),  # fmt: skip
    "adam": ("Adam", dict(lr=0.1), None, {}),
    "adam_betas_eps": ("Adam", dict(lr=0.05, betas=(0.8, 0.99), eps=1e-3), None, {}),
    "adam_wd_amsgrad": ("Adam", dict(lr=0.1, weight_decay=0.1, amsgrad=True), None, {}),
    "adam_maximize": ("Adam", dict(lr=0.1, maximize=True), None, {}),
    "adam_groups": (
        "Adam",
        dict(lr=0.1),
        [{"betas": (0.5, 0.9)}, {"lr": 0.3, "weight_decay": 0.2}],
        {},
    ),  # fmt: skip
    "adam_lr_change": ("Adam", dict(lr=0.1), [{}, {}], {1: {0: 0.01}, 2: {1: 0.5}}),
    "adamw": ("AdamW", dict(lr=0.1, weight_decay=0.1), None, {}),
}


# name -> (optimizer, defaults, groups): the optimizer's own state, named as MindSpore names it
STATE_CASES = {
    "adam": ("Adam", dict(lr=0.1), None),
    "adam_amsgrad_group": ("Adam", dict(lr=0.1), [{}, {"amsgrad": True}]),
    "adamw": ("AdamW", dict(lr=0.1), None),
    "adamw_amsgrad": ("AdamW", dict(lr=0.1, amsgrad=True), None),
    "sgd": ("SGD", dict(lr=0.1), None),
    "sgd_momentum": ("SGD", dict(lr=0.1, momentum=0.9), [{}, {"lr": 0.2}]),
}


def _net(ms):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.array([1.0, -2.0], np.float32)), name="w")
            self.b = ms.Parameter(ms.Tensor(np.array([0.5], np.float32)), name="b")

        def construct(self, x):
            return (self.w * x).sum() ** 2 + (self.b * self.b * 3.0).sum()

    return Net()


def state(ms, mint, case):
    """The optimizer's registered Parameters (name, shape, dtype, value), its groups' keys and
    the names of the Parameters the groups hold besides ``'params'``/``'lr'``, when built."""
    name, defaults, groups = STATE_CASES[case]
    net = _net(ms)
    params = net.trainable_params()
    if groups is not None:
        params = [dict(g, params=[p]) for g, p in zip(groups, params)]
    optimizer = getattr(mint.optim, name)(params, **defaults)
    registered = [
        [n, list(p.shape), str(p.dtype), np.asarray(p.asnumpy()).ravel()[:1].tolist()]
        for n, p in optimizer.parameters_and_names()
    ]
    keys = [sorted(g) for g in optimizer.param_groups]
    held = [
        {k: [p.name for p in v] for k, v in g.items() if k not in ("params", "lr") and
         isinstance(v, (list, tuple)) and v and hasattr(v[0], "name")}
        for g in optimizer.param_groups
    ]  # fmt: skip
    return {"registered": registered, "keys": keys, "held": held}


def run(ms, mint, case):
    """Parameter values (lists) after each step of ``case`` under framework ``ms``."""
    name, defaults, groups, lr_changes = CASES[case]
    net = _net(ms)
    params = net.trainable_params()
    if groups is not None:
        params = [dict(g, params=[p]) for g, p in zip(groups, params)]
    optimizer = getattr(mint.optim, name)(params, **defaults)
    grad_fn = ms.value_and_grad(net, None, optimizer.parameters)

    @ms.jit
    def step(x):
        loss, grads = grad_fn(x)
        optimizer(grads)
        return loss

    x = ms.Tensor(np.array([0.3, -0.1], np.float32))
    out = []
    for i in range(STEPS):
        for group, lr in lr_changes.get(i, {}).items():
            ms.ops.assign(optimizer.param_groups[group]["lr"], ms.Tensor(lr, ms.float32))
        step(x)
        out.append([p.asnumpy().tolist() for p in net.trainable_params()])
    return out
