"""Atomic file writes: a temporary file in the same folder, fsync, rename, fsync the folder.

A reader sees either the previous file or the complete new one, never a
partial write, even when the writing process is killed (SIGKILL, power loss
after the rename is journaled). The temporary file lives in the target's own
folder because ``os.replace`` is atomic only within one file system.

A temporary file is named ``.<file name>.<host>-<pid>.<random>.tmp``: a
process killed mid-write leaves it behind, and :func:`remove_stale_temporaries`
(called before each write of the same file, and by ``ModelCheckpoint`` at its
start for its prefix) deletes those whose writer is no longer running on this
host. Files being written by live processes, or on other hosts, are left alone.

Example:
    >>> with atomic_write("/tmp/net.ckpt") as f:      # doctest: +SKIP
    ...     f.write(b"...")
"""
from __future__ import annotations

import contextlib
import os
import re
import socket
import tempfile
from typing import BinaryIO, Iterator

__all__ = ["atomic_write", "atomic_write_bytes", "remove_stale_temporaries", "writer_tag", "writer_is_gone"]

# Temporaries this process is writing now (another thread may be mid-save).
_ACTIVE: set[str] = set()
_TAGGED = re.compile(r"\.(?P<host>[A-Za-z0-9_-]+)-(?P<pid>\d+)\.[^.]+\.tmp$")


def _host() -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", socket.gethostname()) or "host"


def writer_tag() -> str:
    """``<host>-<pid>``: marks a temporary file or folder with the process writing it."""
    return f"{_host()}-{os.getpid()}"


def writer_is_gone(host: str, pid: int) -> bool:
    """Whether the writer ``host``/``pid`` of a temporary is known to be dead (only decidable on this host)."""
    if host != _host():
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive but owned by another user
        return False
    return False


def remove_stale_temporaries(directory: str, name_prefix: str) -> list[str]:
    """Delete the temporaries left by killed writes of files whose name starts with ``name_prefix``.

    Arguments:
        directory: the folder the files live in.
        name_prefix: the start of the final file names (``"CKP"`` or ``"net.ckpt"``).

    Returns:
        The paths removed.
    """
    removed: list[str] = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    start = f".{name_prefix}"
    for name in names:
        if not name.startswith(start) or not name.endswith(".tmp"):
            continue
        match = _TAGGED.search(name)
        path = os.path.join(directory, name)
        if match is None or path in _ACTIVE:
            continue
        pid = int(match["pid"])
        if pid == os.getpid() or writer_is_gone(match["host"], pid):
            with contextlib.suppress(OSError):
                os.remove(path)
                removed.append(path)
    return removed


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
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"Cannot write {path}: the folder {directory} does not exist"
                                + (" (it is a file)" if os.path.exists(directory) else ""))
    remove_stale_temporaries(directory, os.path.basename(path) + ".")
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.{writer_tag()}.", suffix=".tmp", dir=directory)
    _ACTIVE.add(tmp)
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
    finally:
        _ACTIVE.discard(tmp)
    _fsync_dir(directory)


def atomic_write_bytes(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_write`).

    Arguments:
        path: the final file name.
        data: the complete file content.
    """
    with atomic_write(path) as f:
        f.write(data)
