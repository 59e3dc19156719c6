"""Containers: SequentialCell, CellList, CellDict.

Children are named by position (``'0'``, ``'1'``, ...) or by key, and, as in MindSpore, the
Parameters of a child are renamed ``<container prefix><key>.<path>`` when it is added, and
renumbered when a child is removed or inserted.
"""

from __future__ import annotations

from collections import OrderedDict

from ._cell import Cell

__all__ = ["SequentialCell", "CellList", "CellDict"]


def _check_cell(api: str, cell) -> None:
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{api}', each cell must be a Cell, but got {type(cell).__name__}.")


def _check_index(api: str, length: int, index, inserting: bool = False) -> int:
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(
            f"For '{api}', the type of 'index' must be int, but got {type(index).__name__}."
        )
    high = length + 1 if inserting else length
    if not -length <= index < high:
        bracket = "]" if inserting else ")"
        raise IndexError(
            f"For '{api}', the value of 'index' must be in range [{-length}, {length}{bracket}, "
            f"but got {index}."
        )
    return index % length if length and index != length else index


class _ListBase(Cell):
    """Shared list behaviour: positional keys, renaming, len/iter/bool."""

    def _renamed(self, key: str, cell: Cell) -> None:
        if self._auto_prefix:
            cell.update_parameters_name(f"{self._name_prefix}{key}.")

    def _relayout(self, cells: list) -> None:
        """Store ``cells`` under keys 0..n-1 (keeping named keys of SequentialCell)."""
        self._cells.clear()
        for index, (key, cell) in enumerate(cells):
            new_key = str(index) if key is None or key.isdigit() else key
            if new_key != key:
                self._renamed(new_key, cell)
            self._cells[new_key] = cell

    def __delitem__(self, index) -> None:
        api = type(self).__name__
        items = list(self._cells.items())
        if isinstance(index, slice):
            removed = set(range(len(items))[index])
        else:
            removed = {_check_index(api, len(items), index)}
        kept = [item for i, item in enumerate(items) if i not in removed]
        self._relayout(kept)

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def __bool__(self) -> bool:
        return len(self._cells) != 0

    def insert(self, index: int, cell: Cell) -> None:
        """Insert ``cell`` before position ``index``.

        Raises:
            TypeError: If ``index`` is not an int or ``cell`` not a Cell.
            IndexError: If ``index`` is out of ``[-len, len]``.
        """
        api = type(self).__name__
        position = _check_index(api, len(self), index, inserting=True)
        _check_cell(api, cell)
        items = list(self._cells.items())
        items.insert(position, (None, cell))
        self._relayout(items)

    def append(self, cell: Cell) -> None:
        """Add ``cell`` at the end.

        Raises:
            TypeError: If ``cell`` is not a Cell.
        """
        _check_cell(type(self).__name__, cell)
        key = str(len(self))
        self._renamed(key, cell)
        self._cells[key] = cell


class SequentialCell(_ListBase):
    """Cells called in order, each on the previous one's output.

    Args:
        args (Union[Cell, list[Cell], OrderedDict]): The Cells, as arguments, one list, or an
            OrderedDict of name -> Cell.

    Raises:
        TypeError: If an argument is not a Cell, list or OrderedDict.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> seq = nn.SequentialCell(nn.Dense(3, 2), nn.ReLU())
        >>> seq(ms.ops.ones((1, 3))).shape
        (1, 2)
        >>> [p.name for p in seq.get_parameters()]
        ['0.weight', '0.bias']
        >>> print(seq)
        SequentialCell(
          (0): Dense(input_channels=3, output_channels=2, has_bias=True)
          (1): ReLU()
        )

    Differences from MindSpore: ``insert`` and ``extend`` are cellax additions.

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.SequentialCell.html
    """

    def __init__(self, *args) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            items = list(args[0].items())
        elif len(args) == 1 and isinstance(args[0], list):
            items = [(str(i), cell) for i, cell in enumerate(args[0])]
        elif len(args) == 1 and not isinstance(args[0], Cell):
            raise TypeError(
                f"For 'SequentialCell', 'args[0]' must be a Cell, list or OrderedDict, but got "
                f"{type(args[0]).__name__}."
            )
        else:
            items = [(str(i), cell) for i, cell in enumerate(args)]
        for key, cell in items:
            self.insert_child_to_cell(key, cell)
            cell.update_parameters_name(key + ".")

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._cells.items())[index]))
        index = _check_index("SequentialCell", len(self), index)
        return list(self._cells.values())[index]

    def __setitem__(self, index, cell) -> None:
        _check_cell("SequentialCell", cell)
        key = list(self._cells)[_check_index("SequentialCell", len(self), index)]
        cell.update_parameters_name(f"{self._name_prefix}{key}.")
        self._cells[key] = cell

    def extend(self, cells):
        """Append every Cell of the list ``cells``; return self.

        Raises:
            TypeError: If ``cells`` is not a list of Cells.
        """
        if not isinstance(cells, list):
            raise TypeError(
                f"For 'SequentialCell', 'cells' must be a list, but got {type(cells).__name__}."
            )
        for cell in cells:
            self.append(cell)
        return self

    def _renamed(self, key: str, cell: Cell) -> None:
        cell.update_parameters_name(f"{self._name_prefix}{key}.")

    def construct(self, input_data):
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data


class CellList(_ListBase):
    """A list of Cells, registered as children (indexable, appendable).

    Args:
        args (list): Optional list of Cells.
        auto_prefix (bool): Rename the Parameters of added Cells ``'<index>.<path>'``.
            Default: ``True``.

    Raises:
        TypeError: If the argument is not a list of Cells.

    Examples:
        >>> from cellax import nn
        >>> layers = nn.CellList([nn.Dense(2, 2), nn.ReLU()])
        >>> layers.append(nn.Dense(2, 1))
        >>> len(layers), [p.name for p in layers.get_parameters()]
        (3, ['0.weight', '0.bias', '2.weight', '2.bias'])

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.CellList.html
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(auto_prefix=kwargs.get("auto_prefix", True))
        if len(args) == 1:
            self.extend(args[0])

    def __getitem__(self, index):
        if isinstance(index, slice):
            return CellList(list(self._cells.values())[index])
        return self._cells[str(_check_index("CellList", len(self), index))]

    def __setitem__(self, index, cell) -> None:
        index = _check_index("CellList", len(self), index)
        _check_cell("CellList", cell)
        self._renamed(str(index), cell)
        self._cells[str(index)] = cell

    def __iadd__(self, cells):
        return self.extend(cells)

    def extend(self, cells):
        """Append every Cell of the list ``cells``; return self.

        Raises:
            TypeError: If ``cells`` is not a list, or holds a non-Cell or a CellDict.
        """
        if not isinstance(cells, list):
            raise TypeError(
                f"For 'CellList', the Cells to append must be a list, but got "
                f"{type(cells).__name__}."
            )
        for cell in cells:
            if isinstance(cell, CellDict):
                raise TypeError("For 'CellList', a CellDict can not be an element.")
            self.append(cell)
        return self

    def construct(self, *inputs):
        raise NotImplementedError(
            "For 'CellList', a CellList is a container and can not be called; call its "
            "elements instead."
        )


class CellDict(Cell):
    """A dict of Cells, registered as children by key.

    Args:
        args (Union[dict, list]): Optional mapping (or list of pairs) key -> Cell.
        auto_prefix (bool): Rename the Parameters of added Cells ``'<key>.<path>'``.
            Default: ``True``.

    Raises:
        TypeError: If a key is not a str or a value is not a Cell (or is a container).
        KeyError: If a key is empty, has a '.', or is an attribute of Cell.

    Examples:
        >>> from cellax import nn
        >>> d = nn.CellDict({"dense": nn.Dense(2, 2)})
        >>> list(d.keys()), [p.name for p in d.get_parameters()]
        (['dense'], ['dense.weight', 'dense.bias'])

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.CellDict.html
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(auto_prefix=kwargs.get("auto_prefix", True))
        if len(args) == 1:
            self.update(args[0])

    def __getitem__(self, key: str):
        return self._cells[key]

    def __setitem__(self, key: str, cell) -> None:
        if not isinstance(key, str):
            raise TypeError(f"For 'CellDict', a key must be a str, but got {type(key).__name__}.")
        if not key or "." in key:
            raise KeyError(f"For 'CellDict', a key must be non-empty with no '.', but got {key!r}.")
        if hasattr(self, key) and key not in self._cells:
            raise KeyError(f"For 'CellDict', the key {key!r} is an attribute of Cell.")
        if not isinstance(cell, Cell):
            raise TypeError(
                f"For 'CellDict', the type of cell must be Cell, but got {type(cell).__name__}."
            )
        if isinstance(cell, (CellDict, CellList, SequentialCell)):
            raise TypeError(
                f"For 'CellDict', a value can not be a CellDict, CellList or SequentialCell, but "
                f"got {type(cell).__name__}."
            )
        if self._auto_prefix:
            cell.update_parameters_name(f"{self._name_prefix}{key}.")
        self._cells[key] = cell

    def __delitem__(self, key: str) -> None:
        del self._cells[key]

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells)

    def __contains__(self, key) -> bool:
        return key in self._cells

    def keys(self):
        """The keys."""
        return self._cells.keys()

    def values(self):
        """The Cells."""
        return self._cells.values()

    def items(self):
        """The (key, Cell) pairs."""
        return self._cells.items()

    def clear(self) -> None:
        """Remove every Cell."""
        self._cells.clear()

    def pop(self, key: str):
        """Remove the Cell ``key`` and return it."""
        value = self[key]
        del self[key]
        return value

    def update(self, cells) -> None:
        """Add the (key, Cell) pairs of a mapping or an iterable of pairs."""
        items = cells.items() if hasattr(cells, "items") else cells
        for key, cell in items:
            self[key] = cell

    def construct(self, *inputs):
        raise NotImplementedError(
            "For 'CellDict', a CellDict is a container and can not be called; call its "
            "elements instead."
        )
