"""MindSpore's Tensor factories ``tensor`` and ``from_numpy``, over :class:`mindjax.common.tensor.Tensor`."""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.common.tensor import Tensor

__all__ = ["tensor", "from_numpy"]


def tensor(input_data: Any = None, dtype: Any = None, shape: Any = None, init: Any = None,
           const_arg: bool = False, device: Any = None) -> Any:
    """Build a Tensor (MindSpore's ``ms.tensor``); the arguments are ``Tensor``'s.

    Arguments:
        input_data: array-like data.
        dtype: the dtype; by default MindSpore's rules.
        shape, init: build from an initializer instead of data.
        const_arg: accepted for compatibility.
        device: accepted for compatibility; arrays go to the context's device.

    Returns:
        the Tensor.
    """
    del device
    return Tensor(input_data, dtype=dtype, shape=shape, init=init, const_arg=const_arg)


def from_numpy(array: np.ndarray) -> Any:
    """A Tensor with the contents and dtype of a numpy array (MindSpore's ``ms.from_numpy``).

    MindSpore's Tensor shares the array's memory; device arrays cannot, so this is a
    copy: later writes to ``array`` do not show in the Tensor.

    Arguments:
        array: a numpy array.

    Returns:
        the Tensor, of ``array``'s dtype.

    Raises:
        TypeError: ``array`` is not a numpy array.
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"For 'from_numpy', 'array' must be a numpy.ndarray, got {type(array).__name__}")
    return Tensor.from_numpy(array)
