"""``SequentialCell`` and ``CellList``: Cells that hold an ordered list of Cells.

Children are named by index (``0``, ``1`` ...), so their Parameters are named
``0.weight`` inside the container and ``layers.0.weight`` once the container
is assigned as ``layers``.

Example:
    >>> from mindjax import nn
    >>> seq = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 2))
    >>> len(seq), [p.name for p in seq.trainable_params()][:2]
    (3, ['0.weight', '0.bias'])
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Iterable, Iterator

from mindjax.cells.cell import Cell


def _check_cell(where: str, index: Any, cell: Any) -> None:
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{where}', each element must be a Cell, but element {index} is "
                        f"{type(cell).__name__}")


class _CellSequence(Cell):
    """Shared list behaviour of SequentialCell and CellList."""

    def _items(self) -> list[Cell]:
        return list(self._cells.values())

    def _rebuild(self, cells: list[Cell]) -> None:
        for key in list(self._cells):
            self.__dict__.pop(key, None)
        self._cells.clear()
        for i, cell in enumerate(cells):
            setattr(self, str(i), cell)

    def _index(self, index: int) -> int:
        n = len(self._cells)
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"For '{type(self).__name__}', index must be an int or slice, got "
                            f"{type(index).__name__}")
        if not -n <= index < n:
            raise IndexError(f"For '{type(self).__name__}', index {index} is out of range for "
                             f"{n} cells")
        return index % n

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return type(self)(self._items()[index])
        return self._items()[self._index(index)]

    def __setitem__(self, index: int, cell: Cell) -> None:
        _check_cell(type(self).__name__, index, cell)
        # The child keeps its key (an OrderedDict-built SequentialCell names them itself).
        setattr(self, list(self._cells)[self._index(index)], cell)

    def __delitem__(self, index: Any) -> None:
        items = self._items()
        if isinstance(index, slice):
            del items[index]
        else:
            del items[self._index(index)]
        self._rebuild(items)

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._items())

    def append(self, cell: Cell) -> "_CellSequence":
        """Add ``cell`` at the end."""
        _check_cell(type(self).__name__, len(self), cell)
        setattr(self, str(len(self._cells)), cell)
        return self

    def extend(self, cells: Iterable[Cell]) -> "_CellSequence":
        """Add each of ``cells`` at the end."""
        for cell in cells:
            self.append(cell)
        return self

    def insert(self, index: int, cell: Cell) -> None:
        """Insert ``cell`` before position ``index``."""
        _check_cell(type(self).__name__, index, cell)
        items = self._items()
        items.insert(index, cell)
        self._rebuild(items)


class SequentialCell(_CellSequence):
    """Calls its Cells in order, each on the previous one's output.

    Arguments:
        *args: Cells, a list of Cells, or an ``OrderedDict`` of name to Cell.
    """

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, cell in args[0].items():
                _check_cell("SequentialCell", name, cell)
                setattr(self, name, cell)
            return
        cells = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
        for i, cell in enumerate(cells):
            _check_cell("SequentialCell", i, cell)
            setattr(self, str(i), cell)

    def construct(self, input_data: Any) -> Any:
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data


def _refuse_cell_dict(cell: Any) -> None:
    """CellList's constructor and ``extend`` take no CellDict (``append``/``insert`` do), as in MindSpore."""
    from mindjax.cells.cell_dict import CellDict  # cell_dict imports this module
    if isinstance(cell, CellDict):
        raise TypeError(f"For 'CellList', the type of cell can not be CellDict, but got {type(cell).__name__}.")


class CellList(_CellSequence):
    """A list of Cells; ``construct`` is not defined (iterate it in the parent).

    Arguments:
        args: a list of Cells.
    """

    def __init__(self, args: Iterable[Cell] | None = None, **_: Any) -> None:
        super().__init__()
        for i, cell in enumerate(args or []):
            _check_cell("CellList", i, cell)
            _refuse_cell_dict(cell)
            setattr(self, str(i), cell)

    def extend(self, cells: list[Cell]) -> "CellList":
        """Add each of ``cells`` (a list) at the end.

        Raises:
            TypeError: ``cells`` is not a list, or holds something that is not a Cell.
        """
        if not isinstance(cells, list):
            raise TypeError(f"For 'CellList', the new cells wanted to append should be instance of list, "
                            f"but got {type(cells).__name__}.")
        for cell in cells:
            _refuse_cell_dict(cell)
        super().extend(cells)
        return self

    def __iadd__(self, cells: list[Cell]) -> "CellList":
        """``cell_list += [cells]``: :meth:`extend` in place."""
        return self.extend(cells)
