"""lr_scheduler golden cases, run under MindSpore 2.10 (recording) and cellax alike.

Each case builds a mint optimizer over two parameter groups, attaches one scheduler from
``experimental.optim.lr_scheduler`` and records, for :data:`STEPS` epochs, the scheduler's
``get_last_lr()`` and the Parameters after a ``jit`` train step (the step reads the groups'
learning rates as the optimizer does: Adam reads the ``'lr'`` Parameter, SGD its
``'lr_float'``). ``epoch`` cases call ``step(epoch)`` (the closed form); ReduceLROnPlateau
cases call ``step(metric)`` with the listed metrics, one per epoch. Only the :data:`TRAINED`
cases run the train step (Adam following the rates, SGD ignoring them, for a scheduler of each
kind); the others keep the Parameters as built: the optimizer reads the rates the same way
whatever the scheduler wrote them, and one compiled train step per case was most of the time.
The kwargs string may use ``optimizer`` and ``lr_scheduler`` (SequentialLR's schedulers).
"""

import numpy as np

STEPS = 6

TRAINED = {"step", "step_sgd", "cosine_epoch", "plateau_min", "warm_restarts", "sequential"}

# name -> (optimizer, scheduler, scheduler kwargs (a string evaluated with ``np``), epochs)
CASES = {
    "step": ("Adam", "StepLR", "dict(step_size=2, gamma=0.5)", None),
    "step_sgd": ("SGD", "StepLR", "dict(step_size=1, gamma=0.5)", None),
    "multistep": ("Adam", "MultiStepLR", "dict(milestones=[1, 3, 3], gamma=0.5)", None),
    "exponential": ("Adam", "ExponentialLR", "dict(gamma=0.8)", None),
    "linear": ("Adam", "LinearLR", "dict(start_factor=0.25, end_factor=1.0, total_iters=4)", None),
    "constant": ("Adam", "ConstantLR", "dict(factor=0.5, total_iters=3)", None),
    "lambda": ("Adam", "LambdaLR", "dict(lr_lambda=lambda e: 0.9 ** e)", None),
    "multiplicative": ("Adam", "MultiplicativeLR", "dict(lr_lambda=lambda e: 0.95)", None),
    "polynomial": ("Adam", "PolynomialLR", "dict(total_iters=4, power=2.0)", None),
    "cosine": ("Adam", "CosineAnnealingLR", "dict(T_max=3, eta_min=0.01)", None),
    "step_epoch": ("Adam", "StepLR", "dict(step_size=2, gamma=0.5)", [3, 1, 4, 4, 6, 0]),
    "exponential_epoch": ("Adam", "ExponentialLR", "dict(gamma=0.8)", [2, 5, 1, 3, 0, 4]),
    "cosine_epoch": ("Adam", "CosineAnnealingLR", "dict(T_max=4)", [1, 2, 6, 3, 0, 5]),
    "sequential": (
        "Adam",
        "SequentialLR",
        "dict(schedulers=[lr_scheduler.ConstantLR(optimizer, factor=0.1, total_iters=2),"
        " lr_scheduler.ExponentialLR(optimizer, gamma=0.9)], milestones=[2])",
        None,
    ),
    "sequential_three": (
        "Adam",
        "SequentialLR",
        "dict(schedulers=[lr_scheduler.LinearLR(optimizer, start_factor=0.5, total_iters=2),"
        " lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5),"
        " lr_scheduler.CosineAnnealingLR(optimizer, T_max=2)], milestones=[1, 3])",
        [None] * 8,
    ),
    "plateau_min": (
        "Adam",
        "ReduceLROnPlateau",
        "dict(factor=0.5, patience=1, cooldown=1)",
        [1.0, 0.9, 0.95, 0.95, 0.95, 0.8, 0.85, 0.85, 0.85, 0.85],
    ),
    "plateau_max_abs": (
        "Adam",
        "ReduceLROnPlateau",
        "dict(mode='max', factor=0.2, patience=0, threshold=0.05, threshold_mode='abs',"
        " min_lr=[0.01, 0.004])",
        [0.5, 0.52, 0.6, 0.61, 0.7, 0.7, 0.69, 0.8],
    ),
    "plateau_min_abs_eps": (
        "Adam",
        "ReduceLROnPlateau",
        "dict(factor=0.5, patience=0, threshold_mode='abs', min_lr=0.03, eps=0.01)",
        [3.0, 3.0, 3.0, 2.0, 2.5, 2.5, 2.5],
    ),
    "cyclic": ("Adam", "CyclicLR", "dict(base_lr=0.01, max_lr=0.1, step_size_up=2)", None),
    "cyclic_triangular2": (
        "Adam",
        "CyclicLR",
        "dict(base_lr=[0.01, 0.02], max_lr=[0.1, 0.2], step_size_up=2, step_size_down=1,"
        " mode='triangular2')",
        [None] * 9,
    ),
    "cyclic_exp_range": (
        "Adam",
        "CyclicLR",
        "dict(base_lr=0.01, max_lr=0.1, step_size_up=1, step_size_down=2, mode='exp_range',"
        " gamma=0.9)",
        [None] * 7,
    ),
    "cyclic_scale_fn": (
        "Adam",
        "CyclicLR",
        "dict(base_lr=0.01, max_lr=0.1, step_size_up=2, scale_fn=lambda x: 0.5 ** x,"
        " scale_mode='iterations')",
        [None] * 6,
    ),
    "cyclic_epoch": (
        "Adam",
        "CyclicLR",
        "dict(base_lr=0.01, max_lr=0.1, step_size_up=3)",
        [4, 1, 7, 0, 3, 2],
    ),
    "warm_restarts": (
        "Adam",
        "CosineAnnealingWarmRestarts",
        "dict(T_0=2, T_mult=2, eta_min=0.01)",
        None,
    ),
    "warm_restarts_mult1": (
        "Adam",
        "CosineAnnealingWarmRestarts",
        "dict(T_0=3)",
        [None] * 8,
    ),
    "warm_restarts_epoch": (
        "Adam",
        "CosineAnnealingWarmRestarts",
        "dict(T_0=3, eta_min=0.001)",
        [4, 1, 7, 0, 3, 2],
    ),
    "warm_restarts_epoch_mult2": (
        "Adam",
        "CosineAnnealingWarmRestarts",
        "dict(T_0=2, T_mult=2)",
        [1, 5, 2, 9, 0, 6],
    ),
}


def run(ms, mint, lr_scheduler, case):
    """[(last lrs, parameter values)] after each epoch of ``case`` under framework ``ms``."""
    opt_name, sched_name, kwargs, epochs = CASES[case]
    train = case in TRAINED

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.array([1.0, -2.0], np.float32)), name="w")
            self.b = ms.Parameter(ms.Tensor(np.array([0.5], np.float32)), name="b")

        def construct(self, x):
            return (self.w * x).sum() ** 2 + (self.b * self.b * 3.0).sum()

    net = Net()
    groups = [{"params": [net.w]}, {"params": [net.b], "lr": 0.05}]
    optimizer = getattr(mint.optim, opt_name)(groups, lr=0.1)
    namespace = {"np": np, "optimizer": optimizer, "lr_scheduler": lr_scheduler}
    scheduler = getattr(lr_scheduler, sched_name)(optimizer, **eval(kwargs, namespace))
    grad_fn = ms.value_and_grad(net, None, optimizer.parameters)

    @ms.jit
    def train_step(x):
        loss, grads = grad_fn(x)
        optimizer(grads)
        return loss

    x = ms.Tensor(np.array([0.3, -0.1], np.float32))
    out = []
    for i in range(STEPS if epochs is None else len(epochs)):
        if train:
            train_step(x)
        if epochs is None or epochs[i] is None:
            scheduler.step()
        else:
            scheduler.step(epochs[i])
        lrs = [float(lr.asnumpy()) for lr in scheduler.get_last_lr()]
        out.append([lrs, [p.asnumpy().tolist() for p in net.trainable_params()]])
    return out
