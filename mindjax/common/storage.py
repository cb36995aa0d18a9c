"""``mindspore.common.storage.UntypedStorage``: the bytes behind a Tensor.

A MindJAX Tensor holds an immutable ``jax.Array``; the storage of a Tensor is
therefore the numpy array a Tensor shares (:class:`~mindjax.common.tensor.NumpyStorage`,
as ``from_numpy`` makes). ``Tensor.untyped_storage()`` moves a Tensor onto such
an array the first time it is asked (its data copied once), so that the storage,
and every Tensor ``set_`` onto it, share memory with it, as in MindSpore.

Example:
    >>> import numpy as np, mindjax as ms
    >>> t = ms.Tensor(np.arange(3, dtype=np.float32))
    >>> s = t.untyped_storage()
    >>> s.nbytes(), s.element_size(), s.dtype
    (12, 1, mindspore.float32)
    >>> s.copy_(ms.Tensor(np.full(3, 7, np.float32)).untyped_storage())  # doctest: +ELLIPSIS
    <...UntypedStorage...>
    >>> t.tolist()
    [7.0, 7.0, 7.0]
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.common.dtype import Type, to_ms_dtype


class UntypedStorage:
    """The dtype-agnostic bytes of one Tensor's data (what ``Tensor.storage()`` returns).

    Arguments:
        holder: the ``NumpyStorage`` whose array these bytes are (from ``Tensor.untyped_storage``).
    """

    __slots__ = ("_holder",)

    def __init__(self, holder: Any) -> None:
        self._holder = holder

    @property
    def _array(self) -> np.ndarray:
        return self._holder.array

    def _bytes(self) -> np.ndarray:
        return self._array.reshape(-1).view(np.uint8)

    @property
    def dtype(self) -> Type:
        """The dtype of the Tensor the storage was taken from."""
        return to_ms_dtype(self._holder.dtype)

    @property
    def device(self) -> str:
        """Where the bytes live: ``'CPU'`` (host memory)."""
        return "CPU"

    def size(self) -> int:
        """The number of bytes."""
        return int(self._array.nbytes)

    def nbytes(self) -> int:
        """The number of bytes."""
        return int(self._array.nbytes)

    def element_size(self) -> int:
        """Bytes per element of an untyped storage: 1."""
        return 1

    def data_ptr(self) -> int:
        """The address of the first byte."""
        return int(self._array.ctypes.data)

    def is_shared(self) -> bool:
        """False: the bytes are not in shared (inter-process) memory."""
        return False

    def copy_(self, src: "UntypedStorage", non_blocking: bool = False) -> "UntypedStorage":
        """Copy ``src``'s bytes into this storage in place; every Tensor on it sees them.

        Raises:
            TypeError: ``src`` is not an ``UntypedStorage``.
            RuntimeError: the two hold different numbers of bytes.
        """
        if not isinstance(src, UntypedStorage):
            raise TypeError(f"For 'UntypedStorage.copy_', 'src' must be an UntypedStorage, got "
                            f"{type(src).__name__}")
        if src.nbytes() != self.nbytes():
            raise RuntimeError(f"For 'UntypedStorage.copy_', the storages must hold the same number of "
                               f"bytes, got {src.nbytes()} into {self.nbytes()}")
        if not self._array.flags.writeable:
            raise RuntimeError("For 'UntypedStorage.copy_', the storage is a read-only numpy array")
        np.copyto(self._bytes(), src._bytes())
        return self

    def __len__(self) -> int:
        return self.size()

    def __repr__(self) -> str:
        return f"UntypedStorage(nbytes={self.nbytes()}, dtype={self.dtype}, device={self.device})"
