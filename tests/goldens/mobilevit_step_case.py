"""The mobilevit_xx_small training-step case shared by record_mobilevit_step.py (MindSpore) and
tests/test_zoo_mindcv_mobilevit.py (cellax): deterministic weights set by name, a fixed batch,
train mode with the Dropout cells in eval, value_and_grad over trainable_params() of
nn.CrossEntropyLoss."""

import zlib

import numpy as np

SHOWN = (  # parameters whose whole gradient is recorded
    "conv_1.features.0.weight",
    "layer_4.1.global_rep.3.pre_norm_mha.1.qkv_proj.bias",
    "layer_3.1.global_rep.1.pre_norm_mha.0.gamma",
)


def weight(name, shape):
    """A fixed value for the parameter ``name``: BatchNorm/LayerNorm scale 1, shifts, biases
    and running means 0, running variances 1, weights He-normal from a per-name seed."""
    leaf = name.rsplit(".", 1)[-1]
    if leaf in ("gamma", "moving_variance"):
        return np.ones(shape, np.float32)
    if leaf in ("beta", "bias", "moving_mean"):
        return np.zeros(shape, np.float32)
    fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)


def build(ms, mindcv):
    net = mindcv.create_model("mobilevit_xx_small", pretrained=False, num_classes=10)
    for name, param in net.parameters_and_names():
        param.set_data(ms.Tensor(weight(name, tuple(param.shape))))
    net.set_train(True)
    for _, cell in net.cells_and_names():
        if "Dropout" in type(cell).__name__:
            cell.set_train(False)
    return net


def batch():
    rng = np.random.default_rng(0)
    return (
        rng.standard_normal((4, 3, 64, 64)).astype(np.float32),
        np.array([1, 3, 5, 7], np.int32),
    )


def step(ms, net, jit=False):
    """``(loss, {name: gradient})`` of one value_and_grad over ``net.trainable_params()``."""
    x, y = batch()
    loss_fn = ms.nn.CrossEntropyLoss()

    def forward(x, y):
        return loss_fn(net(x), y)

    params = net.trainable_params()
    grad_fn = ms.value_and_grad(forward, None, params)
    if jit:
        grad_fn = ms.jit(grad_fn)
    loss, grads = grad_fn(ms.Tensor(x), ms.Tensor(y))
    return float(loss.asnumpy()), {p.name: g.asnumpy() for p, g in zip(params, grads)}


def summary(loss, grads):
    return {
        "loss": loss,
        "sum": {k: float(v.astype(np.float64).sum()) for k, v in grads.items()},
        "norm": {k: float(np.linalg.norm(v.astype(np.float64))) for k, v in grads.items()},
        "shown": {k: grads[k].ravel().tolist() for k in SHOWN},
    }
