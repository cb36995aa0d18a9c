"""``FileReader``: the rows of MindRecord files as dicts (``mindspore.mindrecord.FileReader``)."""
from __future__ import annotations

import os
from typing import Any, Iterator

from mindjax.mindrecord._format import ShardFile
from mindjax.mindrecord.common.exceptions import ParamValueError

__all__ = ["FileReader", "open_shards", "MindRecordFileError"]


class MindRecordFileError(RuntimeError, ValueError):
    """A MindRecord file that is missing or unreadable.

    ``FileReader`` reports it as MindSpore does (``RuntimeError``), ``MindDataset``'s
    validator as a ``ValueError``; this is both.
    """


def open_shards(file_name: Any, who: str) -> list[ShardFile]:
    """The shard files of a MindRecord set, in shard order.

    Arguments:
        file_name: one file of the set (its siblings are found through its header),
            or a list of files read exactly as given.
        who: the caller's name for errors.
    """
    if isinstance(file_name, (str, os.PathLike)):
        path = os.fspath(file_name)
        if not os.path.isfile(path):
            raise MindRecordFileError(f"For '{who}', the MindRecord file '{path}' does not exist or is not a file")
        first = ShardFile(path)
        folder = os.path.dirname(os.path.abspath(path))
        shards = []
        for name in first.header["shard_files"]:
            sibling = os.path.join(folder, name)
            if os.path.abspath(sibling) == os.path.abspath(path):
                shards.append(first)
            elif not os.path.isfile(sibling):
                raise MindRecordFileError(f"For '{who}', '{path}' belongs to a set of {len(first.header['shard_files'])} "
                                 f"files, but '{sibling}' is missing")
            else:
                shards.append(ShardFile(sibling))
        return shards
    if isinstance(file_name, (list, tuple)) and file_name and all(isinstance(f, (str, os.PathLike))
                                                                  for f in file_name):
        for f in file_name:
            if not os.path.isfile(os.fspath(f)):
                raise MindRecordFileError(f"For '{who}', the MindRecord file '{os.fspath(f)}' does not exist or is "
                                          "not a file")
        shards = [ShardFile(os.fspath(f)) for f in file_name]
        for s in shards[1:]:
            if s.schema != shards[0].schema:
                raise ValueError(f"For '{who}', '{s.path}' has schema {s.schema}, but '{shards[0].path}' has "
                                 f"{shards[0].schema}")
        return shards
    raise ValueError(f"For '{who}', 'dataset_files' must be a str or a non-empty list of str, got {file_name!r}")


class FileReader:
    """Read the rows of MindRecord files written by :class:`~mindjax.mindrecord.FileWriter`.

    Arguments:
        file_name: one file of a set (all its shards are read), or a list of files.
        num_consumer: accepted for compatibility (rows are read in this thread).
        columns: the fields to return (default: all).
        operator: reserved, must be ``None``.

    Example:
        >>> # reader = FileReader("data.mindrecord"); for row in reader.get_next(): ...
    """

    def __init__(self, file_name: Any, num_consumer: int = 4, columns: list[str] | None = None,
                 operator: Any = None) -> None:
        if not isinstance(num_consumer, int) or num_consumer < 1:
            raise ParamValueError(f"Parameter num_consumer must be a positive int, got {num_consumer!r}.")
        self._shards = open_shards(file_name, "FileReader")
        fields = list(self._shards[0].schema)
        if columns is not None:
            if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
                raise ParamValueError(f"Parameter columns must be a list of str, got {columns!r}.")
            missing = [c for c in columns if c not in fields]
            if missing:
                raise ParamValueError(f"Parameter columns {missing} are not in the schema {fields}.")
        self._columns = columns or fields
        del operator

    def get_next(self) -> Iterator[dict[str, Any]]:
        """Yield each row as a dict, with MindSpore's value types.

        Scalars come back as Python ``int``/``float``, strings as ``str``, bytes
        as ``bytes`` and arrays as numpy arrays of their schema dtype.
        """
        schema = self._shards[0].schema
        for shard in self._shards:
            for i in range(shard.rows):
                row = shard.record(i)
                yield {c: _python_value(schema[c], row[c]) for c in self._columns}

    def schema(self) -> dict[str, dict[str, Any]]:
        """The schema, as given to ``add_schema`` (fields sorted by name)."""
        return {k: dict(v) for k, v in self._shards[0].schema.items()}

    def len(self) -> int:
        """The number of rows in all the files."""
        return sum(s.rows for s in self._shards)

    def close(self) -> None:
        """Release the files."""
        self._shards = []


def _python_value(spec: dict[str, Any], value: Any) -> Any:
    if "shape" in spec:
        return value
    if spec["type"] == "bytes":
        return value.tobytes()
    return value.item()
