"""Record MindSpore optimizer trajectories and learning-rate schedules as goldens.

Run with the MindSpore oracle venv (never from the tests):

    /tmp/ms/bin/python tests/goldens/record_optim.py

Writes tests/goldens/optim.json: for each case, the parameter values after each of 5 steps
with fixed initial weights and fixed gradients, and the learning-rate schedule values.
"""

import json
import os

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, nn

STEPS = 5


def initial_arrays():
    rng = np.random.default_rng(0)
    return {
        "w": rng.standard_normal((3, 4)).astype(np.float32),
        "gc_w": rng.standard_normal((2, 16)).astype(np.float32),
        "beta": rng.standard_normal((4,)).astype(np.float32),
    }


def gradient_arrays():
    rng = np.random.default_rng(1)
    init = initial_arrays()
    return [
        {k: rng.standard_normal(v.shape).astype(np.float32) for k, v in init.items()}
        for _ in range(STEPS)
    ]


def make_params():
    return [Parameter(Tensor(v), name=k) for k, v in initial_arrays().items()]


CASES = {
    "sgd": lambda p: nn.SGD(p, 0.1),
    "sgd_momentum": lambda p: nn.SGD(p, 0.1, momentum=0.9, dampening=0.1, weight_decay=0.01),
    "sgd_nesterov": lambda p: nn.SGD(p, 0.1, momentum=0.9, nesterov=True),
    "momentum": lambda p: nn.Momentum(p, 0.1, 0.9),
    "momentum_nesterov_wd": lambda p: nn.Momentum(
        p, 0.1, 0.9, weight_decay=0.01, use_nesterov=True
    ),
    "momentum_loss_scale": lambda p: nn.Momentum(p, 0.1, 0.9, weight_decay=0.01, loss_scale=4.0),
    "adam": lambda p: nn.Adam(p, 0.01),
    "adam_wd_nesterov": lambda p: nn.Adam(p, 0.01, weight_decay=0.1, use_nesterov=True),
    "adam_amsgrad": lambda p: nn.Adam(p, 0.01, use_amsgrad=True),
    "adam_weight_decay": lambda p: nn.AdamWeightDecay(p, 0.01, weight_decay=0.1),
    "rmsprop": lambda p: nn.RMSProp(p, 0.01),
    "rmsprop_centered_momentum": lambda p: nn.RMSProp(
        p, 0.01, momentum=0.9, centered=True, weight_decay=0.01
    ),
    "adagrad": lambda p: nn.Adagrad(p, learning_rate=0.1),
    "adagrad_no_update_slots": lambda p: nn.Adagrad(p, learning_rate=0.1, update_slots=False),
    # nn.Lamb is not recorded: its Lamb kernel does not exist on MindSpore's CPU backend.
    "adadelta": lambda p: nn.Adadelta(p, learning_rate=1.0),
    "momentum_dynamic_lr_list": lambda p: nn.Momentum(p, [0.1, 0.05, 0.02, 0.01, 0.005], 0.9),
    "adam_schedule": lambda p: nn.Adam(p, nn.ExponentialDecayLR(0.01, 0.9, 2)),
    "momentum_groups": lambda p: nn.Momentum(
        [
            {"params": [p[0]], "lr": 0.05, "weight_decay": 0.01},
            # grad_centralization is not recorded: no Centralization kernel on CPU.
            {"params": [p[1]]},
            {"params": [p[2]], "weight_decay": 0.1},
            {"order_params": [p[2], p[0], p[1]]},
        ],
        0.1,
        0.9,
    ),
    "adam_groups_dynamic": lambda p: nn.Adam(
        [
            {"params": [p[0]], "lr": nn.CosineDecayLR(0.001, 0.01, 3)},
            {"params": [p[1], p[2]], "weight_decay": 0.05},
        ],
        nn.WarmUpLR(0.01, 3),
    ),
}


def run_case(factory):
    params = make_params()
    opt = factory(params)
    trajectory = []
    lrs = []
    for grads in gradient_arrays():
        lr = opt.get_lr()
        if isinstance(lr, tuple):
            lrs.append([float(np.asarray(x.asnumpy()).reshape(())) for x in lr])
        else:
            lrs.append(float(np.asarray(lr.asnumpy()).reshape(())))
        ordered = [grads[p.name] for p in opt.parameters]
        opt(tuple(Tensor(g) for g in ordered))
        trajectory.append({p.name: p.asnumpy().tolist() for p in params})
    names = [name for name, _ in opt.parameters_and_names()]
    return {
        "trajectory": trajectory,
        "lrs": lrs,
        "global_step": int(opt.global_step.asnumpy()[0]),
        "parameter_names": names,
    }


def schedules():
    out = {}
    funcs = {
        "exponential_decay_lr": nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1),
        "exponential_decay_lr_stair": nn.exponential_decay_lr(0.1, 0.9, 9, 2, 2, True),
        "natural_exp_decay_lr": nn.natural_exp_decay_lr(0.1, 0.9, 6, 2, 2),
        "natural_exp_decay_lr_stair": nn.natural_exp_decay_lr(0.1, 0.9, 9, 2, 2, True),
        "inverse_decay_lr": nn.inverse_decay_lr(0.1, 0.5, 6, 2, 2),
        "inverse_decay_lr_stair": nn.inverse_decay_lr(0.1, 0.5, 9, 2, 2, True),
        "cosine_decay_lr": nn.cosine_decay_lr(0.01, 0.1, 10, 2, 3),
        "polynomial_decay_lr": nn.polynomial_decay_lr(0.1, 0.01, 10, 2, 3, 0.5),
        "polynomial_decay_lr_update": nn.polynomial_decay_lr(0.1, 0.01, 14, 2, 2, 0.5, True),
        "piecewise_constant_lr": nn.piecewise_constant_lr([2, 5, 10], [0.1, 0.05, 0.01]),
        "warmup_lr": nn.warmup_lr(0.1, 10, 2, 3),
    }
    for name, values in funcs.items():
        out[name] = values
    cells = {
        "ExponentialDecayLR": nn.ExponentialDecayLR(0.1, 0.9, 4),
        "ExponentialDecayLR_stair": nn.ExponentialDecayLR(0.1, 0.9, 4, True),
        "NaturalExpDecayLR": nn.NaturalExpDecayLR(0.1, 0.9, 4),
        "NaturalExpDecayLR_stair": nn.NaturalExpDecayLR(0.1, 0.9, 4, True),
        "InverseDecayLR": nn.InverseDecayLR(0.1, 0.5, 4),
        "InverseDecayLR_stair": nn.InverseDecayLR(0.1, 0.5, 4, True),
        "CosineDecayLR": nn.CosineDecayLR(0.01, 0.1, 6),
        "PolynomialDecayLR": nn.PolynomialDecayLR(0.1, 0.01, 6, 0.5),
        "PolynomialDecayLR_update": nn.PolynomialDecayLR(0.1, 0.01, 4, 2.0, True),
        "WarmUpLR": nn.WarmUpLR(0.1, 6),
    }
    for name, cell in cells.items():
        out[name] = [float(cell(Tensor(step, ms.int32)).asnumpy()) for step in range(10)]
    return out


def main():
    result = {
        "initial": {k: v.tolist() for k, v in initial_arrays().items()},
        "grads": [{k: v.tolist() for k, v in g.items()} for g in gradient_arrays()],
        "optimizers": {},
        "schedules": schedules(),
    }
    for name, factory in CASES.items():
        try:
            result["optimizers"][name] = run_case(factory)
        except Exception as error:  # a kernel missing on CPU: record nothing for it
            print("FAILED", name, type(error).__name__, str(error)[:200])
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "optim.json")
    with open(path, "w") as f:
        json.dump(result, f)
    print("wrote", path)


if __name__ == "__main__":
    main()
