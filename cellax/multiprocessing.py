"""``mindspore.multiprocessing``: Python's :mod:`multiprocessing`, under MindSpore's name.

MindSpore wraps ``Process`` and ``Pool`` to run its C++ runtime's fork callbacks; cellax has no
such runtime, so these are the standard library's own classes.

Differences from MindSpore: JAX is not fork-safe once it has started; prefer the ``spawn``
start method (``multiprocessing.set_start_method("spawn")``) when the parent uses JAX.

MindSpore: https://github.com/mindspore-ai/mindspore/blob/master/mindspore/python/mindspore/multiprocessing/__init__.py
"""

import multiprocessing as _mp
from multiprocessing import *  # noqa: F401,F403
from multiprocessing.pool import Pool as Pool  # noqa: F401

__all__ = list(_mp.__all__)
