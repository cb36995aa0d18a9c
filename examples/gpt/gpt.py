"""A small GPT built from ``mindjax.nn`` layers, with Megatron strategies written as ``shard()``.

The network follows the GPT-2 layout (pre-norm blocks of causal multi-head
attention and a 4x MLP, learned position embeddings, a final LayerNorm and a
vocabulary head). Given a :class:`ParallelConfig`, each layer records the
Megatron-LM tensor-parallel plan the way MindSpore's transformer code writes it:

- ``Cell.shard`` on the Dense layers: ``q``/``k``/``v``/``mapping``/``head``
  split their weight's output rows over ``mp`` (column parallel),
  ``projection``/``output`` split the input columns (row parallel, one
  all-reduce after);
- ``Primitive.shard`` on the attention's ``BatchMatMul`` and ``Softmax``:
  heads over ``mp``, batch over ``dp``;
- the token table split over the vocabulary (``mp``), LayerNorms data parallel.

All layouts are written on one ``Layout((dp, mp), ("dp", "mp"))`` so the
operators agree on which devices hold which slice. The strategies only act in
``SEMI_AUTO_PARALLEL``/``AUTO_PARALLEL`` (``shard`` is a no-op elsewhere, as
in MindSpore).

Example:
    >>> import mindjax as ms, numpy as np
    >>> net = GPT(GPTConfig(vocab_size=64, seq_length=8, hidden_size=16, num_layers=1, num_heads=2))
    >>> net(ms.Tensor(np.zeros((2, 8), np.int32))).shape
    (2, 8, 64)
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any

import jax.numpy as jnp
import numpy as np

import mindjax as ms
from mindjax import nn, ops
from mindjax.common.initializer import Normal

__all__ = ["GPTConfig", "ParallelConfig", "CausalSelfAttention", "FeedForward", "Block", "GPT", "GPTWithLoss"]


@dataclasses.dataclass(frozen=True)
class GPTConfig:
    """The shape of the network.

    Attributes:
        vocab_size: tokens (characters) in the vocabulary.
        seq_length: the context length.
        hidden_size: the model width.
        num_layers: transformer blocks.
        num_heads: attention heads (must divide ``hidden_size``).
        init_std: standard deviation of the weights' normal initialisation.
    """

    vocab_size: int = 128
    seq_length: int = 64
    hidden_size: int = 128
    num_layers: int = 4
    num_heads: int = 4
    init_std: float = 0.02

    def __post_init__(self) -> None:
        for name in ("vocab_size", "seq_length", "hidden_size", "num_layers", "num_heads"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"For 'GPTConfig', '{name}' must be a positive int, got {value!r}")
        if self.hidden_size % self.num_heads:
            raise ValueError(f"For 'GPTConfig', 'num_heads' ({self.num_heads}) must divide 'hidden_size' "
                             f"({self.hidden_size})")


@dataclasses.dataclass(frozen=True)
class ParallelConfig:
    """The Megatron plan's split: batch over ``dp`` devices, heads and MLP columns over ``mp``.

    Attributes:
        dp: data-parallel ways.
        mp: model-parallel (tensor-parallel) ways.
    """

    dp: int = 1
    mp: int = 1

    def layout(self) -> ms.Layout:
        """The device matrix every strategy of the plan is written on."""
        return ms.Layout((self.dp, self.mp), ("dp", "mp"))

    def check(self, config: GPTConfig) -> None:
        """Raise ValueError when ``mp`` does not divide the heads, the MLP width or the vocabulary."""
        for name, size in (("num_heads", config.num_heads), ("vocab_size", config.vocab_size),
                           ("4 * hidden_size", 4 * config.hidden_size)):
            if size % self.mp:
                raise ValueError(f"For 'ParallelConfig', 'mp' ({self.mp}) must divide {name} ({size})")


def _dense(d_in: int, d_out: int, std: float, has_bias: bool = True) -> nn.Dense:
    return nn.Dense(d_in, d_out, weight_init=Normal(std), bias_init="zeros", has_bias=has_bias)


def _column_parallel(dense: nn.Dense, layout: ms.Layout) -> None:
    plan = {"self.weight": layout("mp", "None")}
    if dense.has_bias:
        plan["self.bias"] = layout("mp")
    dense.shard(in_strategy=(layout("dp", "None", "None"),), parameter_plan=plan)


def _row_parallel(dense: nn.Dense, layout: ms.Layout) -> None:
    dense.shard(in_strategy=(layout("dp", "None", "mp"),), parameter_plan={"self.weight": layout("None", "mp")})


class CausalSelfAttention(nn.Cell):
    """Multi-head self-attention with a causal mask.

    Arguments:
        config: the network's shape.
        parallel: the Megatron split, or None for none.

    Inputs:
        x: ``(batch, seq, hidden)``.

    Returns:
        ``(batch, seq, hidden)``.
    """

    def __init__(self, config: GPTConfig, parallel: ParallelConfig | None = None) -> None:
        super().__init__()
        d, std = config.hidden_size, config.init_std
        self.num_heads = config.num_heads
        self.head_dim = d // config.num_heads
        self.q = _dense(d, d, std)
        self.k = _dense(d, d, std)
        self.v = _dense(d, d, std)
        # GPT-2 scales the residual projections by the depth.
        self.projection = _dense(d, d, std / math.sqrt(2 * config.num_layers))
        self.scores = ops.BatchMatMul(transpose_b=True)
        self.softmax = ops.Softmax(axis=-1)
        self.context = ops.BatchMatMul()
        mask = np.tril(np.ones((config.seq_length, config.seq_length), np.float32))
        self.mask_bias = ms.Tensor((1.0 - mask) * -1e9, ms.float32)
        if parallel is not None:
            layout, dp, mp = parallel.layout(), parallel.dp, parallel.mp
            for dense in (self.q, self.k, self.v):
                _column_parallel(dense, layout)
            _row_parallel(self.projection, layout)
            self.scores.shard(((dp, mp, 1, 1), (dp, mp, 1, 1)))
            self.softmax.shard(((dp, mp, 1, 1),))
            self.context.shard(((dp, mp, 1, 1), (dp, mp, 1, 1)))

    def _split_heads(self, x: Any) -> Any:
        b, s, _ = x.shape
        return x.reshape(b, s, self.num_heads, self.head_dim).transpose(0, 2, 1, 3)

    def construct(self, x: Any) -> Any:
        b, s, d = x.shape
        q, k, v = self._split_heads(self.q(x)), self._split_heads(self.k(x)), self._split_heads(self.v(x))
        scores = self.scores(q, k) * (1.0 / math.sqrt(self.head_dim))
        scores = scores + self.mask_bias[:s, :s].astype(scores.dtype)
        probs = self.softmax(scores)
        out = self.context(probs, v).transpose(0, 2, 1, 3).reshape(b, s, d)
        return self.projection(out)


class FeedForward(nn.Cell):
    """The MLP: ``mapping`` to 4x width, GELU, ``output`` back (MindSpore's transformer names).

    Arguments:
        config: the network's shape.
        parallel: the Megatron split, or None.

    Inputs:
        x: ``(batch, seq, hidden)``.

    Returns:
        ``(batch, seq, hidden)``.
    """

    def __init__(self, config: GPTConfig, parallel: ParallelConfig | None = None) -> None:
        super().__init__()
        d, std = config.hidden_size, config.init_std
        self.mapping = _dense(d, 4 * d, std)
        self.activation = nn.GELU(approximate=True)
        self.output = _dense(4 * d, d, std / math.sqrt(2 * config.num_layers))
        if parallel is not None:
            layout = parallel.layout()
            _column_parallel(self.mapping, layout)
            _row_parallel(self.output, layout)

    def construct(self, x: Any) -> Any:
        return self.output(self.activation(self.mapping(x)))


class Block(nn.Cell):
    """A pre-norm transformer block: ``x + attention(ln(x))``, then ``x + mlp(ln(x))``.

    Arguments:
        config: the network's shape.
        parallel: the Megatron split, or None.

    Inputs:
        x: ``(batch, seq, hidden)``.

    Returns:
        ``(batch, seq, hidden)``.
    """

    def __init__(self, config: GPTConfig, parallel: ParallelConfig | None = None) -> None:
        super().__init__()
        d = config.hidden_size
        self.layernorm1 = nn.LayerNorm((d,))
        self.attention = CausalSelfAttention(config, parallel)
        self.layernorm2 = nn.LayerNorm((d,))
        self.mlp = FeedForward(config, parallel)
        if parallel is not None:
            layout = parallel.layout()
            for norm in (self.layernorm1, self.layernorm2):
                norm.shard(in_strategy=(layout("dp", "None", "None"),))

    def construct(self, x: Any) -> Any:
        x = x + self.attention(self.layernorm1(x))
        return x + self.mlp(self.layernorm2(x))


class GPT(nn.Cell):
    """Token and position embeddings, ``num_layers`` blocks, a final LayerNorm and the vocabulary head.

    Arguments:
        config: the network's shape.
        parallel: the Megatron split, or None.

    Inputs:
        input_ids: int32 ``(batch, seq)`` with ``seq <= config.seq_length``.

    Returns:
        logits ``(batch, seq, vocab_size)``.

    Raises:
        ValueError: inputs longer than the context, or a split that does not fit.
    """

    def __init__(self, config: GPTConfig, parallel: ParallelConfig | None = None) -> None:
        super().__init__()
        if parallel is not None:
            parallel.check(config)
        self.config = config
        d = config.hidden_size
        self.word_embedding = nn.Embedding(config.vocab_size, d, embedding_table=Normal(config.init_std))
        self.position_embedding = nn.Embedding(config.seq_length, d, embedding_table=Normal(config.init_std))
        self.blocks = nn.CellList([Block(config, parallel) for _ in range(config.num_layers)])
        self.layernorm = nn.LayerNorm((d,))
        self.head = _dense(d, config.vocab_size, config.init_std, has_bias=False)
        if parallel is not None:
            layout = parallel.layout()
            self.word_embedding.shard(in_strategy=(layout("dp", "None"),),
                                      parameter_plan={"self.embedding_table": layout("mp", "None")})
            self.layernorm.shard(in_strategy=(layout("dp", "None", "None"),))
            _column_parallel(self.head, layout)

    def _check_length(self, input_ids: Any) -> None:
        # Kept apart, with nothing after the `if`: GRAPH mode's control-flow rewrite of
        # construct loses the following statements' state after an `if ...: raise`.
        if input_ids.shape[-1] > self.config.seq_length:
            raise ValueError(f"{self._where()}, expected input_ids of at most {self.config.seq_length} "
                             f"positions, got {tuple(input_ids.shape)}")

    def construct(self, input_ids: Any) -> Any:
        self._check_length(input_ids)
        seq = input_ids.shape[-1]
        positions = jnp.arange(seq, dtype=jnp.int32)
        x = self.word_embedding(input_ids) + self.position_embedding(positions)
        for block in self.blocks:
            x = block(x)
        return self.head(self.layernorm(x))


class GPTWithLoss(nn.Cell):
    """The next-token cross entropy of a GPT, averaged over every position.

    Arguments:
        network: the GPT.

    Inputs:
        input_ids: int32 ``(batch, seq)``.
        labels: int32 ``(batch, seq)``, the next character at each position.

    Returns:
        the scalar mean loss.
    """

    def __init__(self, network: GPT) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, input_ids: Any, labels: Any) -> Any:
        logits = self.network(input_ids)
        vocab = logits.shape[-1]
        return self.loss(logits.reshape(-1, vocab).astype(jnp.float32), labels.reshape(-1))
