"""nn's optimizers, one module per job: ``_optimizer`` (the :class:`Optimizer` base: parameter
groups, slot Parameters, the step), ``_algorithms`` (SGD, Momentum, Adam, ...), ``_adafactor``,
``_optax_transforms`` (MindSpore's SGD and Adam kernels as optax transformations; one update
per ScanCell stack is in ``cellax/_stacked.py``), ``_protected_api`` (MindSpore's helpers for
user-defined optimizers), ``_checks`` and ``_init_args`` (``opt_init_args_register``)."""

from ._adafactor import AdaFactor
from ._algorithms import SGD, Adadelta, Adagrad, Adam, AdamWeightDecay, Lamb, Momentum, RMSProp
from ._optimizer import Optimizer

__all__ = [
    "Optimizer",
    "SGD",
    "Momentum",
    "Adam",
    "AdamWeightDecay",
    "RMSProp",
    "Adagrad",
    "Adadelta",
    "Lamb",
    "AdaFactor",
]
