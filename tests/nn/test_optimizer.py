"""Optimizers: MindSpore goldens, optax/hand-computed references, jit, groups, errors."""

import jax.numpy as jnp
import numpy as np
import optax
import pytest

import cellax as ms
from cellax import nn
from cellax._tensor import wrap

from tests._goldens import load_json

GOLDENS = load_json("optim.json")
NAMES = list(GOLDENS["initial"])


def make_params():
    return [
        ms.Parameter(ms.Tensor(np.array(v, np.float32)), name=k)
        for k, v in GOLDENS["initial"].items()
    ]


def grads_at(step, params):
    return tuple(ms.Tensor(np.array(GOLDENS["grads"][step][p.name], np.float32)) for p in params)


# Same constructions as tests/goldens/record_optim.py.
CASES = {
    "sgd": lambda p: nn.SGD(p, 0.1),
    "sgd_momentum": lambda p: nn.SGD(p, 0.1, momentum=0.9, dampening=0.1, weight_decay=0.01),
    "sgd_nesterov": lambda p: nn.SGD(p, 0.1, momentum=0.9, nesterov=True),
    "momentum": lambda p: nn.Momentum(p, 0.1, 0.9),
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
    "adadelta": lambda p: nn.Adadelta(p, learning_rate=1.0),
    "momentum_dynamic_lr_list": lambda p: nn.Momentum(p, [0.1, 0.05, 0.02, 0.01, 0.005], 0.9),
    "adam_schedule": lambda p: nn.Adam(p, nn.ExponentialDecayLR(0.01, 0.9, 2)),
    "momentum_groups": lambda p: nn.Momentum(
        [
            {"params": [p[0]], "lr": 0.05, "weight_decay": 0.01},
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


def lr_value(lr):
    if isinstance(lr, tuple):
        return [float(np.asarray(x.asnumpy()).reshape(())) for x in lr]
    return float(np.asarray(lr.asnumpy()).reshape(()))


@pytest.mark.parametrize("case", list(CASES))
def test_trajectory_matches_mindspore(case):
    golden = GOLDENS["optimizers"][case]
    params = make_params()
    opt = CASES[case](params)
    assert [name for name, _ in opt.parameters_and_names()] == golden["parameter_names"]
    for step in range(5):
        np.testing.assert_allclose(lr_value(opt.get_lr()), golden["lrs"][step], rtol=1e-6)
        assert opt(grads_at(step, opt.parameters)) is True
        for p in params:
            expected = np.array(golden["trajectory"][step][p.name], np.float32)
            np.testing.assert_allclose(p.asnumpy(), expected, rtol=1e-6, atol=5e-7)
    assert int(opt.global_step.asnumpy()[0]) == golden["global_step"] == 5
    assert all(p.dtype == ms.float32 for p in params)


# --------------------------------------------------------------------------------------------
# references computed with optax / numpy (same data as the goldens)


def run_cellax(make, steps=5):
    params = make_params()
    opt = make(params)
    for step in range(steps):
        opt(grads_at(step, opt.parameters))
    return {p.name: p.asnumpy() for p in params}, opt


def run_optax(tx, steps=5, decay_names=()):
    values = {k: jnp.asarray(np.array(v, np.float32)) for k, v in GOLDENS["initial"].items()}
    state = tx.init(values)
    for step in range(steps):
        grads = {k: jnp.asarray(np.array(v, np.float32)) for k, v in GOLDENS["grads"][step].items()}
        updates, state = tx.update(grads, state, values)
        values = optax.apply_updates(values, updates)
    return {k: np.asarray(v) for k, v in values.items()}


def run_numpy(rule, steps=5):
    """rule(name, param, grad, state dict, t) -> new param."""
    out = {}
    for name, value in GOLDENS["initial"].items():
        p = np.array(value, np.float64)
        state: dict = {}
        for t in range(1, steps + 1):
            g = np.array(GOLDENS["grads"][t - 1][name], np.float64)
            p = rule(name, p, g, state, t)
        out[name] = p
    return out


def assert_close(actual, expected, rtol=1e-5, atol=1e-6):
    for name in NAMES:
        np.testing.assert_allclose(actual[name], expected[name], rtol=rtol, atol=atol)


@pytest.mark.parametrize("nesterov", [False, True])
def test_momentum_matches_optax_sgd(nesterov):
    actual, _ = run_cellax(lambda p: nn.Momentum(p, 0.1, 0.9, use_nesterov=nesterov))
    assert_close(actual, run_optax(optax.sgd(0.1, momentum=0.9, nesterov=nesterov)))


def test_momentum_nesterov_weight_decay_documented_rule():
    # Documented rule: v = m v + g; p -= lr (g + m v), with the L2 term in g (not for 'beta').
    # MindSpore's CPU kernel instead uses the previous v in the Nesterov term (see report).
    def rule(name, p, g, state, t):
        g = g + (0.0 if "beta" in name else 0.01) * p
        state["v"] = 0.9 * state.get("v", 0.0) + g
        return p - 0.1 * (g + 0.9 * state["v"])

    actual, _ = run_cellax(lambda p: nn.Momentum(p, 0.1, 0.9, weight_decay=0.01, use_nesterov=True))
    assert_close(actual, run_numpy(rule))


@pytest.mark.parametrize("centered", [False, True])
def test_rmsprop_matches_optax(centered):
    actual, opt = run_cellax(lambda p: nn.RMSProp(p, 0.01, momentum=0.5, centered=centered))
    tx = optax.rmsprop(
        0.01, decay=0.9, eps=1e-10, initial_scale=1.0, centered=centered, momentum=0.5
    )
    assert_close(actual, run_optax(tx))
    assert float(opt.moment[0].asnumpy().sum()) != 0.0


def test_adagrad_matches_optax():
    actual, opt = run_cellax(lambda p: nn.Adagrad(p, accum=0.2, learning_rate=0.1))
    assert_close(actual, run_optax(optax.adagrad(0.1, initial_accumulator_value=0.2, eps=0.0)))
    assert opt.accum[0].name == "accum.w"


def test_adagrad_without_slot_updates_keeps_accumulator():
    actual, opt = run_cellax(lambda p: nn.Adagrad(p, learning_rate=0.1, update_slots=False))
    assert_close(actual, run_numpy(lambda n, p, g, s, t: p - 0.1 * g / np.sqrt(0.1)))
    np.testing.assert_allclose(opt.accum[0].asnumpy(), 0.1)


def test_adadelta_matches_optax():
    actual, _ = run_cellax(lambda p: nn.Adadelta(p, learning_rate=0.5, rho=0.8, epsilon=1e-5))
    assert_close(actual, run_optax(optax.adadelta(0.5, rho=0.8, eps=1e-5)))


def test_lamb_matches_optax():
    actual, _ = run_cellax(lambda p: nn.Lamb(p, 0.01, weight_decay=0.1))
    mask = {k: "beta" not in k for k in NAMES}
    assert_close(actual, run_optax(optax.lamb(0.01, weight_decay=0.1, mask=mask)))


@pytest.mark.parametrize("nesterov,amsgrad", [(False, False), (True, False), (False, True)])
def test_adam_hand_computed(nesterov, amsgrad):
    def rule(name, p, g, s, t):
        g = g + (0.0 if "beta" in name else 0.1) * p
        s["m"] = 0.9 * s.get("m", 0.0) + 0.1 * g
        s["v"] = 0.999 * s.get("v", 0.0) + 0.001 * g * g
        s["vmax"] = np.maximum(s.get("vmax", 0.0), s["v"])
        first = 0.9 * s["m"] + 0.1 * g if nesterov else s["m"]
        second = s["vmax"] if amsgrad else s["v"]
        lr_t = 0.01 * np.sqrt(1 - 0.999**t) / (1 - 0.9**t)
        return p - lr_t * first / (np.sqrt(second) + 1e-8)

    actual, _ = run_cellax(
        lambda p: nn.Adam(p, 0.01, weight_decay=0.1, use_nesterov=nesterov, use_amsgrad=amsgrad)
    )
    assert_close(actual, run_numpy(rule), rtol=1e-4)


def test_adam_weight_decay_and_sgd_hand_computed():
    def adamw(name, p, g, s, t):
        s["m"] = 0.9 * s.get("m", 0.0) + 0.1 * g
        s["v"] = 0.999 * s.get("v", 0.0) + 0.001 * g * g
        decay = 0.0 if "beta" in name else 0.1
        return p - 0.01 * (s["m"] / (np.sqrt(s["v"]) + 1e-6) + decay * p)

    actual, _ = run_cellax(lambda p: nn.AdamWeightDecay(p, 0.01, weight_decay=0.1))
    assert_close(actual, run_numpy(adamw), rtol=1e-4)

    def sgd(name, p, g, s, t):
        s["v"] = g if t == 1 else 0.9 * s["v"] + 0.7 * g
        return p - 0.1 * s["v"]

    actual, _ = run_cellax(lambda p: nn.SGD(p, 0.1, momentum=0.9, dampening=0.3))
    assert_close(actual, run_numpy(sgd))


def test_grad_centralization_group():
    params = make_params()
    w, gc_w, beta = params
    opt = nn.SGD([{"params": [gc_w, w], "grad_centralization": True}, {"params": [beta]}], 0.1)
    before = {p.name: p.asnumpy().copy() for p in params}
    grads = grads_at(0, opt.parameters)
    opt(grads)
    g = np.array(GOLDENS["grads"][0]["gc_w"], np.float32)
    centred = g - g.mean(axis=1, keepdims=True)
    np.testing.assert_allclose(gc_w.asnumpy(), before["gc_w"] - 0.1 * centred, rtol=1e-6)
    # second dimension 4 is not a multiple of 16: left unchanged
    g = np.array(GOLDENS["grads"][0]["w"], np.float32)
    np.testing.assert_allclose(w.asnumpy(), before["w"] - 0.1 * g, rtol=1e-6)
    assert opt.grad_centralization is True


# --------------------------------------------------------------------------------------------
# jit and state


def _mse(out, label):
    return wrap(jnp.mean((out._value - label._value) ** 2))


@pytest.mark.parametrize(
    "make",
    [
        lambda p: nn.Adam(p, nn.WarmUpLR(0.01, 3), weight_decay=0.01),
        lambda p: nn.Momentum(p, [0.1, 0.05, 0.02], 0.9),
    ],
    ids=["adam-schedule", "momentum-lr-list"],
)
def test_eager_and_jit_steps_identical(make):
    x = ms.Tensor(np.random.default_rng(0).standard_normal((8, 4)).astype(np.float32))
    y = ms.Tensor(np.random.default_rng(1).standard_normal((8, 2)).astype(np.float32))
    results = []
    for use_jit in (False, True):
        net = nn.Dense(4, 2, weight_init="ones", bias_init="zeros")
        opt = make(net.trainable_params())
        grad_fn = ms.value_and_grad(lambda a, b: _mse(net(a), b), None, opt.parameters)

        def step(a, b):
            loss, grads = grad_fn(a, b)
            opt(grads)
            return loss

        if use_jit:
            step = ms.jit(step)
        losses = [float(step(x, y).asnumpy()) for _ in range(4)]
        state = {name: p.asnumpy().copy() for name, p in opt.parameters_and_names()}
        results.append((losses, state))
        if use_jit:
            assert step.trace_count == 1
    (eager_losses, eager_state), (jit_losses, jit_state) = results
    np.testing.assert_allclose(jit_losses, eager_losses, rtol=1e-6)
    assert eager_losses[-1] < eager_losses[0]
    assert eager_state.keys() == jit_state.keys()
    for name in eager_state:
        np.testing.assert_allclose(jit_state[name], eager_state[name], rtol=1e-6, atol=1e-7)
    assert int(jit_state["global_step"][0]) == 4


def test_changing_learning_rate_parameter_is_seen_under_jit():
    w = ms.Parameter(ms.Tensor([1.0]), name="w")
    opt = nn.SGD([w], 0.1)

    @ms.jit
    def step(g):
        opt((g,))
        return True

    step(ms.Tensor([1.0]))
    ms.ops.assign(opt.learning_rate, ms.Tensor(0.5, ms.float32))
    step(ms.Tensor([1.0]))
    np.testing.assert_allclose(w.asnumpy(), [1.0 - 0.1 - 0.5], rtol=1e-6)


# --------------------------------------------------------------------------------------------
# attributes and groups


def test_group_attributes_and_get_lr_parameter():
    w, gc_w, beta = make_params()
    opt = nn.Momentum([{"params": [w], "lr": 0.05}, {"params": [gc_w, beta]}], 0.1, 0.9)
    assert opt.is_group and opt.is_group_lr
    assert [p.name for p in opt.get_lr()] == [
        "learning_rate_group_0",
        "learning_rate",
        "learning_rate",
    ]
    assert opt.get_lr_parameter(w).name == "learning_rate_group_0"
    assert [p.name for p in opt.get_lr_parameter([gc_w, beta])] == ["learning_rate"] * 2
    assert isinstance(opt.parameters, ms.ParameterTuple)
    assert [p.name for p in opt.parameters] == ["w", "gc_w", "beta"]
    with pytest.raises(ValueError, match="For 'get_lr_parameter', the Parameter 'x'"):
        opt.get_lr_parameter(ms.Parameter(ms.Tensor([1.0]), name="x"))
    with pytest.raises(TypeError, match="For 'get_lr_parameter'"):
        opt.get_lr_parameter("w")


def test_dynamic_lr_and_weight_decay_cell():
    params = make_params()
    opt = nn.Momentum(
        params, nn.PolynomialDecayLR(0.1, 0.01, 4, 1.0), 0.9, weight_decay=nn.WarmUpLR(0.5, 2)
    )
    assert opt.dynamic_lr and opt.dynamic_weight_decay
    lr0 = float(opt.get_lr().asnumpy())
    opt(grads_at(0, opt.parameters))
    lr1 = float(opt.get_lr().asnumpy())
    np.testing.assert_allclose([lr0, lr1], [0.1, 0.0775], rtol=1e-6)
    np.testing.assert_allclose(float(opt.get_weight_decay().asnumpy()), 0.25, rtol=1e-6)


def test_weight_decay_skips_beta_and_gamma():
    w = ms.Parameter(ms.Tensor([1.0]), name="w")
    gamma = ms.Parameter(ms.Tensor([1.0]), name="bn.gamma")
    opt = nn.SGD([w, gamma], 0.1, weight_decay=0.5)
    zero = ms.Tensor([0.0])
    opt((zero, zero))
    np.testing.assert_allclose([w.asnumpy()[0], gamma.asnumpy()[0]], [0.95, 1.0], rtol=1e-6)


def test_state_slots_are_owned_parameters():
    net = nn.Dense(3, 2)
    opt = nn.Adam(net.trainable_params(), 0.01, use_amsgrad=True)
    names = [p.name for p in opt.get_parameters()]
    assert names[:2] == ["global_step", "learning_rate"]
    assert "moment1.weight" in names and "vhat.bias" in names and "beta2_power" in names
    assert opt.global_step.dtype == ms.int32 and opt.global_step.shape == (1,)
    assert isinstance(opt.moment2, ms.ParameterTuple) and len(opt.moment2) == 2


# --------------------------------------------------------------------------------------------
# errors


def test_bad_parameters():
    with pytest.raises(TypeError, match="For 'SGD', every element of 'parameters'"):
        nn.SGD([ms.Tensor([1.0])], 0.1)
    with pytest.raises(ValueError, match="For 'Momentum', the argument 'parameters' must not"):
        nn.Momentum([], 0.1, 0.9)
    with pytest.raises(ValueError, match="For 'Adam', the argument 'parameters' can not be None"):
        nn.Adam(None)
    with pytest.raises(TypeError, match="For 'Adam', the argument 'parameters' must be an"):
        nn.Adam(ms.Parameter(ms.Tensor([1.0]), name="w"))


def test_bad_gradients():
    w, gc_w, beta = make_params()
    opt = nn.Adam([w, beta], 0.01)
    with pytest.raises(
        ValueError,
        match=r"For 'Adam', 'gradients' must hold one gradient per "
        r"parameter \(2\), but got 1",
    ):
        opt((ms.Tensor(np.zeros((3, 4), np.float32)),))
    with pytest.raises(
        ValueError,
        match=r"For 'Adam', the gradient of Parameter 'beta' must "
        r"have the parameter's shape \(4,\), but got \(3,\)",
    ):
        opt((ms.Tensor(np.zeros((3, 4), np.float32)), ms.Tensor(np.zeros(3, np.float32))))
    with pytest.raises(TypeError, match="For 'Adam', 'gradients' must be a tuple"):
        opt(ms.Tensor(np.zeros(4, np.float32)))
    assert int(opt.global_step.asnumpy()[0]) == 0


def test_bad_hyperparameters():
    params = make_params()
    with pytest.raises(ValueError, match="For 'SGD', 'learning_rate' must be non-negative"):
        nn.SGD(params, -0.1)
    with pytest.raises(ValueError, match="For 'Momentum', 'weight_decay' must be non-negative"):
        nn.Momentum(params, 0.1, 0.9, weight_decay=-1.0)
    with pytest.raises(TypeError, match="For 'Momentum', 'momentum' must be a float"):
        nn.Momentum(params, 0.1, 1)
    with pytest.raises(ValueError, match="For 'SGD', nesterov=True needs momentum > 0"):
        nn.SGD(params, 0.1, nesterov=True)
    with pytest.raises(TypeError, match="For 'SGD', a dynamic"):
        nn.SGD(params, 0.1, weight_decay=nn.WarmUpLR(0.1, 2))
    with pytest.raises(ValueError, match="For 'Adam', 'beta1' must be in"):
        nn.Adam(params, beta1=1.0)
    with pytest.raises(KeyError, match="For 'Adam', the only extra keyword"):
        nn.Adam(params, use_fused=True)
    with pytest.raises(ValueError, match="For 'RMSProp', 'epsilon' must be positive"):
        nn.RMSProp(params, epsilon=0.0)
    with pytest.raises(ValueError, match="For 'Adadelta', 'rho' must be in"):
        nn.Adadelta(params, rho=1.5)
    with pytest.raises(TypeError, match="For 'Adagrad', 'accum' must be a float"):
        nn.Adagrad(params, accum=1)
    with pytest.raises(ValueError, match="For 'SGD', 'loss_scale' must be positive"):
        nn.SGD(params, 0.1, loss_scale=0.0)
    # MindSpore 2.10 raises ValueError for a str (it reads one as a list of steps; oracle)
    with pytest.raises(ValueError, match="For 'SGD', 'learning_rate' must be a float, int"):
        nn.SGD(params, "0.1")
    with pytest.raises(TypeError, match="For 'SGD', 'learning_rate' must be a float, int"):
        nn.SGD(params, None)
    with pytest.raises(ValueError, match="For 'SGD', a Tensor 'learning_rate' must be 0-D or 1-D"):
        nn.SGD(params, ms.Tensor(np.ones((2, 2), np.float32)))


def test_bad_groups():
    w, gc_w, beta = make_params()
    with pytest.raises(KeyError, match="For 'SGD', the keys of a parameter group"):
        nn.SGD([{"params": [w], "momentum": 0.9}], 0.1)
    with pytest.raises(RuntimeError, match="For 'SGD', the Parameter 'w' is in two"):
        nn.SGD([{"params": [w]}, {"params": [w]}], 0.1)
    with pytest.raises(TypeError, match="For 'SGD', the group 'params' must hold Parameters"):
        nn.SGD([{"params": [w, 1.0]}], 0.1)
    with pytest.raises(ValueError, match="For 'SGD', 'order_params' must hold as many"):
        nn.SGD([{"params": [w, beta]}, {"order_params": [w]}], 0.1)
    with pytest.raises(ValueError, match="For 'SGD', per-step learning rates of all groups"):
        nn.SGD([{"params": [w], "lr": [0.1, 0.2]}, {"params": [beta], "lr": [0.1]}], 0.1)
