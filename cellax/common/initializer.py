"""``mindspore.common.initializer``."""

from .._initializer import *  # noqa: F401,F403
