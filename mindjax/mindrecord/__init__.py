"""MindRecord: write rows into files and read them back (``mindspore.mindrecord``).

:class:`FileWriter` writes, :class:`FileReader` and ``mindjax.dataset.MindDataset``
read. MindJAX uses a layout of its own (see :mod:`mindjax.mindrecord._format`):
the API and behaviour are MindSpore's, the bytes on disk are not, so files move
between MindJAX programs but not between MindJAX and MindSpore.

Example:
    >>> import os, tempfile, numpy as np
    >>> from mindjax.mindrecord import FileWriter, FileReader
    >>> path = os.path.join(tempfile.mkdtemp(), "x.mindrecord")
    >>> w = FileWriter(path); w.add_schema({"n": {"type": "int64"}}); w.write_raw_data([{"n": 7}]); w.commit()
    >>> [int(r["n"]) for r in FileReader(path).get_next()]
    [7]
"""
from mindjax.mindrecord.common.exceptions import *  # noqa: F401,F403
from mindjax.mindrecord.common.exceptions import __all__ as _exceptions
from mindjax.mindrecord.filereader import FileReader
from mindjax.mindrecord.filewriter import FileWriter

__all__ = ["FileWriter", "FileReader", *_exceptions]
