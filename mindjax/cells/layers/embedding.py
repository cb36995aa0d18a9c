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
from mindjax.cells.layers._inputs import tensor_input
from mindjax.common.checks import check_index_range
from mindjax.common.initializer import initializer

__all__ = ["Embedding", "EmbeddingLookup", "MultiFieldEmbeddingLookup"]


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
        ids = tensor_input(self._where(), "ids", ids)
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


_SLICE_MODES = ("field_slice", "table_row_slice", "table_column_slice", "batch_slice")


def _positive_int(value: Any, name: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{where}, the '{name}' must be int, but got '{type(value).__name__}'.")
    if value <= 0:
        raise ValueError(f"{where}, the '{name}' must be int and must > 0, but got '{value}' with type 'int'.")
    return value


class EmbeddingLookup(Cell):
    """Look ids up in a table (MindSpore's ``EmbeddingLookup``, made for host-side or sharded tables).

    ``target='CPU'`` is MindSpore's host lookup: ids outside ``[0, vocab_size)`` give zero
    rows. ``target='DEVICE'`` is a gather on the device (MindSpore's ``Gather``, or
    ``SparseGatherV2`` with ``sparse=True``): ids outside ``[0, vocab_size)`` are an error.
    Gradients of the table are dense arrays here, whatever ``sparse`` says. In
    (semi-)auto parallel, ``slice_mode`` names how MindSpore shards the table; here
    GSPMD shards it, and ``field_slice`` (MindSpore's ``manual_split``) is rejected.

    Arguments:
        vocab_size: the number of rows (> 0).
        embedding_size: the length of a row (> 0).
        param_init: the table's initializer. Default ``'normal'``.
        target: ``'CPU'`` or ``'DEVICE'``. Default ``'CPU'``.
        slice_mode: ``'batch_slice'`` (default), ``'field_slice'``, ``'table_row_slice'`` or
            ``'table_column_slice'``; read only in (semi-)auto parallel, as in MindSpore.
        manual_shapes: the ``field_slice`` split (parallel only).
        max_norm: clip each looked-up row to this L2 norm (a float > 0), or None.
        sparse: MindSpore's sparse-gradient flag; must be True with ``target='CPU'``. Default True.
        dtype: the table's dtype. Default float32.

    Inputs:
        indices: an int32/int64 Tensor of any shape.

    Outputs:
        a Tensor of shape ``indices.shape + (embedding_size,)``.

    Raises:
        TypeError: ``sparse`` not a bool, sizes not ints, ``max_norm`` not a float.
        ValueError: sizes <= 0, ``target`` not 'CPU'/'DEVICE', ``sparse=False`` with 'CPU',
            ``max_norm`` <= 0, an unknown ``slice_mode`` in (semi-)auto parallel.
        NotImplementedError: ``slice_mode='field_slice'`` in (semi-)auto parallel.
    """

    BATCH_SLICE = "batch_slice"
    FIELD_SLICE = "field_slice"
    TABLE_ROW_SLICE = "table_row_slice"
    TABLE_COLUMN_SLICE = "table_column_slice"

    def __init__(self, vocab_size: int, embedding_size: int, param_init: Any = "normal", target: str = "CPU",
                 slice_mode: str = "batch_slice", manual_shapes: Any = None, max_norm: float | None = None,
                 sparse: bool = True, dtype: Any = mstype.float32) -> None:
        super().__init__()
        where = f"For '{type(self).__name__}'"
        if not isinstance(sparse, bool):
            raise TypeError(f"{where}, the type of 'sparse' should be 'bool', but got type '{type(sparse).__name__}'.")
        self.vocab_size = _positive_int(vocab_size, "vocab_size", where)
        self.target = target
        self.sparse = sparse
        self.forward_unique = False
        if not isinstance(target, str) or target not in ("CPU", "DEVICE"):
            raise ValueError(f"{where}, the 'target' must be str and must be in '['CPU', 'DEVICE']', "
                             f"but got '{target}'.")
        if not sparse and target == "CPU":
            raise ValueError(f"{where}, 'sparse' must be True when 'target' is \"CPU\", but got 'sparse': {sparse} "
                             f"and 'target': {target}")
        self.embedding_size = _positive_int(embedding_size, "embedding_size", where)
        self.embedding_table = Parameter(
            as_array(initializer(param_init, (self.vocab_size, self.embedding_size), dtype)), name="embedding_table")
        self.slice_mode = slice_mode
        self.manual_shapes = manual_shapes
        from mindjax import context
        if context.get_auto_parallel_context("parallel_mode") in ("semi_auto_parallel", "auto_parallel"):
            if slice_mode not in _SLICE_MODES:
                raise ValueError(f"{where}, the 'slice_mode' must be in {list(_SLICE_MODES)}, "
                                 f"but got \"{slice_mode}\".")
            if slice_mode == "field_slice":
                raise NotImplementedError(
                    f"{where}, slice_mode 'field_slice' splits the table by MindSpore's 'manual_split' shapes "
                    f"{manual_shapes!r}, which GSPMD has no counterpart for: use 'table_row_slice' or "
                    f"'table_column_slice' (or shard the table with a Layout).")
        self.max_norm = max_norm
        if max_norm is not None:
            if isinstance(max_norm, bool) or not isinstance(max_norm, float):
                raise TypeError(f"{where}, the 'max_norm' must be float, but got '{type(max_norm).__name__}'")
            if max_norm <= 0:
                raise ValueError(f"{where}, the 'max_norm' must be float and must > 0, but got '{max_norm}' "
                                 f"with type 'float'.")

    def _lookup(self, indices: Any, arg: str) -> jax.Array:
        ids = tensor_input(self._where(), arg, indices)
        if not jnp.issubdtype(ids.dtype, jnp.integer):
            raise TypeError(f"{self._where()}, '{arg}' must be an int32 or int64 Tensor, got dtype {ids.dtype}")
        if self.target == "DEVICE":
            check_index_range("Gather", arg, ids, 0, self.vocab_size)
        # Host lookup: ids outside the table give zero rows (MindSpore's EmbeddingLookup kernel).
        inside = (ids >= 0) & (ids < self.vocab_size)
        out = jnp.take(self.embedding_table._value, jnp.where(inside, ids, 0), axis=0)
        out = jnp.where(inside[..., None], out, jnp.zeros((), out.dtype))
        if self.max_norm is not None:
            from mindjax.cells.layers.extra import ClipByNorm
            out = ClipByNorm(tuple(range(ids.ndim, out.ndim)))(out, self.max_norm)
        return out

    def construct(self, indices: Any) -> jax.Array:
        return self._lookup(indices, "indices")


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """Look ids up and merge them per field (MindSpore's ``MultiFieldEmbeddingLookup``).

    Each looked-up row is weighted by ``input_values`` and merged into its field
    (``field_ids``) with ``operator``: ``'SUM'``, ``'MEAN'`` (divided by the sum of
    ``|input_values|``, 0 for an empty field) or ``'MAX'`` (entries of weight 0 are
    left out; an empty field gives zeros).

    Arguments:
        vocab_size, embedding_size, param_init, target, slice_mode, max_norm, sparse, dtype:
            as in :class:`EmbeddingLookup`.
        field_size: the number of fields (> 0).
        feature_num_list: MindSpore's ``manual_shapes`` for ``field_slice`` (parallel only).
        operator: ``'SUM'`` (default), ``'MEAN'`` or ``'MAX'``.

    Inputs:
        input_indices: ``(batch, seq)`` int32/int64 ids.
        input_values: ``(batch, seq)`` float32 weights.
        field_ids: ``(batch, seq)`` int32 field of each id, in ``[0, field_size)``.

    Outputs:
        ``(batch, field_size, embedding_size)``.

    Raises:
        ValueError: ``field_size`` <= 0, an unknown ``operator``, inputs that are not 2-D.
        TypeError: inputs of the wrong dtype.
    """

    OPERATOR_SUM = "SUM"
    OPERATOR_MEAN = "MEAN"
    OPERATOR_MAX = "MAX"

    def __init__(self, vocab_size: int, embedding_size: int, field_size: int, param_init: Any = "normal",
                 target: str = "CPU", slice_mode: str = "batch_slice", feature_num_list: Any = None,
                 max_norm: float | None = None, sparse: bool = True, operator: str = "SUM",
                 dtype: Any = mstype.float32) -> None:
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode, feature_num_list, max_norm,
                         sparse, dtype=dtype)
        where = f"For '{type(self).__name__}'"
        self.field_size = _positive_int(field_size, "field_size", where)
        if not isinstance(operator, str) or operator not in ("SUM", "MAX", "MEAN"):
            raise ValueError(f"{where}, the 'operator' must be str and must be in '['SUM', 'MAX', 'MEAN']', "
                             f"but got '{operator}'.")
        self.operator = operator
        self.negative_inf_value = -3.402823466E+38

    def _check_2d_input(self, x: Any, arg: str, dtypes: tuple[Any, ...]) -> jax.Array:
        x = jnp.asarray(as_array(x))
        if x.ndim != 2:
            raise ValueError(f"For '{type(self).__name__}', the dimension of '{arg}' must be 2d, but got {x.ndim}")
        if x.dtype not in dtypes:
            names = ", ".join(_ms_dtype_name(d) for d in dtypes)
            raise TypeError(f"For '{type(self).__name__}', the '{arg}' must be a Tensor of {names}, "
                            f"but got {_ms_dtype_name(x.dtype)}")
        return x

    def construct(self, input_indices: Any, input_values: Any, field_ids: Any) -> jax.Array:
        ids = self._check_2d_input(input_indices, "input_indices", (jnp.dtype(jnp.int32), jnp.dtype(jnp.int64)))
        values = self._check_2d_input(input_values, "input_values", (jnp.dtype(jnp.float32),))
        fields = self._check_2d_input(field_ids, "field_ids", (jnp.dtype(jnp.int32),))
        batch = ids.shape[0]
        num_segments = batch * self.field_size
        segments = (fields + (jnp.arange(batch, dtype=jnp.int32) * self.field_size)[:, None]).reshape(-1)
        out = self._lookup(ids, "input_indices")
        weights = values[..., None]
        embedding = (weights * out).reshape(-1, self.embedding_size)
        if self.operator == "MAX":
            embedding = embedding + (weights == 0).astype(jnp.float32).reshape(-1, 1) * self.negative_inf_value
            merged = jax.ops.segment_max(embedding, segments, num_segments)
            count = jax.ops.segment_sum(jnp.abs(values).reshape(-1), segments, num_segments)
            # An empty field is 0 (MindSpore multiplies its lowest-float fill by 0).
            merged = jnp.where((count != 0)[:, None], merged, 0.0)
        else:
            merged = jax.ops.segment_sum(embedding, segments, num_segments)
            if self.operator == "MEAN":
                count = jax.ops.segment_sum(jnp.abs(values).reshape(-1), segments, num_segments)[:, None]
                merged = jnp.where(count != 0, merged / jnp.where(count != 0, count, 1.0), 0.0)
        return merged.reshape(batch, self.field_size, -1)
