"""Rows, build contexts and argument checks shared by every dataset node.

A row is a tuple of numpy arrays, one per column, that remembers the source
sample it came from, so that an error far down the pipeline can still name
the sample. A build context carries the seed and the epoch: every random
choice in a pipeline is a function of (seed, epoch, node position, row).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Sequence

import numpy as np

from mindjax.dataset._grain import derive_seed

__all__ = ["Row", "BuildContext", "to_row", "column_value", "as_column_list", "check_positive_int", "ArgTypeError",
           "DataError"]


class ArgTypeError(TypeError, ValueError):
    """An argument of the wrong type: a ``TypeError`` as MindSpore's validators raise, also caught as ``ValueError``."""


class DataError(RuntimeError, ValueError):
    """Data that does not fit the pipeline (column counts, shapes, files, shard options).

    MindSpore reports these from its C++ pipeline as ``RuntimeError``; this is also a ``ValueError``.
    """


class Row(tuple):
    """A tuple of column arrays with ``index``: the source sample it came from (or ``None``)."""

    def __new__(cls, values: Sequence[Any], index: int | None = None) -> "Row":
        row = super().__new__(cls, values)
        row.index = index
        return row

    def __reduce__(self) -> Any:
        # Rows cross process boundaries in grain's worker queues; keep the index.
        return (Row, (tuple(self), self.index))


@dataclasses.dataclass(frozen=True)
class BuildContext:
    """What a pipeline build depends on besides its structure.

    Arguments:
        seed: the dataset seed at iterator creation.
        epoch: the epoch path: ``(e,)`` at the top, longer under nested ``repeat``.
    """

    seed: int
    epoch: tuple[int, ...] = (0,)

    def seed_at(self, path: tuple[int, ...]) -> int:
        """The 32-bit seed of the random node at ``path`` in this epoch."""
        return derive_seed(self.seed, len(self.epoch), *self.epoch, 7919, *path)

    def nested(self, repetition: int) -> "BuildContext":
        """The context of one repetition inside a ``repeat``."""
        return BuildContext(self.seed, self.epoch + (int(repetition),))


def to_row(item: Any, column_names: Sequence[str], who: str, index: int) -> Row:
    """Turn what a source returned into a :class:`Row`, checking the column count.

    Arguments:
        item: an array, a scalar, or a tuple with one value per column.
        column_names: the expected columns.
        who: the dataset name for errors.
        index: the sample index for errors and for the row.

    Returns:
        The row of numpy arrays.
    """
    n = len(column_names)
    if isinstance(item, tuple) or (isinstance(item, list) and n > 1 and len(item) == n):
        values = tuple(item)
    else:
        values = (item,)
    if len(values) != n:
        raise DataError(f"For '{who}', the source returned {len(values)} columns at sample index {index}, "
                        f"but column_names {list(column_names)} names {n}")
    return Row(tuple(column_value(v) for v in values), index)


def column_value(value: Any) -> Any:
    """One column's value as the pipeline carries it: a numpy array, or a ``dict`` kept as a Python object.

    As in MindSpore 2.10, a ``dict`` stays a dict (its own values, lists
    included, untouched until the iterator converts them); everything else
    becomes a numpy array with the dtype numpy gives it (``float64`` and
    ``int64`` stay 64-bit). A ``mindjax`` Tensor is read back to numpy.
    """
    if isinstance(value, (np.ndarray, dict)):
        return value
    if hasattr(value, "asnumpy") and not isinstance(value, (list, tuple)):
        return np.asarray(value.asnumpy())
    return np.asarray(value)


def as_column_list(value: Any, who: str, arg: str) -> list[str] | None:
    """``None``, a name, or a list of names, as a list (``None`` stays ``None``)."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        if len(set(value)) != len(value):
            raise ValueError(f"For '{who}', '{arg}' has duplicate names: {list(value)}")
        return list(value)
    raise ArgTypeError(f"For '{who}', '{arg}' must be a str or a non-empty list of str, got {value!r}")


def check_positive_int(value: Any, who: str, arg: str, allow_none: bool = True) -> int | None:
    """Validate an optional positive int argument."""
    if value is None and allow_none:
        return None
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise ArgTypeError(f"For '{who}', '{arg}' must be a positive int, got {value!r}")
    if value <= 0:
        raise ValueError(f"For '{who}', '{arg}' must be a positive int, got {value!r}")
    return int(value)
