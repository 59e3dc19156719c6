"""``mindspore.nn.utils``: ``no_init_parameters``.

Examples:
    >>> from cellax import nn
    >>> from cellax.nn.utils import no_init_parameters
    >>> with no_init_parameters():
    ...     net = nn.Dense(2, 1)
    >>> net.weight.shape
    (1, 2)
"""

from __future__ import annotations

import contextlib

__all__ = ["no_init_parameters"]


@contextlib.contextmanager
def no_init_parameters():
    """Build networks inside this context when a checkpoint will replace their Parameters.

    MindSpore defers the initialisation of the Parameters created inside (to save host
    memory) until a checkpoint is loaded or ``Cell.init_parameters_data()`` runs.

    Differences from MindSpore: cellax initialises the Parameters as usual, so the network
    is complete at once; loading a checkpoint replaces the values, with the same result.

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.utils.no_init_parameters.html
    """
    yield
