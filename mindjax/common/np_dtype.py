"""MindSpore's ``mindspore.common.np_dtype``: numpy dtypes numpy lacks (``np_dtype.bfloat16``).

MindJAX's are JAX's (the ``ml_dtypes`` ones), so ``np.array(x, dtype=np_dtype.bfloat16)`` is
the array a bfloat16 Tensor holds.

Example:
    >>> import numpy as np
    >>> np.array([1.5], dtype=bfloat16).dtype == bfloat16
    True
"""
from __future__ import annotations

import jax.numpy as jnp

__all__ = ["bfloat16"]

bfloat16 = jnp.bfloat16


def np_dtype_valid(warning: bool) -> bool:
    """Whether the numpy dtypes here can be used: always, as they come with JAX (``warning`` is
    MindSpore's switch for a warning when they cannot)."""
    return True
