"""``FileWriter``: rows of dicts into MindRecord shard files (``mindspore.mindrecord.FileWriter``).

The files use MindJAX's own layout (see :mod:`mindjax.mindrecord._format`):
they round-trip through ``mindjax.dataset.MindDataset`` and
:class:`~mindjax.mindrecord.FileReader`, but MindSpore cannot read them, nor
MindJAX MindSpore's. Rows are written to temporary files as they come;
``commit`` adds the footers and index files and moves everything into
place at once, so a crash never leaves a half-written dataset under the
final names.
"""
from __future__ import annotations

import os
import sqlite3
import warnings
from typing import Any

from mindjax.mindrecord._format import (FORMAT_VERSION, MAGIC, ShardFile, check_schema, encode_record,
                                        is_blob_field, row_error, write_footer)
from mindjax.mindrecord.common.exceptions import (MRMAddSchemaError, MRMDefineIndexError, MRMGetMetaError,
                                                  MRMInvalidHeaderSizeError, MRMInvalidPageSizeError,
                                                  MRMOpenForAppendError, ParamTypeError, ParamValueError)

__all__ = ["FileWriter"]

_MIN_SHARDS, _MAX_SHARDS = 1, 1000
_MIN_HEADER, _MAX_HEADER = 16 * 1024, 128 * 1024 * 1024
_MIN_PAGE, _MAX_PAGE = 32 * 1024, 256 * 1024 * 1024


def shard_paths(file_name: str, shard_num: int) -> list[str]:
    """MindSpore's shard file names: ``file_name`` alone, or ``file_name`` + a zero-padded shard number."""
    if shard_num == 1:
        return [file_name]
    width = len(str(shard_num - 1))
    return [f"{file_name}{str(i).rjust(width, '0')}" for i in range(shard_num)]


class FileWriter:
    """Write user rows into MindRecord files (MindJAX's layout, not byte-compatible with MindSpore's).

    Arguments:
        file_name: the file name (with ``shard_num > 1`` the shard number is appended).
        shard_num: the number of files, in [1, 1000]; each ``write_raw_data`` call
            spreads its rows over them in near-equal contiguous parts.
        overwrite: replace existing files of the same names.

    Raises:
        ParamValueError: when an argument is invalid.

    Example:
        >>> import os, tempfile, numpy as np
        >>> from mindjax.mindrecord import FileWriter
        >>> path = os.path.join(tempfile.mkdtemp(), "demo.mindrecord")
        >>> writer = FileWriter(path, shard_num=1, overwrite=True)
        >>> writer.add_schema({"label": {"type": "int32"}, "data": {"type": "float32", "shape": [-1]}}, "demo")
        >>> writer.write_raw_data([{"label": 1, "data": np.ones(3, np.float32)}])
        >>> writer.commit()
    """

    def __init__(self, file_name: str, shard_num: int = 1, overwrite: bool = False) -> None:
        if not isinstance(file_name, (str, os.PathLike)) or not os.fspath(file_name):
            raise ParamValueError(f"Parameter file_name must be a non-empty str, got {file_name!r}.")
        file_name = os.fspath(file_name)
        if os.path.isdir(file_name):
            raise ParamValueError(f"Parameter file_name: {file_name} is a directory, not a file.")
        if shard_num is None:
            raise ParamValueError("Parameter shard_num is None.")
        if not isinstance(shard_num, int) or isinstance(shard_num, bool):
            raise ParamValueError("Parameter shard_num's type is not int.")
        if not _MIN_SHARDS <= shard_num <= _MAX_SHARDS:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between {_MIN_SHARDS} and "
                                  f"{_MAX_SHARDS}.")
        if not isinstance(overwrite, bool):
            raise ParamValueError("Parameter overwrite's type is not bool.")
        self._file_name = file_name
        self._shard_num = shard_num
        self._paths = shard_paths(file_name, shard_num)
        self._overwrite = overwrite
        self._schema: dict[str, dict[str, Any]] | None = None
        self._desc: str | None = None
        self._index_fields: list[str] | None = None
        self._header_size = 1 << 24
        self._page_size = 1 << 25
        self._files: list[Any] | None = None
        self._offsets: list[list[int]] = []
        self._flushed = False
        self._append = False

    # -- schema ----------------------------------------------------------------------------
    @classmethod
    def open_for_append(cls, file_name: str) -> "FileWriter":
        """A writer that adds rows to the committed MindRecord files ``file_name`` belongs to.

        Arguments:
            file_name: one file of the set (as written by ``FileWriter``).

        Returns:
            The writer; its schema and index fields are the files'.

        Raises:
            MRMOpenForAppendError: when the file is not a committed MindJAX MindRecord file.
        """
        if not isinstance(file_name, str) or not os.path.isfile(file_name):
            raise MRMOpenForAppendError(f"MindRecord could not open for append: '{file_name}' does not exist.")
        try:
            first = ShardFile(file_name)
        except RuntimeError as err:
            raise MRMOpenForAppendError(f"MindRecord could not open for append: {err}") from err
        header = first.header
        folder = os.path.dirname(os.path.abspath(file_name))
        paths = [os.path.join(folder, name) for name in header["shard_files"]]
        writer = cls.__new__(cls)
        writer.__init__(paths[0] if len(paths) == 1 else header["file_name"], len(paths), overwrite=True)
        writer._paths = paths
        writer._schema = first.schema
        writer._desc = header.get("desc")
        writer._index_fields = list(header.get("index_fields", []))
        writer._append = True
        writer._open()
        for k, path in enumerate(paths):
            shard = ShardFile(path)
            data = shard.raw_records()
            writer._files[k].write(data)
            base = writer._offsets[k][-1]
            writer._offsets[k].extend(int(o - shard.offsets[0] + base) for o in shard.offsets[1:])
        return writer

    def add_schema(self, content: dict[str, Any], desc: str | None = None) -> None:
        """Describe the fields of every row.

        Arguments:
            content: ``{name: {"type": t}}`` with ``t`` one of int32, int64, float32,
                float64, string, bytes; or ``{name: {"type": t, "shape": [...]}}`` for
                numpy arrays of a numeric ``t`` (one dimension may be ``-1``).
            desc: a description stored with the schema.

        Raises:
            MRMInvalidSchemaError: when the schema is malformed.
            MRMAddSchemaError: when a schema was already added.
        """
        if self._schema is not None:
            raise MRMAddSchemaError("Failed to add schema: the writer already has a schema.")
        self._schema = check_schema(content)
        self._desc = desc

    def add_index(self, index_fields: list[str]) -> None:
        """Choose the fields written to the ``.db`` index (default: every scalar field but bytes).

        Arguments:
            index_fields: names of int, float or string fields of the schema.

        Raises:
            ParamTypeError: when ``index_fields`` is not a non-empty list of str.
            MRMDefineIndexError: when a field is a bytes or array field, or unknown.
            MRMGetMetaError: when no schema was added yet.
        """
        if not index_fields or not isinstance(index_fields, list):
            raise ParamTypeError("index_fields", "list")
        if self._schema is None:
            raise MRMGetMetaError("Failed to get meta info: add a schema before add_index.")
        for field in index_fields:
            if not isinstance(field, str):
                raise ParamTypeError("index field", "str")
            if field not in self._schema:
                raise MRMDefineIndexError(f"Failed to set field {field} since it is not in the schema "
                                          f"{sorted(self._schema)}.")
            if is_blob_field(self._schema[field]):
                raise MRMDefineIndexError(f"Failed to set field {field} since it's not primitive type.")
        self._index_fields = list(index_fields)

    def set_header_size(self, header_size: int) -> None:
        """Accepted for compatibility: MindJAX's header has no fixed size. Checked as MindSpore checks it.

        Arguments:
            header_size: bytes, in [16 KB, 128 MB].
        """
        if not isinstance(header_size, int) or not _MIN_HEADER <= header_size <= _MAX_HEADER:
            raise MRMInvalidHeaderSizeError(f"Failed to set header size: {header_size!r} must be an int in "
                                            f"[{_MIN_HEADER}, {_MAX_HEADER}].")
        self._header_size = header_size

    def set_page_size(self, page_size: int) -> None:
        """Accepted for compatibility: MindJAX's files have no pages. Checked as MindSpore checks it.

        Arguments:
            page_size: bytes, in [32 KB, 256 MB].
        """
        if not isinstance(page_size, int) or not _MIN_PAGE <= page_size <= _MAX_PAGE:
            raise MRMInvalidPageSizeError(f"Failed to set page size: {page_size!r} must be an int in "
                                          f"[{_MIN_PAGE}, {_MAX_PAGE}].")
        self._page_size = page_size

    # -- writing ---------------------------------------------------------------------------
    def _tmp(self, path: str) -> str:
        return f"{path}.mjx-tmp-{os.getpid()}"

    def _open(self) -> None:
        if self._files is not None:
            return
        if not self._overwrite:
            existing = [p for p in self._paths if os.path.exists(p) or os.path.exists(p + ".db")]
            if existing:
                raise RuntimeError(f"Invalid file, mindrecord files already exist. Please check file path: "
                                   f"{existing[0]}; pass overwrite=True to replace them.")
        for path in self._paths:
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                raise RuntimeError(f"Invalid file, the folder of '{path}' does not exist.")
        self._files = []
        for path in self._paths:
            f = open(self._tmp(path), "wb")
            f.write(MAGIC)
            self._files.append(f)
        self._offsets = [[len(MAGIC)] for _ in self._paths]

    def write_raw_data(self, raw_data: list[dict[str, Any]], parallel_writer: bool = False) -> None:
        """Check rows against the schema and write them.

        As in MindSpore, a row that does not match the schema is dropped with a
        warning that says why; the others are written.

        Arguments:
            raw_data: a list of dicts, one per row, keyed by the schema's fields.
            parallel_writer: accepted for compatibility (rows are written in this process).

        Raises:
            ParamTypeError: when ``raw_data`` is not a list of dicts.
            RuntimeError: after ``commit`` (use ``open_for_append``), or without a schema.
        """
        if not isinstance(parallel_writer, bool):
            raise TypeError("The parameter `parallel_writer` must be bool.")
        if self._flushed:
            raise RuntimeError("Not allowed to call `write_raw_data` on flushed MindRecord files. When creating new "
                               "MindRecord files, please remove `commit` before `write_raw_data`. In other cases, "
                               "when appending to existing MindRecord files, please call `open_for_append` first "
                               "and then `write_raw_data`.")
        if not isinstance(raw_data, list):
            raise ParamTypeError("raw_data", "list")
        for row in raw_data:
            if not isinstance(row, dict):
                raise ParamTypeError("raw_data item", "dict")
        if self._schema is None:
            raise RuntimeError("For 'FileWriter.write_raw_data', call add_schema first.")
        self._open()
        good = []
        for i, row in enumerate(raw_data):
            why = row_error(self._schema, row, i)
            if why is None:
                good.append(row)
            else:
                warnings.warn(f"For 'FileWriter.write_raw_data', dropped a row: {why}", stacklevel=2)
        # Contiguous near-equal parts, the extra rows to the shards holding the fewest so far.
        counts = [len(o) - 1 for o in self._offsets]
        base, extra = divmod(len(good), self._shard_num)
        order = sorted(range(self._shard_num), key=lambda k: (counts[k], k))
        sizes = [base + (1 if k in order[:extra] else 0) for k in range(self._shard_num)]
        start = 0
        for k, size in enumerate(sizes):
            for row in good[start:start + size]:
                record = encode_record(self._schema, row)
                self._files[k].write(record)
                self._offsets[k].append(self._offsets[k][-1] + len(record))
            start += size

    def commit(self) -> None:
        """Finish the files: footers, ``.db`` index files, then move them into place.

        Raises:
            RuntimeError: without a schema.
        """
        if self._schema is None:
            raise RuntimeError("For 'FileWriter.commit', call add_schema first: a MindRecord file needs a schema.")
        if self._flushed:
            return
        self._open()
        index = self._index_fields
        if index is None:
            index = [n for n, spec in self._schema.items() if not is_blob_field(spec)]
        names = [os.path.basename(p) for p in self._paths]
        for k, (path, f) in enumerate(zip(self._paths, self._files)):
            header = {"format": "mindjax-mindrecord", "version": FORMAT_VERSION, "schema": self._schema,
                      "desc": self._desc, "index_fields": index, "shard_id": k, "shard_files": names,
                      "file_name": self._file_name, "header_size": self._header_size,
                      "page_size": self._page_size}
            write_footer(f, self._offsets[k], header)
            f.flush()
            os.fsync(f.fileno())
            f.close()
        self._files = None
        for path in self._paths:
            self._write_index(path, index)
        for path in self._paths:
            os.replace(self._tmp(path), path)
            os.replace(self._tmp(path + ".db"), path + ".db")
        self._flushed = True

    def _write_index(self, path: str, index: list[str]) -> None:
        """The ``.db`` file: an sqlite table of the index fields per row (MindSpore's MindPage reads one too)."""
        shard = ShardFile(self._tmp(path))
        db_tmp = self._tmp(path + ".db")
        if os.path.exists(db_tmp):
            os.remove(db_tmp)
        sql_type = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL", "string": "TEXT"}
        connection = sqlite3.connect(db_tmp)
        try:
            columns = ", ".join(f'"{n}" {sql_type[self._schema[n]["type"]]}' for n in index)
            connection.execute(f"CREATE TABLE INDEXES (ROW_ID INTEGER PRIMARY KEY{', ' if columns else ''}{columns})")
            marks = ", ".join("?" for _ in range(len(index) + 1))
            rows = ((i, *(shard.record(i)[n].item() for n in index)) for i in range(shard.rows))
            connection.executemany(f"INSERT INTO INDEXES VALUES ({marks})", rows)
            connection.commit()
        finally:
            connection.close()

    def __del__(self) -> None:
        files = getattr(self, "_files", None)
        if files:
            for path, f in zip(self._paths, files):
                try:
                    f.close()
                    os.remove(self._tmp(path))
                except OSError:
                    pass
