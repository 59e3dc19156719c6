"""Containers: SequentialCell, CellList, CellDict."""

from __future__ import annotations

from collections import OrderedDict

from ._cell import Cell

__all__ = ["SequentialCell", "CellList", "CellDict"]


def _check_cell(api: str, cell) -> None:
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{api}', every element must be a Cell, but got {type(cell).__name__}.")


class SequentialCell(Cell):
    """Cells called in order, each on the previous one's output.

    Args:
        *args (Union[Cell, list[Cell], OrderedDict]): The Cells, as arguments, one list, or an
            OrderedDict of name -> Cell.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> seq = nn.SequentialCell(nn.Dense(3, 2), nn.ReLU())
        >>> seq(ms.ops.ones((1, 3))).shape
        (1, 2)
        >>> len(seq)
        2
    """

    def __init__(self, *args) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, cell in args[0].items():
                _check_cell("SequentialCell", cell)
                self.insert_child_to_cell(name, cell)
        else:
            cells = args[0] if len(args) == 1 and isinstance(args[0], list) else args
            for index, cell in enumerate(cells):
                _check_cell("SequentialCell", cell)
                self.insert_child_to_cell(str(index), cell)

    def __getitem__(self, index):
        cells = list(self._cells.values())
        if isinstance(index, slice):
            return SequentialCell(cells[index])
        if isinstance(index, str):
            return self._cells[index]
        if not -len(cells) <= index < len(cells):
            raise IndexError(f"For 'SequentialCell', index {index} is out of range {len(cells)}.")
        return cells[index]

    def __setitem__(self, index, cell) -> None:
        _check_cell("SequentialCell", cell)
        key = list(self._cells)[index]
        self._cells[key] = cell

    def __delitem__(self, index) -> None:
        keys = list(self._cells)
        for key in keys[index] if isinstance(index, slice) else [keys[index]]:
            del self._cells[key]
        self._renumber()

    def _renumber(self) -> None:
        cells = list(self._cells.values())
        self._cells.clear()
        for i, cell in enumerate(cells):
            self._cells[str(i)] = cell

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def __bool__(self) -> bool:
        return True

    def append(self, cell):
        """Add ``cell`` at the end; return self."""
        _check_cell("SequentialCell.append", cell)
        self.insert_child_to_cell(str(len(self)), cell)
        return self

    def insert(self, index: int, cell) -> None:
        """Insert ``cell`` before position ``index``."""
        _check_cell("SequentialCell.insert", cell)
        cells = list(self._cells.values())
        cells.insert(index, cell)
        self._cells.clear()
        for i, item in enumerate(cells):
            self.insert_child_to_cell(str(i), item) if item is cell else self._cells.__setitem__(str(i), item)

    def construct(self, input_data):
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data


class CellList(Cell):
    """A list of Cells, registered as children (indexable, appendable).

    Examples:
        >>> from cellax import nn
        >>> layers = nn.CellList([nn.Dense(2, 2), nn.ReLU()])
        >>> layers.append(nn.Dense(2, 1))
        >>> len(layers)
        3
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(**kwargs)
        if args:
            self.extend(args[0])

    def __getitem__(self, index):
        cells = list(self._cells.values())
        if isinstance(index, slice):
            return CellList(cells[index])
        if not -len(cells) <= index < len(cells):
            raise IndexError(f"For 'CellList', index {index} is out of range {len(cells)}.")
        return cells[index]

    def __setitem__(self, index, cell) -> None:
        _check_cell("CellList", cell)
        key = list(self._cells)[index]
        self._set_child(key, cell)

    def __delitem__(self, index) -> None:
        keys = list(self._cells)
        for key in keys[index] if isinstance(index, slice) else [keys[index]]:
            del self._cells[key]
        cells = list(self._cells.values())
        self._cells.clear()
        for i, cell in enumerate(cells):
            self._cells[str(i)] = cell

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def __bool__(self) -> bool:
        return True

    def append(self, cell) -> None:
        """Add ``cell`` at the end."""
        _check_cell("CellList.append", cell)
        self.insert_child_to_cell(str(len(self)), cell)

    def extend(self, cells):
        """Add every Cell of ``cells``; return self."""
        for cell in cells:
            self.append(cell)
        return self

    def insert(self, index: int, cell) -> None:
        """Insert ``cell`` before position ``index``."""
        _check_cell("CellList.insert", cell)
        cells = list(self._cells.values())
        cells.insert(index, cell)
        self._cells.clear()
        for i, item in enumerate(cells):
            if item is cell:
                self.insert_child_to_cell(str(i), item)
            else:
                self._cells[str(i)] = item

    def construct(self, *inputs):
        raise NotImplementedError("CellList is a container; call its elements instead.")


class CellDict(Cell):
    """A dict of Cells, registered as children.

    Examples:
        >>> from cellax import nn
        >>> d = nn.CellDict({"dense": nn.Dense(2, 2)})
        >>> list(d.keys())
        ['dense']
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(**kwargs)
        if args:
            self.update(args[0])

    def __getitem__(self, key: str):
        return self._cells[key]

    def __setitem__(self, key: str, cell) -> None:
        _check_cell("CellDict", cell)
        self.insert_child_to_cell(key, cell) if key not in self._cells else self._set_child(key, cell)

    def __delitem__(self, key: str) -> None:
        del self._cells[key]

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells)

    def __contains__(self, key) -> bool:
        return key in self._cells

    def keys(self):
        return self._cells.keys()

    def values(self):
        return self._cells.values()

    def items(self):
        return self._cells.items()

    def clear(self) -> None:
        self._cells.clear()

    def pop(self, key: str):
        return self._cells.pop(key)

    def update(self, cells) -> None:
        items = cells.items() if hasattr(cells, "items") else cells
        for key, cell in items:
            self[key] = cell

    def construct(self, *inputs):
        raise NotImplementedError("CellDict is a container; call its elements instead.")
