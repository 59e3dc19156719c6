"""PyTorch eager twins of the benchmark networks: same weights, data, loss and SGD as cellax.

Each twin is built from a cellax network, whose parameter values it copies by name (cellax's
``nn.Dense`` weight is (out, in) like ``torch.nn.Linear``'s, ``nn.Conv2d``'s is OIHW like
``torch.nn.Conv2d``'s, so no value is transposed). A :class:`TorchStepper` runs PyTorch's
eager training step: ``zero_grad``, forward, mean softmax cross entropy, ``loss.backward()``,
``torch.optim.SGD(lr=LR).step()``.

PyTorch is optional: :func:`torch_available` is False where it does not import, and the
workloads then leave its rows out. It runs with ``torch.set_num_threads(os.cpu_count())``
(its default on most machines; ``CELLAX_BENCH_TORCH_THREADS=n`` sets another count, e.g. 1 on
a machine whose cores other processes keep busy, where OpenMP's barriers stall PyTorch's
threads), see :func:`torch_note`.
"""

from __future__ import annotations

import os

import numpy as np

from benchmarks._models import LR

__all__ = [
    "torch_available",
    "torch_note",
    "torch_threads",
    "copy_weights",
    "torch_mlp",
    "torch_lenet",
    "torch_transformer",
    "TorchStepper",
    "torch_infer",
]

_TORCH = None


def torch_available() -> bool:
    """PyTorch imports here (any failure to import means no)."""
    global _TORCH
    if _TORCH is None:
        try:
            import torch

            torch.set_num_threads(torch_threads())
            _TORCH = True
        except Exception:  # noqa: BLE001 - a broken install is as good as none
            _TORCH = False
    return _TORCH


def torch_threads() -> int:
    """PyTorch's intra-op threads: ``CELLAX_BENCH_TORCH_THREADS``, else ``os.cpu_count()``."""
    return int(os.environ.get("CELLAX_BENCH_TORCH_THREADS") or os.cpu_count() or 1)


def torch_note() -> str:
    import torch

    how = (
        "CELLAX_BENCH_TORCH_THREADS"
        if os.environ.get("CELLAX_BENCH_TORCH_THREADS")
        else "os.cpu_count()"
    )
    note = (
        f"torch {torch.__version__} eager on CPU with {torch.get_num_threads()} intra-op "
        f"threads ({how}); same weights, data, loss (mean softmax cross entropy) and SGD as "
        f"cellax, first losses checked equal"
    )
    if torch.get_num_threads() > 1 and hasattr(os, "getloadavg"):
        note += (
            f". Load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end: "
            f"PyTorch's threads meet at a barrier in every op, so other busy processes slow "
            f"its rows far more than cellax's (CELLAX_BENCH_TORCH_THREADS=1 avoids that)"
        )
    return note


def copy_weights(module, net, rename=lambda name: name) -> None:
    """Copy a cellax network's trainable parameters into a torch module, by name.

    ``rename`` maps a cellax parameter name to the torch one. Every parameter on both sides
    must be matched, with the same shape.
    """
    import torch

    theirs = dict(module.named_parameters())
    ours = {rename(p.name): np.array(p.asnumpy()) for p in net.trainable_params()}
    if sorted(theirs) != sorted(ours):
        raise AssertionError(f"parameters differ: torch {sorted(theirs)}, cellax {sorted(ours)}")
    with torch.no_grad():
        for name, value in ours.items():
            if tuple(theirs[name].shape) != value.shape:
                raise AssertionError(f"{name}: torch {tuple(theirs[name].shape)}, {value.shape}")
            theirs[name].copy_(torch.from_numpy(value))


def torch_mlp(net, sizes):
    """W1/W2's network (``benchmarks._models.cellax_mlp(sizes)``): Flatten, Linear/ReLU pairs."""
    from torch import nn

    layers = [nn.Flatten()]
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        layers.append(nn.Linear(a, b))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    model = nn.Sequential(*layers)
    # cellax: dense_relu_sequential.<k>.weight, k counting the ReLUs; torch: <k + 1>.weight
    copy_weights(model, net, _shift_index("dense_relu_sequential."))
    return model


def _shift_index(prefix: str):
    def rename(name: str) -> str:
        index, rest = name[len(prefix) :].split(".", 1)
        return f"{int(index) + 1}.{rest}"

    return rename


def torch_lenet(net):
    """LeNet-5 as MindSpore's model zoo writes it (``w7_cnn_train_jit.cellax_lenet``).

    ``nn.Conv2d`` of MindSpore has no bias by default, so neither has the twin's.
    """
    from torch import nn

    class LeNet5(nn.Module):
        def __init__(self, num_class=10, num_channel=1):
            super().__init__()
            self.conv1 = nn.Conv2d(num_channel, 6, 5, padding=0, bias=False)
            self.conv2 = nn.Conv2d(6, 16, 5, padding=0, bias=False)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, num_class)
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()

        def forward(self, x):
            x = self.max_pool2d(self.relu(self.conv1(x)))
            x = self.max_pool2d(self.relu(self.conv2(x)))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)

    model = LeNet5()
    copy_weights(model, net)
    return model


_TRANSFORMER_NAMES = {
    "dense1.": "linear1.",
    "dense2.": "linear2.",
    ".gamma": ".weight",
    ".beta": ".bias",
}


def _transformer_rename(name: str) -> str:
    for ours, theirs in _TRANSFORMER_NAMES.items():
        name = name.replace(ours, theirs)
    return name


def torch_transformer(net, d_model: int, heads: int, ff: int, layers: int, classes: int = 10):
    """W8's network: ``nn.TransformerEncoder`` (post-norm, ReLU, dropout 0, batch_first),
    mean over the sequence, ``Linear(d_model, classes)``."""
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            layer = nn.TransformerEncoderLayer(
                d_model, heads, dim_feedforward=ff, dropout=0.0, batch_first=True
            )
            self.encoder = nn.TransformerEncoder(
                layer, num_layers=layers, enable_nested_tensor=False
            )
            self.head = nn.Linear(d_model, classes)

        def forward(self, x):
            return self.head(self.encoder(x).mean(1))

    model = Net()
    copy_weights(model, net, _transformer_rename)
    return model


class TorchStepper:
    """``stepper()`` runs one eager PyTorch training step and returns the loss (a tensor).

    PyTorch on CPU runs synchronously: when the call returns, the step is done.
    """

    def __init__(self, model, x, y, lr: float = LR):
        import torch

        self.torch = torch
        self.model = model.train()
        self.x = torch.from_numpy(np.ascontiguousarray(x))
        self.y = torch.from_numpy(np.asarray(y, dtype=np.int64))
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        self.loss_fn = torch.nn.CrossEntropyLoss()

    def __call__(self):
        self.optimizer.zero_grad()
        loss = self.loss_fn(self.model(self.x), self.y)
        loss.backward()
        self.optimizer.step()
        return loss.detach()


def torch_infer(model, x):
    """``infer()``: one forward pass of ``model`` on ``x`` under ``torch.no_grad()``."""
    import torch

    model = model.eval()
    xt = torch.from_numpy(np.ascontiguousarray(x))

    def infer():
        with torch.no_grad():
            return model(xt)

    return infer
