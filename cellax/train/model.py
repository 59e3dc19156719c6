"""``mindspore.train.model``: the module where MindSpore defines ``Model``."""

from ._model import Model as Model

__all__ = ["Model"]
