"""``load_mindir``/``save_mindir`` (MindSpore's ``mindspore.graph._utils.mindir_util``): MindIR files as protobuf.

``load_mindir`` parses a MindIR file (MindSpore's or MindJAX's) into its
``ModelProto`` message, and ``save_mindir`` writes one back (atomically), so
``user_info`` and other fields can be edited as in MindSpore. The message
classes and the files MindJAX's ``ms.export(..., file_format='MINDIR')``
writes are in :mod:`mindjax.train.serialization` (see
:mod:`mindjax.train.serialization.export`).
"""
from __future__ import annotations

from typing import Any

__all__ = ["load_mindir", "save_mindir"]


def load_mindir(file_name: str) -> Any:
    """Load a MindIR file as its ``ModelProto`` message.

    Arguments:
        file_name: the ``.mindir`` file.

    Returns:
        The ``ModelProto``.

    Raises:
        TypeError: ``file_name`` is not a str.
        ValueError: the file does not exist or is not a MindIR protobuf.
    """
    from mindjax.train.serialization._mindir import load_mindir as _load

    return _load(file_name)


def save_mindir(model: Any, file_name: str) -> None:
    """Save a ``ModelProto`` to ``file_name`` (``.mindir`` appended when missing), atomically.

    Arguments:
        model: the ``ModelProto`` (as :func:`load_mindir` returns).
        file_name: the file to write.

    Raises:
        TypeError: ``model`` is not a ModelProto, or ``file_name`` not a str.
    """
    from mindjax.train.serialization._mindir import save_mindir as _save

    _save(model, file_name)
