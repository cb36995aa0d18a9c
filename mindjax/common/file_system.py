"""``mindspore.common.file_system``: ``FileSystem``, how checkpoint files are created and opened.

MindSpore swaps the functions for MindIO's when that is installed; here the basic
backend (Python's ``open``) is the only one.

Example:
    >>> from mindjax.common.file_system import FileSystem
    >>> fs = FileSystem()
    >>> fs.backend, fs.create_args, fs.open_args
    ('basic', ('ab',), ('rb',))
"""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["FileSystem"]


class FileSystem:
    """The functions (and their mode arguments) that create and open checkpoint files.

    Attributes:
        create: opens a file for writing: ``fs.create(path, *fs.create_args)``.
        create_args: ``("ab",)``.
        open: opens a file for reading: ``fs.open(path, *fs.open_args)``.
        open_args: ``("rb",)``.
        backend: ``"basic"``.
    """

    def __init__(self) -> None:
        self.create: Callable[..., Any] = open
        self.create_args: tuple[str, ...] = ("ab",)
        self.open: Callable[..., Any] = open
        self.open_args: tuple[str, ...] = ("rb",)
        self.backend = "basic"
