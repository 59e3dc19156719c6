"""``mindspore.parallel.function``: ``reshard``."""

from __future__ import annotations

from .. import _parallel_state
from ..ops._impl.layout import Layout
from ..ops._impl.sharding import constrain

__all__ = ["reshard"]


def reshard(tensor, layout):
    """Give ``tensor`` the layout ``layout`` (a sharding constraint; XLA moves the data).

    Args:
        tensor (Tensor): The tensor.
        layout (Layout): A called Layout (``layout("dp", "None")``).

    Returns:
        Tensor, the same values.

    Raises:
        TypeError: If ``layout`` is not a Layout.
        ValueError: If the layout does not fit the tensor or the device count.

    Examples:
        >>> import cellax as ms
        >>> from cellax.parallel import Layout, reshard
        >>> layout = Layout((1,), ("dp",))
        >>> print(reshard(ms.Tensor([1.0, 2.0]), layout("dp")))
        [1. 2.]

    Differences from MindSpore: outside SEMI_AUTO/AUTO_PARALLEL over several devices it
    returns the tensor unchanged (MindSpore supports it on Ascend only).
    """
    if not isinstance(layout, Layout):
        raise TypeError(f"For 'reshard', 'layout' must be a Layout, but got {type(layout)}.")
    if not _parallel_state.global_view():
        return tensor
    return constrain(tensor, layout.sharding("reshard", tensor.shape))
