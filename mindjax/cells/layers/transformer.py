"""Attention and Transformer layers with MindSpore 2.10's names and numerics.

``MultiheadAttention`` keeps MindSpore's Parameters (``in_proj_weight`` or
``q_proj_weight``/``k_proj_weight``/``v_proj_weight``, ``in_proj_bias``,
``bias_k``, ``bias_v``, ``out_proj.weight``, ``out_proj.bias``), its
initialisers and its scaling (query and key are each divided by
``head_dim ** 0.25`` before their product). The encoder and decoder layers keep
MindSpore's sub-Cell names (``self_attn``, ``dense1``, ``dense2``, ``norm1`` with
``gamma``/``beta`` ...), so checkpoints map one to one.

One deliberate difference: when a boolean mask is combined with a float mask
(say a float ``attn_mask`` and a boolean ``key_padding_mask``), MindSpore 2.10
adds the boolean as 1.0, which raises the score of padded keys instead of
removing them. Here each boolean mask becomes ``-inf`` where true before the
masks are added, as the documentation of both masks describes. Masks of one
kind give MindSpore's numbers.

Example:
    >>> import numpy as np, mindjax as ms
    >>> from mindjax import nn
    >>> layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
    >>> enc = nn.TransformerEncoder(layer, num_layers=2)
    >>> enc(ms.Tensor(np.ones((5, 3, 8), np.float32))).shape
    (5, 3, 8)
"""
from __future__ import annotations

import numbers
from typing import Any, Callable

import jax
import jax.numpy as jnp

from mindjax.cells.cell import Cell
from mindjax.cells.containers import CellList
from mindjax.cells.layers._inputs import float_input
from mindjax.cells.layers.basic import Dense, Dropout
from mindjax.cells.layers.basic import _positive_int as _check_positive_int
from mindjax.cells.layers.normalization import LayerNorm
from mindjax.cells.parameter import Parameter
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.initializer import XavierNormal, XavierUniform, initializer
from mindjax.ops.function.nn_func import multi_head_attention_forward

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder",
           "TransformerDecoderLayer", "TransformerDecoder", "Transformer"]


# -- argument checks ------------------------------------------------------------
def _check_probability(value: Any, name: str, cls_name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value < 1:
        raise ValueError(f"For '{cls_name}', '{name}' must be a number in [0, 1), got {value!r}")
    return float(value)


# -- MultiheadAttention ----------------------------------------------------------
class MultiheadAttention(Cell):
    """Multi-head attention (MindSpore's ``nn.MultiheadAttention``).

    Arguments:
        embed_dim: features of the query and of the output.
        num_heads: heads; ``embed_dim`` must be divisible by it.
        dropout: dropout on the attention weights, in training. Default ``0.0``.
        has_bias: biases on the input and output projections. Default ``True``.
        add_bias_kv: append learnt ``bias_k``/``bias_v`` to the keys and values. Default ``False``.
        add_zero_attn: append a zero key and value. Default ``False``.
        kdim, vdim: features of key and value (default ``embed_dim``); when either
            differs, the projections are ``q_proj_weight``/``k_proj_weight``/``v_proj_weight``.
        batch_first: batched inputs are ``(batch, seq, feature)``. Default ``False``.
        dtype: the Parameters' dtype. Default ``float32``.

    Inputs ``(query, key, value, key_padding_mask=None, need_weights=True,
    attn_mask=None, average_attn_weights=True)``: ``query`` is ``(L, N, E)``
    (``(N, L, E)`` when ``batch_first``) or unbatched ``(L, E)``; ``key``/``value``
    ``(S, N, kdim/vdim)``. ``key_padding_mask`` ``(N, S)`` and ``attn_mask``
    ``(L, S)`` or ``(N * num_heads, L, S)``: boolean (true = ignore) or float (added).

    Returns:
        ``(attn_output, attn_weights)``, or ``(attn_output,)`` when ``need_weights``
        is false. The weights are ``(N, L, S)``, or ``(N, num_heads, L, S)`` when
        ``average_attn_weights`` is false.
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, has_bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, dtype: Any = jnp.float32) -> None:
        super().__init__()
        cls_name = type(self).__name__
        embed_dim = _check_positive_int(embed_dim, "embed_dim", cls_name)
        num_heads = _check_positive_int(num_heads, "num_heads", cls_name)
        if embed_dim % num_heads != 0:
            raise ValueError(f"For '{cls_name}', 'embed_dim' ({embed_dim}) must be divisible by "
                             f"'num_heads' ({num_heads})")
        self.embed_dim = embed_dim
        self.kdim = embed_dim if kdim is None else _check_positive_int(kdim, "kdim", cls_name)
        self.vdim = embed_dim if vdim is None else _check_positive_int(vdim, "vdim", cls_name)
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = _check_probability(dropout, "dropout", cls_name)
        self.batch_first = bool(batch_first)
        self.head_dim = embed_dim // num_heads
        dtype = to_jax_dtype(jnp.float32 if dtype is None else dtype)
        self.dtype = dtype
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(initializer(XavierUniform(), (3 * embed_dim, embed_dim), dtype),
                                            "in_proj_weight")
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        else:
            self.q_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, embed_dim), dtype),
                                           "q_proj_weight")
            self.k_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.kdim), dtype),
                                           "k_proj_weight")
            self.v_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.vdim), dtype),
                                           "v_proj_weight")
            self.in_proj_weight = None
        self.in_proj_bias = Parameter(initializer("zeros", (3 * embed_dim,), dtype), "in_proj_bias") \
            if has_bias else None
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias, dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), "bias_k")
            self.bias_v = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype), "bias_v")
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn

    def extend_repr(self) -> str:
        return (f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, kdim={self.kdim}, "
                f"vdim={self.vdim}, dropout={self.dropout}, batch_first={self.batch_first}")

    def _check_inputs(self, query: Any, key: Any, value: Any, key_padding_mask: Any,
                      attn_mask: Any) -> None:
        where = self._where()
        if query.ndim not in (2, 3):
            raise ValueError(f"{where}, 'query' must be unbatched 2-D or batched 3-D, got shape "
                             f"{tuple(query.shape)}")
        if key.ndim != query.ndim or value.ndim != query.ndim:
            raise ValueError(f"{where}, 'key' and 'value' must have the rank of 'query' ({query.ndim}), "
                             f"got key {tuple(key.shape)} and value {tuple(value.shape)}")
        for name, x, dim in (("query", query, self.embed_dim), ("key", key, self.kdim),
                             ("value", value, self.vdim)):
            if x.shape[-1] != dim:
                raise ValueError(f"{where}, expected '{name}' with last dimension {dim}, "
                                 f"got {tuple(x.shape)}")
        if key.shape[:-1] != value.shape[:-1]:
            raise ValueError(f"{where}, 'key' and 'value' must agree on sequence and batch, got "
                             f"key {tuple(key.shape)} and value {tuple(value.shape)}")
        batched = query.ndim == 3
        if batched:
            batch_axis = 0 if self.batch_first else 1
            if key.shape[batch_axis] != query.shape[batch_axis]:
                raise ValueError(f"{where}, 'query' and 'key' must have the same batch size, got "
                                 f"query {tuple(query.shape)} and key {tuple(key.shape)}")
        if key_padding_mask is not None:
            if key_padding_mask.dtype != jnp.bool_ and not jnp.issubdtype(key_padding_mask.dtype, jnp.floating):
                raise ValueError(f"{where}, 'key_padding_mask' must be bool or float, got "
                                 f"{key_padding_mask.dtype}")
            seq_axis = (1 if self.batch_first else 0) if batched else 0
            expected = ((key.shape[1 - seq_axis], key.shape[seq_axis]) if batched else (key.shape[0],))
            if tuple(key_padding_mask.shape) != expected:
                raise ValueError(f"{where}, expected 'key_padding_mask' of shape {expected}, got "
                                 f"{tuple(key_padding_mask.shape)}")
        if attn_mask is not None:
            if attn_mask.dtype not in (jnp.bool_, jnp.uint8) \
                    and not jnp.issubdtype(attn_mask.dtype, jnp.floating):
                raise ValueError(f"{where}, 'attn_mask' must be bool, uint8 or float, got {attn_mask.dtype}")
            seq_axis = (1 if self.batch_first else 0) if batched else 0
            tgt, src = query.shape[seq_axis], key.shape[seq_axis]
            batch = query.shape[1 - seq_axis] if batched else 1
            allowed = [(tgt, src), (batch * self.num_heads, tgt, src)]
            if tuple(attn_mask.shape) not in allowed:
                raise ValueError(f"{where}, expected 'attn_mask' of shape {allowed[0]} or {allowed[1]}, "
                                 f"got {tuple(attn_mask.shape)}")

    def construct(self, query: Any, key: Any, value: Any, key_padding_mask: Any = None,
                  need_weights: bool = True, attn_mask: Any = None,
                  average_attn_weights: bool = True) -> tuple[Any, ...]:
        """Attend from ``query`` to ``key``/``value``; see the class docstring."""
        query, key, value = (float_input(self._where(), name, t)
                             for name, t in (("query", query), ("key", key), ("value", value)))
        self._check_inputs(query, key, value, key_padding_mask, attn_mask)
        batched = query.ndim == 3
        if batched and self.batch_first:
            query, key, value = (jnp.swapaxes(t, 0, 1) for t in (query, key, value))
        out, weights = multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight,
            self.out_proj.bias, training=self.training, key_padding_mask=key_padding_mask, attn_mask=attn_mask,
            use_separate_proj_weight=not self._qkv_same_embed_dim, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, dtype=self.dtype)
        if batched and self.batch_first:
            out = jnp.swapaxes(out, 0, 1)
        if need_weights:
            return out, weights
        return (out,)


# -- encoder and decoder layers ---------------------------------------------------
def _resolve_activation(activation: Any, cls_name: str) -> Callable[[Any], Any]:
    if isinstance(activation, str):
        if activation == "relu":
            return jax.nn.relu
        if activation == "gelu":
            return lambda x: jax.nn.gelu(x, approximate=False)
        raise ValueError(f"For '{cls_name}', 'activation' must be 'relu' or 'gelu', got {activation!r}")
    if callable(activation):
        return activation
    raise ValueError(f"For '{cls_name}', 'activation' must be a str, a Cell or a callable, got {activation!r}")


def _check_padding_mask(where: str, name: str, mask: Any) -> None:
    if mask is not None and mask.dtype != jnp.bool_ and not jnp.issubdtype(mask.dtype, jnp.floating):
        raise ValueError(f"{where}, '{name}' must be bool or float, got {mask.dtype}")


class _FeedForwardLayer(Cell):
    """What the encoder and decoder layers share: checks, feed-forward block, norms."""

    def _init_common(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float,
                     activation: Any, layer_norm_eps: float, batch_first: bool, norm_first: bool,
                     dtype: Any) -> None:
        cls_name = type(self).__name__
        self.d_model = _check_positive_int(d_model, "d_model", cls_name)
        self.nhead = _check_positive_int(nhead, "nhead", cls_name)
        self.dim_feedforward = _check_positive_int(dim_feedforward, "dim_feedforward", cls_name)
        self.dropout_num = _check_probability(dropout, "dropout", cls_name)
        if d_model % nhead != 0:
            raise ValueError(f"For '{cls_name}', 'd_model' ({d_model}) must be divisible by 'nhead' ({nhead})")
        _resolve_activation(activation, cls_name)
        self.layernorm_eps = layer_norm_eps
        self.batch_first = batch_first
        self.norm_first = norm_first
        self.dtype = dtype

    def _set_activation(self, activation: Any) -> None:
        # MindSpore keeps the argument as given in 'activation1' (the stacks rebuild layers from
        # it) and the callable in 'activation', both assigned last.
        self.activation1 = activation
        self.activation = _resolve_activation(activation, type(self).__name__)

    def _make_ffn(self, dtype: Any) -> None:
        self.dense1 = Dense(self.d_model, self.dim_feedforward, dtype=dtype)
        self.dropout = Dropout(p=self.dropout_num)
        self.dense2 = Dense(self.dim_feedforward, self.d_model, dtype=dtype)

    def _check_src(self, name: str, x: Any) -> None:
        if x.ndim not in (2, 3) or x.shape[-1] != self.d_model:
            raise ValueError(f"{self._where()}, expected '{name}' of rank 2 or 3 with last dimension "
                             f"{self.d_model}, got {tuple(x.shape)}")

    def _ff_block(self, x: Any, out_dropout: Cell) -> Any:
        return out_dropout(self.dense2(self.dropout(self.activation(self.dense1(x)))))


class TransformerEncoderLayer(_FeedForwardLayer):
    """Self-attention then feed-forward, each with a residual and a LayerNorm.

    Arguments:
        d_model: features of the input.
        nhead: attention heads.
        dim_feedforward: hidden features of the feed-forward block. Default ``2048``.
        dropout: dropout probability. Default ``0.1``.
        activation: ``'relu'`` (default), ``'gelu'``, a Cell or a callable.
        layer_norm_eps: LayerNorm epsilon. Default ``1e-5``.
        batch_first: inputs are ``(batch, seq, feature)``. Default ``False``.
        norm_first: normalise before each block instead of after. Default ``False``.
        dtype: the Parameters' dtype. Default ``float32``.

    Inputs ``(src, src_mask=None, src_key_padding_mask=None)``.

    Returns:
        a Tensor of ``src``'s shape.
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Any = "relu", layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, dtype: Any = jnp.float32) -> None:
        super().__init__()
        self._init_common(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                          batch_first, norm_first, dtype)
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                            dtype=dtype)
        self._make_ffn(dtype)
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(p=self.dropout_num)
        self.dropout2 = Dropout(p=self.dropout_num)
        self._set_activation(activation)

    def _sa_block(self, x: Any, attn_mask: Any, key_padding_mask: Any) -> Any:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False)[0]
        return self.dropout1(x)

    def construct(self, src: Any, src_mask: Any = None, src_key_padding_mask: Any = None) -> Any:
        """Encode ``src``; see the class docstring."""
        self._check_src("src", src)
        _check_padding_mask(self._where(), "src_key_padding_mask", src_key_padding_mask)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            return x + self._ff_block(self.norm2(x), self.dropout2)
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
        return self.norm2(x + self._ff_block(x, self.dropout2))


class TransformerDecoderLayer(_FeedForwardLayer):
    """Self-attention, attention over the encoder's memory, then feed-forward.

    Arguments are those of :class:`TransformerEncoderLayer`.

    Inputs ``(tgt, memory, tgt_mask=None, memory_mask=None,
    tgt_key_padding_mask=None, memory_key_padding_mask=None)``.

    Returns:
        a Tensor of ``tgt``'s shape.
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Any = "relu", layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, dtype: Any = jnp.float32) -> None:
        super().__init__()
        self._init_common(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                          batch_first, norm_first, dtype)
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                            dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 dtype=dtype)
        self._make_ffn(dtype)
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm3 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1 = Dropout(p=self.dropout_num)
        self.dropout2 = Dropout(p=self.dropout_num)
        self.dropout3 = Dropout(p=self.dropout_num)
        self._set_activation(activation)

    def construct(self, tgt: Any, memory: Any, tgt_mask: Any = None, memory_mask: Any = None,
                  tgt_key_padding_mask: Any = None, memory_key_padding_mask: Any = None) -> Any:
        """Decode ``tgt`` against ``memory``; see the class docstring."""
        self._check_src("tgt", tgt)
        self._check_src("memory", memory)
        where = self._where()
        _check_padding_mask(where, "tgt_key_padding_mask", tgt_key_padding_mask)
        _check_padding_mask(where, "memory_key_padding_mask", memory_key_padding_mask)

        def sa(x: Any) -> Any:
            return self.dropout1(self.self_attn(x, x, x, attn_mask=tgt_mask,
                                                key_padding_mask=tgt_key_padding_mask,
                                                need_weights=False)[0])

        def mha(x: Any) -> Any:
            return self.dropout2(self.multihead_attn(x, memory, memory, attn_mask=memory_mask,
                                                     key_padding_mask=memory_key_padding_mask,
                                                     need_weights=False)[0])

        x = tgt
        if self.norm_first:
            x = x + sa(self.norm1(x))
            x = x + mha(self.norm2(x))
            return x + self._ff_block(self.norm3(x), self.dropout3)
        x = self.norm1(x + sa(x))
        x = self.norm2(x + mha(x))
        return self.norm3(x + self._ff_block(x, self.dropout3))


# -- stacks -----------------------------------------------------------------------
def _clone_layers(layer: _FeedForwardLayer, num_layers: int, cls_name: str) -> list[Cell]:
    """``num_layers`` fresh layers with ``layer``'s arguments, all holding the same initial values.

    As in MindSpore, the stack starts from one newly initialised layer copied
    ``num_layers`` times; the values of ``layer`` itself are not used.
    """
    num_layers = _check_positive_int(num_layers, "num_layers", cls_name)
    cls = type(layer)

    def build() -> Cell:
        return cls(layer.d_model, layer.nhead, layer.dim_feedforward, layer.dropout_num,
                   layer.activation1, layer.layernorm_eps, layer.batch_first, layer.norm_first,
                   dtype=layer.dtype)

    template = build()
    values = [jnp.array(p._value, copy=True) for _, p in template.parameters_and_names()]
    layers = [template]
    for _ in range(num_layers - 1):
        twin = build()
        for (_, p), value in zip(twin.parameters_and_names(), values):
            p.set_data(value)
        layers.append(twin)
    return layers


class TransformerEncoder(Cell):
    """A stack of encoder layers, then an optional norm.

    Arguments:
        encoder_layer: a :class:`TransformerEncoderLayer` whose arguments every layer takes.
        num_layers: the number of layers.
        norm: a Cell applied to the output (a LayerNorm), or None.

    Inputs ``(src, src_mask=None, src_key_padding_mask=None)``.

    Returns:
        a Tensor of ``src``'s shape.
    """

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int, norm: Cell | None = None) -> None:
        super().__init__()
        if not isinstance(encoder_layer, TransformerEncoderLayer):
            raise ValueError(f"For 'TransformerEncoder', 'encoder_layer' must be a TransformerEncoderLayer, "
                             f"got {type(encoder_layer).__name__}")
        self.layers = CellList(_clone_layers(encoder_layer, num_layers, "TransformerEncoder"))
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, src: Any, src_mask: Any = None, src_key_padding_mask: Any = None) -> Any:
        """Encode ``src``; see the class docstring."""
        _check_padding_mask(self._where(), "src_key_padding_mask", src_key_padding_mask)
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerDecoder(Cell):
    """A stack of decoder layers, then an optional norm.

    Arguments:
        decoder_layer: a :class:`TransformerDecoderLayer` whose arguments every layer takes.
        num_layers: the number of layers.
        norm: a Cell applied to the output (a LayerNorm), or None.

    Inputs are those of :class:`TransformerDecoderLayer`.

    Returns:
        a Tensor of ``tgt``'s shape.
    """

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int, norm: Cell | None = None) -> None:
        super().__init__()
        if not isinstance(decoder_layer, TransformerDecoderLayer):
            raise ValueError(f"For 'TransformerDecoder', 'decoder_layer' must be a TransformerDecoderLayer, "
                             f"got {type(decoder_layer).__name__}")
        self.layers = CellList(_clone_layers(decoder_layer, num_layers, "TransformerDecoder"))
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, tgt: Any, memory: Any, tgt_mask: Any = None, memory_mask: Any = None,
                  tgt_key_padding_mask: Any = None, memory_key_padding_mask: Any = None) -> Any:
        """Decode ``tgt`` against ``memory``; see the class docstring."""
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Cell):
    """Encoder-decoder Transformer (MindSpore's ``nn.Transformer``).

    Arguments:
        d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
        batch_first, norm_first, dtype: as for :class:`TransformerEncoderLayer`
            (defaults 512, 8, 2048, 0.1, 'relu', 1e-5, False, False, float32).
        num_encoder_layers, num_decoder_layers: stack depths (default 6 each).
        custom_encoder, custom_decoder: Cells used instead of the default stacks.

    Inputs ``(src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
    src_key_padding_mask=None, tgt_key_padding_mask=None, memory_key_padding_mask=None)``.

    Returns:
        a Tensor of ``tgt``'s shape.
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Any = "relu", custom_encoder: Cell | None = None,
                 custom_decoder: Cell | None = None, layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, dtype: Any = jnp.float32) -> None:
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                            layer_norm_eps, batch_first, norm_first, dtype=dtype)
            self.encoder = TransformerEncoder(layer, num_encoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                            layer_norm_eps, batch_first, norm_first, dtype=dtype)
            self.decoder = TransformerDecoder(layer, num_decoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for _, p in self.parameters_and_names():
            if p.ndim > 1:
                p.set_data(initializer("xavier_uniform", p.shape, p.dtype))
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def construct(self, src: Any, tgt: Any, src_mask: Any = None, tgt_mask: Any = None,
                  memory_mask: Any = None, src_key_padding_mask: Any = None,
                  tgt_key_padding_mask: Any = None, memory_key_padding_mask: Any = None) -> Any:
        """Encode ``src`` and decode ``tgt``; see the class docstring."""
        where = self._where()
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ValueError(f"{where}, 'src' and 'tgt' must have last dimension {self.d_model}, got "
                             f"src {tuple(src.shape)} and tgt {tuple(tgt.shape)}")
        if src.ndim == 3 and tgt.ndim == 3:
            axis = 0 if self.batch_first else 1
            if src.shape[axis] != tgt.shape[axis]:
                raise ValueError(f"{where}, 'src' and 'tgt' must have the same batch size, got "
                                 f"src {tuple(src.shape)} and tgt {tuple(tgt.shape)}")
        memory = self.encoder(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)
