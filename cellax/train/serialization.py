"""``mindspore.train.serialization``: checkpoint I/O (the same functions as at cellax's top
level) and ``export``.

Examples:
    >>> import cellax as ms
    >>> from cellax.train.serialization import load_param_into_net
    >>> load_param_into_net is ms.load_param_into_net
    True
"""

from .._serialization import *  # noqa: F403
from .._serialization import __all__ as _names
from .._serialization import _load_dismatch_prefix_params as _load_dismatch_prefix_params
from .._serialization import _update_param as _update_param

__all__ = [*_names, "export"]


def export(net, *inputs, file_name, file_format="MINDIR", **kwargs):
    """Export a network to MindSpore's deployment formats (MINDIR, AIR, ONNX).

    Raises:
        NotImplementedError: Always: these formats are MindSpore graph IR, which cellax
            (on JAX/XLA) does not produce. Use ``jax.export`` on ``cellax.jit``-compiled
            functions for a StableHLO artifact, or save a checkpoint.
    """
    raise NotImplementedError(
        f"For 'export', the '{file_format}' format is MindSpore graph IR, which cellax does not "
        "produce. Save a checkpoint (save_checkpoint) or export StableHLO with jax.export."
    )
