"""``mindspore.train.metrics``: the metrics ``Model.eval`` computes.

Examples:
    >>> import numpy as np
    >>> from cellax.train import metrics
    >>> metric = metrics.Top1CategoricalAccuracy()
    >>> metric.update(np.array([[0.1, 0.9], [0.8, 0.2]]), np.array([1, 1]))
    >>> metric.eval()
    0.5
"""

from ..nn._metrics import *  # noqa: F403
from ..nn._metrics import __all__ as __all__
