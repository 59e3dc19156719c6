"""``cellax.mint.optim``: MindSpore 2.10's ``mindspore.mint.optim`` (AdamW, Adam, SGD)."""

from ._algorithms import SGD as SGD
from ._algorithms import Adam as Adam
from ._algorithms import AdamW as AdamW
from ._algorithms import FusedAdamW as FusedAdamW
from ._optimizer import Optimizer as Optimizer

__all__ = ["Adam", "AdamW", "FusedAdamW", "Optimizer", "SGD"]
