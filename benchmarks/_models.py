"""The networks and train steps the workloads share, written four ways.

- cellax, the MindSpore way (``nn.Cell``, ``nn.SGD``, ``nn.CrossEntropyLoss``,
  ``ms.value_and_grad(forward_fn, None, optimizer.parameters)``, ``@ms.jit``);
- hand-written JAX + optax (pytrees of arrays, ``jax.value_and_grad``, ``jax.jit`` with the
  state donated, as cellax donates it);
- Flax NNX (``nnx.jit``; and ``nnx.split``/``nnx.merge`` around ``jax.jit``);
- Equinox (``eqx.filter_jit``).

All four start from the same weights (copied from the cellax network), so their losses agree
and the smoke tests can check that they do the same work.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import optax

LR = 0.01

__all__ = [
    "LR",
    "mlp_data",
    "cellax_mlp",
    "cellax_train_step",
    "weights_of",
    "named_weights",
    "train_steppers",
    "mlp_steppers",
    "check_same_loss",
    "raw_mlp_logits",
    "raw_mlp_loss",
    "raw_train_step",
    "Stepper",
    "nnx_steppers",
    "eqx_stepper",
]


def mlp_data(batch: int, in_shape: tuple, classes: int = 10, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, *in_shape), dtype=np.float32)
    y = rng.integers(0, classes, size=(batch,), dtype=np.int32)
    return x, y


# ---------------------------------------------------------------------------------------------
# cellax


def cellax_mlp(sizes):
    """Seed 004's network shape: Flatten, then Dense/ReLU pairs (no ReLU after the last)."""
    from cellax import nn

    class Network(nn.Cell):
        def __init__(self):
            super().__init__()
            self.flatten = nn.Flatten()
            layers = []
            for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
                layers.append(nn.Dense(a, b, weight_init="normal", bias_init="zeros"))
                if i < len(sizes) - 2:
                    layers.append(nn.ReLU())
            self.dense_relu_sequential = nn.SequentialCell(*layers)

        def construct(self, x):
            x = self.flatten(x)
            logits = self.dense_relu_sequential(x)
            return logits

    return Network()


def cellax_train_step(net, jit: bool = True, lr: float = LR):
    """The MindSpore tutorial's train step: value_and_grad over optimizer.parameters + SGD."""
    import cellax as ms
    from cellax import nn

    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(net.trainable_params(), learning_rate=lr)

    def forward_fn(data, label):
        logits = net(data)
        loss = loss_fn(logits, label)
        return loss

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    return ms.jit(train_step) if jit else train_step


def weights_of(net) -> list:
    """Copies of a cellax network's parameters as NumPy arrays, in definition order."""
    return [np.array(p.asnumpy()) for p in net.trainable_params()]


# ---------------------------------------------------------------------------------------------
# hand-written JAX + optax


def raw_mlp_logits(params, x):
    """params: [w0, b0, w1, b1, ...] with w of shape (out, in), like nn.Dense."""
    h = x.reshape(x.shape[0], -1)
    n = len(params) // 2
    for i in range(n):
        w, b = params[2 * i], params[2 * i + 1]
        h = h @ w.T + b
        if i < n - 1:
            h = jax.nn.relu(h)
    return h


def raw_mlp_loss(params, x, y):
    return optax.softmax_cross_entropy_with_integer_labels(raw_mlp_logits(params, x), y).mean()


def raw_train_step(loss_fn, jit: bool = True, lr: float = LR):
    """``step(params, opt_state, x, y) -> (params, opt_state, loss)`` with optax SGD."""
    tx = optax.sgd(lr)

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = tx.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    if jit:
        step = jax.jit(step, donate_argnums=(0, 1))
    return tx, step


class Stepper:
    """Holds functional state between calls: ``stepper()`` runs one step and blocks."""

    def __init__(self, step, state: tuple, args: tuple):
        self.step, self.state, self.args = step, state, args
        self.loss = None

    def __call__(self):
        *state, loss = self.step(*self.state, *self.args)
        self.state = tuple(state)
        self.loss = loss.block_until_ready()
        return self.loss


def raw_stepper(loss_fn, weights, x, y, jit: bool = True) -> Stepper:
    """``weights``: a pytree (list, dict) of NumPy arrays, copied."""
    tx, step = raw_train_step(loss_fn, jit)
    params = jax.tree_util.tree_map(jnp.array, weights)
    return Stepper(step, (params, tx.init(params)), (jnp.asarray(x), jnp.asarray(y)))


SAME_WORK = "jax, nn.SGD's work"  # the row of raw_ms_sgd_stepper


def raw_ms_sgd_stepper(loss_fn, weights, x, y) -> Stepper:
    """Hand-written JAX doing the work of ``nn.SGD`` without momentum (a diagnostic row).

    ``nn.SGD`` compiles to ``p -= lr * g`` like ``optax.sgd``, but keeps MindSpore's learning
    rate as a runtime value (a schedule or ``set_lr`` may change it without recompiling) and
    counts its ``global_step``; its unused ``accum``/``stat``/``momentum`` Parameters are not
    inputs of the program. This row does the same by hand, to separate the optimizer's
    semantics from framework overhead. (MindSpore's cross entropy also masks
    ``ignore_index`` targets: one more reduction, see ``tests/test_hlo_equivalence.py``.)
    """

    def step(params, global_step, lr, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        params = jax.tree.map(lambda p, g: p - lr * g, params, grads)
        return params, global_step + 1, loss

    params = jax.tree_util.tree_map(jnp.array, weights)
    state = (params, jnp.zeros((1,), jnp.int32))
    args = (jnp.float32(LR), jnp.asarray(x), jnp.asarray(y))
    return Stepper(jax.jit(step, donate_argnums=(0, 1)), state, args)


# ---------------------------------------------------------------------------------------------
# Flax NNX


def _nnx_mlp(weights):
    from flax import nnx

    class MLP(nnx.Module):
        def __init__(self):
            rngs = nnx.Rngs(0)
            layers = []
            for i in range(0, len(weights), 2):
                w, b = weights[i], weights[i + 1]
                layer = nnx.Linear(w.shape[1], w.shape[0], rngs=rngs)
                layer.kernel.value = jnp.array(w.T)
                layer.bias.value = jnp.array(b)
                layers.append(layer)
            self.layers = nnx.List(layers)

        def __call__(self, x):
            h = x.reshape(x.shape[0], -1)
            for i, layer in enumerate(self.layers):
                h = layer(h)
                if i < len(self.layers) - 1:
                    h = nnx.relu(h)
            return h

    return MLP()


def nnx_steppers(weights, x, y) -> dict:
    """{'nnx.jit': ..., 'nnx split/merge + jax.jit': ...}."""
    from flax import nnx

    x, y = jnp.asarray(x), jnp.asarray(y)

    def loss_fn(model, x, y):
        return optax.softmax_cross_entropy_with_integer_labels(model(x), y).mean()

    model = _nnx_mlp(weights)
    optimizer = nnx.Optimizer(model, optax.sgd(LR), wrt=nnx.Param)

    @nnx.jit
    def nnx_step(model, optimizer, x, y):
        loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
        optimizer.update(model, grads)
        return loss

    def run_nnx():
        return nnx_step(model, optimizer, x, y).block_until_ready()

    model2 = _nnx_mlp(weights)
    optimizer2 = nnx.Optimizer(model2, optax.sgd(LR), wrt=nnx.Param)
    graphdef, state = nnx.split((model2, optimizer2))

    @ft_partial_jit
    def split_step(state, x, y):
        model, optimizer = nnx.merge(graphdef, state)
        loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
        optimizer.update(model, grads)
        _, state = nnx.split((model, optimizer))
        return state, loss

    return {"nnx.jit": run_nnx, "nnx split/merge+jax.jit": Stepper(split_step, (state,), (x, y))}


def ft_partial_jit(fn):
    return jax.jit(fn, donate_argnums=(0,))


# ---------------------------------------------------------------------------------------------
# Equinox


def eqx_stepper(weights, x, y) -> Stepper:
    import equinox as eqx

    class MLP(eqx.Module):
        layers: list

        def __init__(self):
            key = jax.random.PRNGKey(0)
            layers = []
            for i in range(0, len(weights), 2):
                w, b = weights[i], weights[i + 1]
                layer = eqx.nn.Linear(w.shape[1], w.shape[0], key=key)
                layer = eqx.tree_at(
                    lambda m: (m.weight, m.bias), layer, (jnp.array(w), jnp.array(b))
                )
                layers.append(layer)
            self.layers = layers

        def __call__(self, x):
            h = x.reshape(x.shape[0], -1)
            for i, layer in enumerate(self.layers):
                h = h @ layer.weight.T + layer.bias
                if i < len(self.layers) - 1:
                    h = jax.nn.relu(h)
            return h

    tx = optax.sgd(LR)
    model = MLP()

    @eqx.filter_value_and_grad
    def loss_fn(model, x, y):
        return optax.softmax_cross_entropy_with_integer_labels(model(x), y).mean()

    @eqx.filter_jit(donate="all-except-first")
    def step(data, opt_state, model):
        loss, grads = loss_fn(model, *data)
        updates, opt_state = tx.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        model = eqx.apply_updates(model, updates)
        return opt_state, model, loss

    # the batch goes first: filter_jit then donates only the optimizer state and the model
    state = (tx.init(eqx.filter(model, eqx.is_array)), model)
    return _EqxStepper(step, state, ((jnp.asarray(x), jnp.asarray(y)),))


class _EqxStepper(Stepper):
    def __call__(self):
        opt_state, model, loss = self.step(*self.args, *self.state)
        self.state = (opt_state, model)
        self.loss = loss.block_until_ready()
        return self.loss


# ---------------------------------------------------------------------------------------------
# one workload: the MLP train step, jitted, in every library


def named_weights(net) -> dict:
    """{parameter name: NumPy copy} of a cellax network's trainable parameters."""
    return {p.name: np.array(p.asnumpy()) for p in net.trainable_params()}


def train_steppers(net, raw_loss, x, y, raw_weights=None, extra=None) -> dict:
    """{'jax': ..., 'cellax': ..., **extra} steps of one jitted train step; each blocks.

    ``raw_loss(params, x, y)`` is the hand-written loss over ``raw_weights`` (default: the
    network's parameters as a {name: array} dict). The first call of each is made here
    (compile excluded from timing) and the losses compared, so all rows do the same work.
    """
    import cellax as ms

    weights = named_weights(net) if raw_weights is None else raw_weights
    train_step = cellax_train_step(net, jit=True)
    xt, yt = ms.Tensor(x), ms.Tensor(y)

    def cellax_step():
        return train_step(xt, yt).jax.block_until_ready()

    cellax_step.train_step = train_step
    steps = {
        "jax": raw_stepper(raw_loss, weights, x, y),
        "cellax": cellax_step,
        SAME_WORK: raw_ms_sgd_stepper(raw_loss, weights, x, y),
    }
    steps.update(extra or {})
    first = {name: float(step()) for name, step in steps.items()}
    check_same_loss(first)
    return steps


def mlp_steppers(sizes, batch: int, in_shape: tuple, libs: bool = True, seed: int = 0) -> dict:
    """W1/W3: the jitted MLP train step in cellax, JAX, and Flax NNX / Equinox if present."""
    from benchmarks._harness import optional_libs

    x, y = mlp_data(batch, in_shape, sizes[-1], seed)
    net = cellax_mlp(sizes)
    weights = weights_of(net)
    extra = {}
    found = optional_libs() if libs else {}
    if found.get("flax"):
        extra.update(nnx_steppers(weights, x, y))
    if found.get("equinox"):
        extra["eqx.filter_jit"] = eqx_stepper(weights, x, y)
    return train_steppers(net, raw_mlp_loss, x, y, raw_weights=weights, extra=extra)


def check_same_loss(first: dict, rtol: float = 1e-4) -> None:
    ref = first["jax"]
    for name, loss in first.items():
        if not abs(loss - ref) <= rtol * max(1.0, abs(ref)):
            raise AssertionError(
                f"{name} computed loss {loss}, hand-written JAX {ref}: the "
                f"implementations do not do the same work"
            )


def same_work_note(rows: dict) -> list:
    """A note with cellax's ratio to the hand-written step doing nn.SGD's work."""
    ref = rows.get(SAME_WORK)
    if not ref or "cellax" not in rows:
        return []
    ratio = rows["cellax"]["median"] / ref["median"]
    return [
        f"cellax / ({SAME_WORK}) = {ratio:.3f}: the framework's own cost (and MindSpore's "
        f"cross-entropy masking); the rest of the gap to 'jax' (optax.sgd) is the learning "
        f"rate as a runtime value and the global_step counter"
    ]
