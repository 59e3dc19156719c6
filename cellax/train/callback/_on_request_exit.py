"""``mindspore.train.callback._on_request_exit``: the module where MindSpore defines
``OnRequestExit``."""

from .._callback_exit import OnRequestExit

__all__ = ["OnRequestExit"]
