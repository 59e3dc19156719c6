"""Row tensors: a Tensor that is one row of a larger array, sliced when first read."""

from __future__ import annotations

import jax

from ._tensor import Tensor, _flatten, _new, _unflatten

__all__ = ["RowOf", "row_of"]


class RowOf(Tensor):
    """Row ``row`` of the array ``base``, sliced when first read: the gradient of a row-view
    Parameter (a ScanCell block's), so that a compiled gradient can hand back the stacked
    gradient once instead of one sliced copy per block (``jit`` returns the base when every
    row of it is returned). Otherwise a Tensor like any other."""

    __slots__ = ("base", "row", "_sliced")

    @property
    def _value(self):
        sliced = self._sliced
        if sliced is None:
            sliced = self._sliced = self.base[self.row]
        return sliced

    @_value.setter
    def _value(self, array) -> None:  # an in-place write: the Tensor no longer views ``base``
        self._sliced = array
        self.base = None


def row_of(base, row: int) -> Tensor:
    """A Tensor of row ``row`` of ``base``, sliced when read (see :class:`RowOf`)."""
    tensor_ = _new(RowOf)
    tensor_.base, tensor_.row, tensor_._sliced = base, row, None
    return tensor_


jax.tree_util.register_pytree_node(RowOf, _flatten, _unflatten)
