"""lr_scheduler golden cases, run under MindSpore 2.10 (recording) and cellax alike.

Each case builds a mint optimizer over two parameter groups, attaches one scheduler from
``experimental.optim.lr_scheduler`` and records, for :data:`STEPS` epochs, the scheduler's
``get_last_lr()`` and the Parameters after a ``jit`` train step (the step reads the groups'
learning rates as the optimizer does: Adam reads the ``'lr'`` Parameter, SGD its
``'lr_float'``). ``epoch`` cases call ``step(epoch)`` (the closed form).
"""

import numpy as np

STEPS = 6

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
}


def run(ms, mint, lr_scheduler, case):
    """[(last lrs, parameter values)] after each epoch of ``case`` under framework ``ms``."""
    opt_name, sched_name, kwargs, epochs = CASES[case]

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
    scheduler = getattr(lr_scheduler, sched_name)(optimizer, **eval(kwargs, {"np": np}))
    grad_fn = ms.value_and_grad(net, None, optimizer.parameters)

    @ms.jit
    def train_step(x):
        loss, grads = grad_fn(x)
        optimizer(grads)
        return loss

    x = ms.Tensor(np.array([0.3, -0.1], np.float32))
    out = []
    for i in range(STEPS):
        train_step(x)
        scheduler.step() if epochs is None else scheduler.step(epochs[i])
        lrs = [float(lr.asnumpy()) for lr in scheduler.get_last_lr()]
        out.append([lrs, [p.asnumpy().tolist() for p in net.trainable_params()]])
    return out
