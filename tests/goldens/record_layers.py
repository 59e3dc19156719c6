"""Record golden outputs of MindSpore layers and losses for tests/nn (run with the oracle venv).

    /tmp/ms/bin/python tests/goldens/record_layers.py

Writes layers.json (the case configurations) and layers.npz (inputs, weights, outputs), keyed
``<case id>/<name>``. Weights are fixed NumPy arrays set with Parameter.set_data.
"""

import json
import os

import mindspore  # noqa: F401  (fails early outside the MindSpore venv)
import numpy as np
from mindspore import Tensor, nn, ops

HERE = os.path.dirname(os.path.abspath(__file__))
RNG = np.random.default_rng(0)
CASES, ARRAYS = [], {}


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def add(kind, cid, config, **arrays):
    CASES.append(dict(kind=kind, id=cid, **config))
    for key, value in arrays.items():
        ARRAYS[f"{cid}/{key}"] = np.asarray(value)


def set_params(cell):
    """Fill every Parameter with fixed random values; return them by name."""
    values = {}
    for name, param in cell.parameters_and_names():
        value = rand(*param.shape) * 0.5
        param.set_data(Tensor(value))
        values[name] = value
    return values


# -- convolutions ---------------------------------------------------------------------------
CONV = [
    (
        "Conv2d",
        dict(in_channels=2, out_channels=3, kernel_size=4, stride=2, pad_mode="same"),
        (1, 2, 7, 6),
    ),
    (
        "Conv2d",
        dict(
            in_channels=2,
            out_channels=3,
            kernel_size=(2, 3),
            stride=(1, 2),
            pad_mode="same",
            dilation=(2, 1),
        ),
        (2, 2, 5, 6),
    ),
    (
        "Conv2d",
        dict(
            in_channels=2,
            out_channels=4,
            kernel_size=3,
            stride=1,
            pad_mode="valid",
            group=2,
            has_bias=True,
        ),
        (1, 2, 5, 5),
    ),
    (
        "Conv2d",
        dict(
            in_channels=2,
            out_channels=3,
            kernel_size=3,
            stride=2,
            pad_mode="pad",
            padding=(1, 0, 2, 1),
            has_bias=True,
        ),
        (1, 2, 6, 5),
    ),
    (
        "Conv2d",
        dict(in_channels=2, out_channels=3, kernel_size=3, stride=1, pad_mode="pad", padding=1),
        (1, 2, 4, 4),
    ),
    (
        "Conv1d",
        dict(
            in_channels=2, out_channels=3, kernel_size=4, stride=2, pad_mode="same", has_bias=True
        ),
        (2, 2, 9),
    ),
    (
        "Conv1d",
        dict(
            in_channels=2,
            out_channels=3,
            kernel_size=3,
            stride=1,
            pad_mode="pad",
            padding=2,
            dilation=2,
        ),
        (1, 2, 7),
    ),
    (
        "Conv3d",
        dict(
            in_channels=2, out_channels=2, kernel_size=2, stride=2, pad_mode="same", has_bias=True
        ),
        (1, 2, 3, 4, 5),
    ),
    (
        "Conv3d",
        dict(in_channels=2, out_channels=2, kernel_size=3, stride=1, pad_mode="pad", padding=1),
        (1, 2, 3, 3, 3),
    ),
    (
        "Conv2dTranspose",
        dict(
            in_channels=2, out_channels=3, kernel_size=3, stride=2, pad_mode="same", has_bias=True
        ),
        (1, 2, 3, 4),
    ),
    (
        "Conv2dTranspose",
        dict(in_channels=2, out_channels=3, kernel_size=4, stride=2, pad_mode="valid"),
        (1, 2, 3, 3),
    ),
    (
        "Conv2dTranspose",
        dict(in_channels=2, out_channels=3, kernel_size=3, stride=2, pad_mode="pad", padding=1),
        (1, 2, 3, 3),
    ),
    (
        "Conv2dTranspose",
        dict(in_channels=4, out_channels=2, kernel_size=2, stride=1, pad_mode="valid", group=2),
        (1, 4, 3, 3),
    ),
    (
        "Conv1dTranspose",
        dict(in_channels=2, out_channels=3, kernel_size=3, stride=2, pad_mode="same"),
        (1, 2, 5),
    ),
    (
        "Conv1dTranspose",
        dict(in_channels=2, out_channels=3, kernel_size=3, stride=2, pad_mode="pad", padding=1),
        (1, 2, 5),
    ),
    (
        "Conv3dTranspose",
        dict(in_channels=2, out_channels=2, kernel_size=2, stride=2, pad_mode="valid"),
        (1, 2, 2, 2, 2),
    ),
]
for i, (cls, kwargs, shape) in enumerate(CONV):
    try:
        net = getattr(nn, cls)(**kwargs)
        params = set_params(net)
        x = rand(*shape)
        out = net(Tensor(x)).asnumpy()
    except Exception as exc:  # an op unsupported on CPU: skip the case
        print("skip", cls, kwargs, type(exc).__name__, str(exc)[:100])
        continue
    add(
        "conv",
        f"conv{i}",
        dict(cls=cls, kwargs=kwargs, repr=repr(net).split(", weight_init")[0]),
        x=x,
        out=out,
        **{f"param.{k}": v for k, v in params.items()},
    )

# -- pooling --------------------------------------------------------------------------------
POOL = [
    ("MaxPool2d", dict(kernel_size=3, stride=2, pad_mode="same"), (1, 2, 6, 5)),
    ("MaxPool2d", dict(kernel_size=2, stride=2), (1, 2, 5, 5)),
    (
        "MaxPool2d",
        dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, ceil_mode=True),
        (1, 2, 6, 6),
    ),
    (
        "MaxPool2d",
        dict(kernel_size=2, stride=2, pad_mode="pad", padding=0, ceil_mode=True),
        (1, 1, 5, 5),
    ),
    (
        "MaxPool2d",
        dict(kernel_size=2, stride=1, pad_mode="pad", padding=1, dilation=2),
        (1, 1, 5, 5),
    ),
    ("AvgPool2d", dict(kernel_size=3, stride=2, pad_mode="same"), (1, 2, 6, 5)),
    ("AvgPool2d", dict(kernel_size=(2, 3), stride=(1, 2)), (1, 2, 4, 7)),
    (
        "AvgPool2d",
        dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, count_include_pad=False),
        (1, 2, 5, 5),
    ),
    (
        "AvgPool2d",
        dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, ceil_mode=True),
        (1, 2, 6, 6),
    ),
    (
        "AvgPool2d",
        dict(kernel_size=2, stride=2, pad_mode="pad", padding=1, divisor_override=3),
        (1, 1, 4, 4),
    ),
    ("MaxPool1d", dict(kernel_size=3, stride=2, pad_mode="same"), (2, 3, 7)),
    (
        "MaxPool1d",
        dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, ceil_mode=True),
        (2, 3, 8),
    ),
    ("AvgPool1d", dict(kernel_size=2, stride=2), (2, 3, 7)),
    ("AvgPool1d", dict(kernel_size=3, stride=2, pad_mode="pad", padding=1), (2, 3, 7)),
    ("AvgPool1d", dict(kernel_size=3, stride=1, pad_mode="same"), (2, 3, 5)),
    ("MaxPool3d", dict(kernel_size=2, stride=2), (1, 2, 4, 4, 5)),
    ("MaxPool3d", dict(kernel_size=3, stride=2, pad_mode="pad", padding=1), (1, 1, 4, 4, 4)),
    ("AvgPool3d", dict(kernel_size=2, stride=2), (1, 2, 4, 4, 5)),
    ("AvgPool3d", dict(kernel_size=3, stride=2, pad_mode="same"), (1, 1, 4, 5, 4)),
    ("AdaptiveAvgPool1d", dict(output_size=3), (2, 3, 6)),
    ("AdaptiveAvgPool2d", dict(output_size=(3, 2)), (1, 2, 7, 5)),
    ("AdaptiveAvgPool3d", dict(output_size=(2, 3, 2)), (1, 2, 5, 4, 3)),
    ("AdaptiveMaxPool1d", dict(output_size=3), (2, 3, 6)),
    ("AdaptiveMaxPool2d", dict(output_size=(3, 2)), (1, 2, 7, 5)),
]
for i, (cls, kwargs, shape) in enumerate(POOL):
    try:
        net = getattr(nn, cls)(**kwargs)
        x = rand(*shape)
        out = net(Tensor(x)).asnumpy()
    except Exception as exc:
        print("skip", cls, kwargs, type(exc).__name__, str(exc)[:100])
        continue
    add("pool", f"pool{i}", dict(cls=cls, kwargs=kwargs, repr=repr(net)), x=x, out=out)

x = rand(1, 2, 5, 5)
out, idx = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, return_indices=True)(Tensor(x))
add(
    "pool_indices",
    "pool_indices",
    dict(kwargs=dict(kernel_size=3, stride=2, padding=1)),
    x=x,
    out=out.asnumpy(),
    indices=idx.asnumpy(),
)

# -- normalisation --------------------------------------------------------------------------
for i, (cls, shape, kwargs) in enumerate(
    [
        ("BatchNorm2d", (4, 3, 2, 2), dict(num_features=3)),
        ("BatchNorm2d", (4, 3, 2, 2), dict(num_features=3, momentum=0.7, eps=1e-3)),
        ("BatchNorm1d", (5, 3), dict(num_features=3)),
        ("BatchNorm1d", (4, 3, 2), dict(num_features=3)),
        ("BatchNorm3d", (2, 3, 2, 2, 2), dict(num_features=3)),
    ]
):
    net = getattr(nn, cls)(**kwargs)
    params = set_params(net)
    net.moving_variance.set_data(
        Tensor(np.abs(params[[k for k in params if "variance" in k][0]]) + 0.5)
    ) if cls != "BatchNorm3d" else None
    start = {p.name: p.asnumpy().copy() for p in net.get_parameters()}
    x1, x2, x3 = rand(*shape), rand(*shape) + 1, rand(*shape)
    net.set_train(True)
    y1, y2 = net(Tensor(x1)).asnumpy(), net(Tensor(x2)).asnumpy()
    stats = {p.name: p.asnumpy() for p in net.get_parameters()}
    net.set_train(False)
    y3 = net(Tensor(x3)).asnumpy()
    add(
        "batchnorm",
        f"bn{i}",
        dict(cls=cls, kwargs=kwargs, shape=shape, repr=repr(net)),
        x1=x1,
        x2=x2,
        x3=x3,
        y1=y1,
        y2=y2,
        y3=y3,
        **{f"start.{k}": v for k, v in start.items()},
        **{f"after.{k}": v for k, v in stats.items()},
    )

for i, (shape, kwargs) in enumerate(
    [
        ((2, 3, 4), dict(normalized_shape=(4,))),
        ((2, 3, 4), dict(normalized_shape=(3, 4), begin_norm_axis=1, begin_params_axis=1)),
        (
            (2, 3, 4),
            dict(normalized_shape=(3, 4), begin_norm_axis=1, begin_params_axis=1, epsilon=1e-3),
        ),
    ]
):
    net = nn.LayerNorm(**kwargs)
    params = set_params(net)
    x = rand(*shape)
    add(
        "layernorm",
        f"ln{i}",
        dict(kwargs=kwargs, repr=repr(net)),
        x=x,
        out=net(Tensor(x)).asnumpy(),
        **{f"param.{k}": v for k, v in params.items()},
    )

net = nn.GroupNorm(2, 4, eps=1e-4)
params = set_params(net)
x = rand(2, 4, 3, 2)
add(
    "groupnorm",
    "gn",
    dict(repr=repr(net)),
    x=x,
    out=net(Tensor(x)).asnumpy(),
    **{f"param.{k}": v for k, v in params.items()},
)
try:
    net = nn.InstanceNorm2d(3)
    params = set_params(net)
    x = rand(2, 3, 3, 4)
    add(
        "instancenorm",
        "in2d",
        dict(repr=repr(net)),
        x=x,
        out=net(Tensor(x)).asnumpy(),
        **{f"param.{k}": v for k, v in params.items()},
    )
except Exception as exc:
    print("skip InstanceNorm2d", exc)

# -- recurrent ------------------------------------------------------------------------------
for i, (cls, kwargs, shape) in enumerate(
    [
        (
            "LSTM",
            dict(input_size=3, hidden_size=4, num_layers=2, batch_first=True, bidirectional=True),
            (2, 5, 3),
        ),
        (
            "GRU",
            dict(input_size=3, hidden_size=4, num_layers=2, batch_first=True, bidirectional=True),
            (2, 5, 3),
        ),
        ("RNN", dict(input_size=3, hidden_size=4, num_layers=1), (5, 2, 3)),
        ("LSTM", dict(input_size=3, hidden_size=2, has_bias=False), (4, 2, 3)),
        ("GRU", dict(input_size=3, hidden_size=4, num_layers=1, bidirectional=True), (4, 2, 3)),
    ]
):
    net = getattr(nn, cls)(**kwargs)
    params = set_params(net)
    x = rand(*shape)
    out = net(Tensor(x))
    hidden = out[1]
    arrays = dict(x=x, out=out[0].asnumpy())
    if isinstance(hidden, tuple):
        arrays.update(h=hidden[0].asnumpy(), c=hidden[1].asnumpy())
    else:
        arrays.update(h=hidden.asnumpy())
    add(
        "rnn",
        f"rnn{i}",
        dict(cls=cls, kwargs=kwargs, names=list(params)),
        **arrays,
        **{f"param.{k}": v for k, v in params.items()},
    )

for i, (cls, kwargs) in enumerate(
    [("LSTMCell", {}), ("GRUCell", {}), ("RNNCell", {}), ("RNNCell", dict(nonlinearity="relu"))]
):
    net = getattr(nn, cls)(3, 4, **kwargs)
    params = set_params(net)
    x, h = rand(2, 3), rand(2, 4)
    if cls == "LSTMCell":
        c = rand(2, 4)
        hy, cy = net(Tensor(x), (Tensor(h), Tensor(c)))
        arrays = dict(c=c, hy=hy.asnumpy(), cy=cy.asnumpy())
    else:
        arrays = dict(hy=net(Tensor(x), Tensor(h)).asnumpy())
    add(
        "rnncell",
        f"cell{i}",
        dict(cls=cls, kwargs=kwargs),
        x=x,
        h=h,
        **arrays,
        **{f"param.{k}": v for k, v in params.items()},
    )

# -- attention / transformer ----------------------------------------------------------------
for i, (kwargs, qshape, kvshape, extra) in enumerate(
    [
        (dict(embed_dim=4, num_heads=2), (3, 2, 4), (5, 2, 4), {}),
        (dict(embed_dim=4, num_heads=1, batch_first=True, kdim=3, vdim=2), (2, 3, 4), None, {}),
        (
            dict(embed_dim=4, num_heads=2),
            (3, 2, 4),
            (5, 2, 4),
            dict(average_attn_weights=False, key_padding_mask=True),
        ),
    ]
):
    net = nn.MultiheadAttention(**kwargs)
    params = set_params(net)
    q = rand(*qshape)
    if kvshape is None:
        k, v = rand(2, 5, 3), rand(2, 5, 2)
    else:
        k, v = rand(*kvshape), rand(*kvshape)
    call = {}
    if extra.get("key_padding_mask"):
        mask = np.zeros((2, 5), bool)
        mask[0, -2:] = True
        call["key_padding_mask"] = Tensor(mask)
    if "average_attn_weights" in extra:
        call["average_attn_weights"] = extra["average_attn_weights"]
    out, weights = net(Tensor(q), Tensor(k), Tensor(v), **call)
    add(
        "mha",
        f"mha{i}",
        dict(kwargs=kwargs, extra=extra),
        q=q,
        k=k,
        v=v,
        out=out.asnumpy(),
        weights=weights.asnumpy(),
        **{f"param.{n}": val for n, val in params.items()},
    )

for i, (kwargs, shape) in enumerate(
    [
        (dict(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0), (3, 2, 4)),
        (
            dict(
                d_model=4,
                nhead=2,
                dim_feedforward=8,
                dropout=0.0,
                norm_first=True,
                batch_first=True,
                activation="gelu",
            ),
            (2, 3, 4),
        ),
    ]
):
    net = nn.TransformerEncoderLayer(**kwargs)
    net.set_train(False)
    params = set_params(net)
    x = rand(*shape)
    add(
        "encoder",
        f"enc{i}",
        dict(kwargs=kwargs),
        x=x,
        out=net(Tensor(x)).asnumpy(),
        **{f"param.{n}": val for n, val in params.items()},
    )

net = nn.TransformerDecoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0)
net.set_train(False)
params = set_params(net)
tgt, memory = rand(3, 2, 4), rand(5, 2, 4)
add(
    "decoder",
    "dec0",
    dict(kwargs=dict(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0)),
    tgt=tgt,
    memory=memory,
    out=net(Tensor(tgt), Tensor(memory)).asnumpy(),
    **{f"param.{n}": val for n, val in params.items()},
)

# -- activations ----------------------------------------------------------------------------
x = np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4)
for name, kwargs in [
    ("ReLU", {}),
    ("ReLU6", {}),
    ("LeakyReLU", {}),
    ("LeakyReLU", dict(alpha=0.1)),
    ("PReLU", {}),
    ("GELU", {}),
    ("GELU", dict(approximate=False)),
    ("FastGelu", {}),
    ("SiLU", {}),
    ("Sigmoid", {}),
    ("Tanh", {}),
    ("Softmax", {}),
    ("Softmax", dict(axis=0)),
    ("LogSoftmax", {}),
    ("Softmin", {}),
    ("ELU", {}),
    ("ELU", dict(alpha=1.0)),
    ("SeLU", {}),
    ("CELU", dict(alpha=2.0)),
    ("HSwish", {}),
    ("HSigmoid", {}),
    ("Hardtanh", {}),
    ("Hardtanh", dict(min_val=-0.5, max_val=2.0)),
    ("Softsign", {}),
    ("Mish", {}),
    ("LogSigmoid", {}),
    ("Tanhshrink", {}),
    ("HShrink", {}),
    ("SoftShrink", dict(lambd=1.0)),
    ("GLU", {}),
    ("GLU", dict(axis=0)),
]:
    xin = x[:2] if (name == "GLU" and kwargs) else x
    net = getattr(nn, name)(**kwargs)
    add(
        "activation",
        f"act_{name}_{len(CASES)}",
        dict(cls=name, kwargs=kwargs),
        x=xin,
        out=net(Tensor(xin)).asnumpy(),
    )

# -- padding, upsampling, embedding ---------------------------------------------------------
x = rand(1, 2, 3, 4)
for name, args in [
    ("ZeroPad2d", (1,)),
    ("ZeroPad2d", ((1, 0, 2, 1),)),
    ("ConstantPad2d", ((1, 2, 0, 1), 0.5)),
    ("ReflectionPad2d", ((1, 2, 2, 1),)),
    ("ReplicationPad2d", (2,)),
    ("ConstantPad1d", ((2, 1), -1.0)),
    ("ReflectionPad1d", (2,)),
    ("ReplicationPad1d", ((1, 3),)),
]:
    net = getattr(nn, name)(*args)
    xin = x[0] if "1d" in name else x
    add(
        "padding",
        f"pad_{name}_{len(CASES)}",
        dict(cls=name, args=args),
        x=xin,
        out=net(Tensor(xin)).asnumpy(),
    )

x = rand(1, 2, 3, 4)
for kwargs in [
    dict(size=(6, 8)),
    dict(scale_factor=2.0, mode="bilinear"),
    dict(size=(5, 7), mode="bilinear", align_corners=True),
    dict(size=(5, 7), mode="bilinear", align_corners=False),
    dict(size=(6, 5), mode="bicubic", align_corners=True),
    dict(size=(6, 5), mode="bicubic", align_corners=False),
    dict(size=(5, 3)),
]:
    net = nn.Upsample(**kwargs)
    try:
        net(Tensor(x))
    except Exception as exc:
        print("skip", kwargs, exc)
        continue
    add("upsample", f"up{len(CASES)}", dict(kwargs=kwargs), x=x, out=net(Tensor(x)).asnumpy())
x1 = rand(2, 3, 5)
for kwargs in [
    dict(size=8, mode="linear", align_corners=True),
    dict(size=8, mode="linear", align_corners=False),
    dict(scale_factor=2.0, mode="nearest"),
]:
    try:
        out = ops.interpolate(Tensor(x1), **kwargs).asnumpy()
    except Exception as exc:
        print("skip", kwargs, exc)
        continue
    add("upsample", f"up{len(CASES)}", dict(kwargs=kwargs), x=x1, out=out)

x = rand(1, 8, 2, 3)
add("pixel_shuffle", "ps", {}, x=x, out=nn.PixelShuffle(2)(Tensor(x)).asnumpy())

x = rand(1, 2, 4, 5)
out = ops.unfold(Tensor(x), kernel_size=2, dilation=1, padding=1, stride=2).asnumpy()
add("unfold", "unfold", dict(kernel_size=2, dilation=1, padding=1, stride=2), x=x, out=out)
cols = rand(1, 8, 9)
out = ops.fold(
    Tensor(cols), Tensor(np.array([4, 5], np.int32)), kernel_size=2, dilation=1, padding=1, stride=2
).asnumpy()
add(
    "fold",
    "fold",
    dict(output_size=[4, 5], kernel_size=2, dilation=1, padding=1, stride=2),
    x=cols,
    out=out,
)

# -- losses ---------------------------------------------------------------------------------
logits = rand(4, 5)
labels = np.array([1, 0, 4, 2], np.int32)
labels_ignore = np.array([1, -100, 4, 2], np.int32)
probs = np.abs(rand(4, 5))
probs = probs / probs.sum(1, keepdims=True)
weight = np.abs(rand(5)) + 0.1
for kwargs, lab in [
    ({}, labels),
    (dict(reduction="sum"), labels),
    (dict(reduction="none"), labels),
    ({}, labels_ignore),
    (dict(ignore_index=2), labels),
    (dict(label_smoothing=0.1), labels),
    (dict(weight=True), labels),
    (dict(weight=True, label_smoothing=0.2), labels_ignore),
    (dict(weight=True, reduction="none"), labels_ignore),
    ({}, probs),
    (dict(label_smoothing=0.1), probs),
    (dict(weight=True), probs),
    (dict(weight=True, reduction="none", label_smoothing=0.1), probs),
]:
    call = dict(kwargs)
    if call.get("weight"):
        call["weight"] = Tensor(weight)
    out = nn.CrossEntropyLoss(**call)(Tensor(logits), Tensor(lab)).asnumpy()
    add(
        "ce",
        f"ce{len(CASES)}",
        dict(kwargs=kwargs),
        logits=logits,
        labels=lab,
        weight=weight,
        out=out,
    )
x3, lab3 = rand(2, 3, 4), np.array([[0, 2, 1, 1], [2, 2, 0, 1]], np.int32)
out = nn.CrossEntropyLoss()(Tensor(x3), Tensor(lab3)).asnumpy()
add("ce", "ce_nd", dict(kwargs={}), logits=x3, labels=lab3, weight=weight[:3], out=out)

logp = np.log(probs)
for kwargs in [
    {},
    dict(reduction="none"),
    dict(weight=True, ignore_index=1),
    dict(weight=True, reduction="sum"),
]:
    call = dict(kwargs)
    if call.get("weight"):
        call["weight"] = Tensor(weight)
    out = nn.NLLLoss(**call)(Tensor(logp), Tensor(labels)).asnumpy()
    add(
        "nll",
        f"nll{len(CASES)}",
        dict(kwargs=kwargs),
        logits=logp,
        labels=labels,
        weight=weight,
        out=out,
    )

a, b = rand(3, 4), rand(3, 4)
p = 1 / (1 + np.exp(-a))
t01 = (rand(3, 4) > 0).astype(np.float32)
sign = np.where(rand(3) > 0, 1, -1).astype(np.float32)
sign34 = np.where(rand(3, 4) > 0, 1, -1).astype(np.float32)
w34 = np.abs(rand(3, 4))
LOSSES = [
    ("L1Loss", {}, (a, b)),
    ("L1Loss", dict(reduction="none"), (a, b)),
    ("MSELoss", {}, (a, b)),
    ("MSELoss", dict(reduction="sum"), (a, b)),
    ("SmoothL1Loss", {}, (a, b)),
    ("SmoothL1Loss", dict(beta=0.5, reduction="mean"), (a, b)),
    ("HuberLoss", {}, (a, b)),
    ("HuberLoss", dict(delta=0.5, reduction="none"), (a, b)),
    ("BCELoss", {}, (p, t01)),
    ("BCELoss", dict(reduction="none", weight=w34), (p, t01)),
    ("BCEWithLogitsLoss", {}, (a, t01)),
    ("BCEWithLogitsLoss", dict(pos_weight=np.abs(rand(4)), weight=w34), (a, t01)),
    ("KLDivLoss", {}, (np.log(p), 1 - p)),
    ("KLDivLoss", dict(reduction="none"), (np.log(p), 1 - p)),
    ("KLDivLoss", dict(reduction="sum"), (np.log(p), 1 - p)),
    ("MarginRankingLoss", dict(margin=0.3), (a, b, sign34)),
    ("CosineEmbeddingLoss", dict(margin=0.2), (a, b, sign)),
    ("CosineEmbeddingLoss", dict(reduction="none"), (a, b, sign)),
    ("SoftMarginLoss", {}, (a, sign34)),
    ("MultiMarginLoss", {}, (a, np.array([0, 3, 1], np.int64))),
    ("PoissonNLLLoss", {}, (a, np.abs(b))),
]
for name, kwargs, inputs in LOSSES:
    call = {k: (Tensor(v) if isinstance(v, np.ndarray) else v) for k, v in kwargs.items()}
    try:
        out = getattr(nn, name)(**call)(*[Tensor(v) for v in inputs]).asnumpy()
    except Exception as exc:
        print("skip", name, kwargs, exc)
        continue
    arrays = {f"in{j}": v for j, v in enumerate(inputs)}
    arrays.update({f"kw.{k}": v for k, v in kwargs.items() if isinstance(v, np.ndarray)})
    plain = {k: v for k, v in kwargs.items() if not isinstance(v, np.ndarray)}
    add(
        "loss",
        f"loss{len(CASES)}",
        dict(cls=name, kwargs=plain, n_inputs=len(inputs)),
        out=out,
        **arrays,
    )

for kwargs in [dict(sparse=True, reduction="mean"), dict(sparse=False), dict(sparse=True)]:
    lab = labels if kwargs["sparse"] else np.eye(5, dtype=np.float32)[labels]
    out = nn.SoftmaxCrossEntropyWithLogits(**kwargs)(Tensor(logits), Tensor(lab)).asnumpy()
    add(
        "loss",
        f"loss{len(CASES)}",
        dict(cls="SoftmaxCrossEntropyWithLogits", kwargs=kwargs, n_inputs=2),
        out=out,
        in0=logits,
        in1=lab,
    )

with open(os.path.join(HERE, "layers.json"), "w") as f:
    json.dump(CASES, f, indent=0)
np.savez_compressed(os.path.join(HERE, "layers.npz"), **ARRAYS)
print(len(CASES), "cases,", len(ARRAYS), "arrays")
