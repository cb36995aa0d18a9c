"""``CellDict``: a Cell that holds named child Cells, as MindSpore's ``nn.CellDict``.

Children are named by their keys, so their Parameters are named ``key.weight`` inside the
dict and ``blocks.key.weight`` once it is assigned as ``blocks``.

Example:
    >>> from mindjax import nn
    >>> d = nn.CellDict({"conv": nn.Conv2d(1, 2, 3), "relu": nn.ReLU()})
    >>> list(d.keys()), [p.name for p in d.trainable_params()]
    (['conv', 'relu'], ['conv.weight'])
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Iterable, Iterator

from mindjax.cells.cell import Cell
from mindjax.cells.containers import CellList, SequentialCell

# Attributes every MindSpore Cell carries: MindSpore refuses them as keys, so scripts that run there never use them.
_MINDSPORE_CELL_ATTRIBUTES = frozenset({
    "_scope", "_cells", "_params", "_params_list", "_primitives", "_auto_prefix", "_phase", "_id", "_buffers",
    "_param_prefix", "_in_strategy", "_out_strategy", "_amp_level", "_compiled", "_create_time", "_init_flag",
})


class CellDict(Cell):
    """An ordered dict of name to Cell; ``construct`` is not defined (index it in the parent).

    Arguments:
        args: optional, a dict (insertion order kept), an ``OrderedDict``, another CellDict, or an
            iterable of ``(key, Cell)`` pairs.

    Raises:
        TypeError: a key that is not a str, or a value that is not a Cell or is itself a container.
        KeyError: a key that contains ``'.'``, is empty, or names an attribute of the dict itself.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        if len(args) > 1:
            raise TypeError(f"For 'CellDict', expected at most one positional argument, got {len(args)}")
        if kwargs:
            raise TypeError(f"For 'CellDict', unexpected keyword arguments {sorted(kwargs)}")
        if args and args[0] is not None:
            self.update(args[0])

    def _check(self, key: Any, cell: Any) -> None:
        if not isinstance(key, str):
            raise TypeError(f"For 'CellDict', keys must be str, got {type(key).__name__} ({key!r})")
        if not key or "." in key:
            raise KeyError(f"For 'CellDict', a key must be a non-empty str without '.', got {key!r}")
        if key not in self._cells and (key in _MINDSPORE_CELL_ATTRIBUTES or hasattr(self, key)):
            raise KeyError(f"For 'CellDict', the key {key!r} names an attribute of CellDict itself")
        if not isinstance(cell, Cell):
            raise TypeError(f"For 'CellDict', the value of key {key!r} must be a Cell, got {type(cell).__name__}")
        if isinstance(cell, (CellDict, CellList, SequentialCell)):
            raise TypeError(f"For 'CellDict', the value of key {key!r} must not be a CellDict, CellList or "
                            f"SequentialCell, got {type(cell).__name__}")

    def __getitem__(self, key: str) -> Cell:
        if key not in self._cells:
            raise KeyError(f"For 'CellDict', no Cell under key {key!r}; keys: {list(self._cells)}")
        return self._cells[key]

    def __setitem__(self, key: str, cell: Cell) -> None:
        self._check(key, cell)
        setattr(self, key, cell)

    def __delitem__(self, key: str) -> None:
        if key not in self._cells:
            raise KeyError(f"For 'CellDict', no Cell under key {key!r}")
        self._cells.pop(key)
        self.__dict__.pop(key, None)

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._cells))

    def __contains__(self, key: object) -> bool:
        return key in self._cells

    def clear(self) -> None:
        """Remove every Cell."""
        for key in list(self._cells):
            del self[key]

    def pop(self, key: str) -> Cell:
        """Remove the Cell under ``key`` and return it."""
        cell = self[key]
        del self[key]
        return cell

    def keys(self) -> Iterable[str]:
        """The keys, in insertion order."""
        return list(self._cells.keys())

    def values(self) -> Iterable[Cell]:
        """The Cells, in insertion order."""
        return list(self._cells.values())

    def items(self) -> Iterable[tuple[str, Cell]]:
        """``(key, Cell)`` pairs, in insertion order."""
        return list(self._cells.items())

    def update(self, cells: Any) -> None:
        """Add or replace Cells from a mapping, a CellDict or an iterable of ``(key, Cell)`` pairs."""
        if isinstance(cells, (dict, OrderedDict, CellDict)):
            pairs = list(cells.items())
        else:
            pairs = []
            for i, item in enumerate(cells):
                if not isinstance(item, (tuple, list)) or len(item) != 2:
                    raise TypeError(f"For 'CellDict', element {i} of the iterable must be a (key, Cell) pair, "
                                    f"got {item!r}")
                pairs.append((item[0], item[1]))
        for key, cell in pairs:
            self[key] = cell

    def construct(self, *inputs: Any) -> Any:
        raise NotImplementedError("For 'CellDict', construct is not defined: call its Cells by key instead")
