"""Atomic file writes: a temporary file in the same folder, fsync, rename, fsync the folder.

A reader sees either the previous file or the complete new one, never a
partial write, even when the writing process is killed (SIGKILL, power loss
after the rename is journaled). The temporary file lives in the target's own
folder because ``os.replace`` is atomic only within one file system.

Example:
    >>> with atomic_write("/tmp/net.ckpt") as f:      # doctest: +SKIP
    ...     f.write(b"...")
"""
from __future__ import annotations

import contextlib
import os
import tempfile
from typing import BinaryIO, Iterator

__all__ = ["atomic_write", "atomic_write_bytes"]


def _fsync_dir(directory: str) -> None:
    # The rename is durable only once the folder's entry is on disk; some
    # platforms (Windows) cannot open a folder, which is fine to skip there.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_write(path: str) -> Iterator[BinaryIO]:
    """Open a temporary binary file that replaces ``path`` when the block ends without error.

    Arguments:
        path: the final file name. Its folder must exist.

    Returns:
        A context manager yielding the open temporary file. On an exception
        the temporary file is removed and ``path`` is left untouched.
    """
    path = os.path.abspath(path)
    directory = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=directory)
    try:
        # mkstemp makes the file private (0600); a checkpoint is an ordinary file.
        os.chmod(tmp, 0o644)
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise
    _fsync_dir(directory)


def atomic_write_bytes(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_write`).

    Arguments:
        path: the final file name.
        data: the complete file content.
    """
    with atomic_write(path) as f:
        f.write(data)
