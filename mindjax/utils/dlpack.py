"""``mindspore.utils.dlpack``: share Tensors with other frameworks through DLPack (``jax.dlpack``).

``to_dlpack(t)`` returns the Tensor's ``jax.Array``: a DLPack producer
(``__dlpack__``/``__dlpack_device__``) that every current consumer takes
(``torch.from_dlpack``, ``np.from_dlpack``, ``jax.dlpack.from_dlpack``,
:func:`from_dlpack`). Bare DLPack capsules (the old protocol) are not accepted
by JAX; pass the producing array instead.
"""
from __future__ import annotations

from typing import Any

import jax

from mindjax.common.tensor import Tensor

__all__ = ["from_dlpack", "to_dlpack"]


def from_dlpack(dlpack: Any) -> Tensor:
    """A Tensor sharing the memory of a DLPack producer (a torch/numpy/JAX array, or :func:`to_dlpack`'s result).

    Arguments:
        dlpack: an object with ``__dlpack__`` and ``__dlpack_device__``.

    Returns:
        Tensor.

    Raises:
        TypeError: ``dlpack`` is not a DLPack producer (a bare capsule included).

    Example:
        >>> import numpy as np, mindjax as ms
        >>> ms.from_dlpack(np.arange(3)).tolist()
        [0, 1, 2]
    """
    if not (hasattr(dlpack, "__dlpack__") and hasattr(dlpack, "__dlpack_device__")):
        raise TypeError(f"For 'from_dlpack', 'dlpack' must be an object with __dlpack__ and __dlpack_device__ "
                        f"(a torch, numpy or JAX array, or to_dlpack's result), but got {type(dlpack).__name__}; "
                        f"JAX does not take bare DLPack capsules.")
    return Tensor._wrap(jax.dlpack.from_dlpack(dlpack))


def to_dlpack(tensor: Tensor) -> Any:
    """Export a Tensor for a DLPack consumer (see the module): its ``jax.Array``.

    Arguments:
        tensor (Tensor): the Tensor.

    Returns:
        a DLPack producer sharing the Tensor's memory.

    Raises:
        TypeError: ``tensor`` is not a Tensor.
    """
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For 'to_dlpack', 'tensor' must be a Tensor, but got {type(tensor).__name__}.")
    if getattr(tensor, "has_init", False):
        tensor.init_data()
    return tensor._value
