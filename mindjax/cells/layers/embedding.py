"""``Embedding``: a lookup table of ``vocab_size`` rows, MindSpore 2.10's layer.

The table is the Parameter ``embedding_table`` of shape
``(vocab_size, embedding_size)``, initialised with ``'normal'`` (N(0, 0.01^2))
by default; the row ``padding_idx`` starts at zero.

Example:
    >>> import mindjax as ms
    >>> from mindjax import nn
    >>> emb = nn.Embedding(10, 4)
    >>> emb(ms.Tensor([[1, 2], [3, 4]], ms.int32)).shape
    (2, 2, 4)
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import Tensor, as_array
from mindjax.cells.cell import Cell
from mindjax.cells.parameter import Parameter
from mindjax.common import dtype as mstype
from mindjax.common.checks import check_index_range
from mindjax.common.initializer import initializer

__all__ = ["Embedding"]


def _ms_dtype_name(dtype: Any) -> str:
    """MindSpore's printed dtype name: ``Float32``, ``Int32``, ``UInt8``, ``BFloat16``, ``Bool``."""
    name = np.dtype(dtype).name
    if name.startswith("uint"):
        return "UInt" + name[4:]
    if name == "bfloat16":
        return "BFloat16"
    return name.capitalize()


class Embedding(Cell):
    """Map integer ids to rows of a learnable table.

    Arguments:
        vocab_size: the number of rows.
        embedding_size: the length of each row.
        use_one_hot: look up through a one-hot matrix product instead of a gather
            (same values; the gradient is dense).
        embedding_table: initializer of the table (a name, an Initializer or a
            Tensor); default ``'normal'``.
        dtype: dtype of the one-hot matrix (default float32; must be a number type).
        padding_idx: a row in ``[0, vocab_size)`` set to zero at construction, or ``None``.

    Inputs:
        ids: an integer Tensor of any shape.

    Returns:
        a Tensor of shape ``ids.shape + (embedding_size,)``. Ids outside
        ``[0, vocab_size)`` give zero rows (MindSpore raises at run time on CPU;
        a compiled program cannot).

    Raises:
        ValueError: non-positive sizes or ``padding_idx`` out of range.
        TypeError: arguments of the wrong type, or non-integer ``ids``.
    """

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table: Any = "normal", dtype: Any = mstype.float32,
                 padding_idx: int | None = None) -> None:
        super().__init__()
        for arg, value in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'Embedding', '{arg}' must be an int, got {type(value).__name__}")
            if value <= 0:
                raise ValueError(f"For 'Embedding', '{arg}' must be a positive int, got {value}")
        if not isinstance(use_one_hot, bool):
            raise TypeError(f"For 'Embedding', 'use_one_hot' must be a bool, got "
                            f"{type(use_one_hot).__name__}")
        np_dtype = mstype.to_jax_dtype(dtype)
        if np_dtype == np.dtype(np.bool_) or not (jnp.issubdtype(np_dtype, jnp.number)):
            raise TypeError(f"For 'Embedding', 'dtype' must be a number type, got {dtype}")
        self.vocab_size = vocab_size
        self.embedding_size = embedding_size
        self.use_one_hot = use_one_hot
        self.dtype = dtype
        if isinstance(embedding_table, (jax.Array, Tensor)):
            table = as_array(initializer(embedding_table, (vocab_size, embedding_size),
                                         jnp.asarray(embedding_table).dtype))
        else:
            table = as_array(initializer(embedding_table, (vocab_size, embedding_size)))
        self.padding_idx = padding_idx
        if padding_idx is not None:
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, int):
                raise TypeError(f"For 'Embedding', 'padding_idx' must be an int or None, got "
                                f"{type(padding_idx).__name__}")
            if not 0 <= padding_idx < vocab_size:
                raise ValueError(f"For 'Embedding', 'padding_idx' must be in range [0, {vocab_size}), "
                                 f"got {padding_idx}")
            table = table.at[padding_idx].set(0)
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids: Any) -> jax.Array:
        ids = jnp.asarray(ids)
        if not jnp.issubdtype(ids.dtype, jnp.integer):
            raise TypeError(f"{self._where()}, 'ids' must be an integer Tensor, got dtype {ids.dtype}")
        # MindSpore's Gather kernel rejects ids >= vocab_size and wraps negative ones.
        check_index_range(self._where(), "ids", ids, -self.vocab_size, self.vocab_size)
        table = self.embedding_table._value
        flat = ids.reshape((-1,))
        if self.use_one_hot:
            flat = jnp.where(flat < 0, flat + self.vocab_size, flat)
            one_hot = jax.nn.one_hot(flat, self.vocab_size, dtype=mstype.to_jax_dtype(self.dtype))
            rows = jnp.matmul(one_hot, table)
        else:
            rows = jnp.take(table, flat, axis=0, mode="fill", fill_value=0)
        return rows.reshape(ids.shape + (self.embedding_size,))

    def extend_repr(self) -> str:
        """MindSpore's text: sizes, one-hot flag, the table Parameter, dtype and padding_idx."""
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table}, "
                f"dtype={_ms_dtype_name(self.dtype)}, padding_idx={self.padding_idx}")
