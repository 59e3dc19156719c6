"""nn.Cell, split by concern: ``_cell`` (attribute routing, registration, traversal, modes, the
call pipeline), ``_hooks``, ``_precision`` (to_float), ``_access``, ``_state_dict``,
``_compile`` and ``_parallel`` (mixins of :class:`Cell`)."""

from ._cell import Cell, CellType, IncompatibleKeys

__all__ = ["Cell", "IncompatibleKeys"]

_INTERNAL = (CellType,)
