"""``cellax.experimental.optim``: the learning-rate schedulers of MindSpore 2.10's
``mindspore.experimental.optim`` and its ``Optimizer`` base (the one ``cellax.mint.optim``'s
optimizers derive from).

Differences from MindSpore: the older ``experimental.optim`` optimizers (Adam, AdamW, SGD,
Adadelta, Adagrad, ASGD, Adamax, RMSprop, Rprop, RAdam, NAdam) are not provided; use
``cellax.mint.optim``'s.

Examples:
    >>> from cellax.experimental import optim
    >>> sorted(optim.__all__)
    ['Optimizer', 'lr_scheduler']
"""

from ...mint.optim import Optimizer as Optimizer
from . import lr_scheduler as lr_scheduler

__all__ = ["Optimizer", "lr_scheduler"]
