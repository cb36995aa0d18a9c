"""Wide&Deep with the structure of MindSpore's model zoo (``official/recommend/Wide_and_Deep``).

A batch is ``(ids, weights, label)``: 39 fields per sample (13 dense fields,
each one id whose weight is the feature's value, and 26 categorical fields,
an id with weight 1) in one id space of ``vocab_size``. The wide part is a
linear model over the ids (``wide_w``, ``wide_b``); the deep part looks the
ids up in ``embedding_table``, scales the rows by the weights and runs an
MLP (``dense_layer_1`` ... ``dense_layer_5``). The logit is their sum.

Hybrid parallel, as the zoo's semi-auto Wide&Deep: the two tables are split
by rows (the vocabulary) over all devices (``TABLE_ROW_SLICE``), the lookups
are ``Gather`` ops sharded to match, and the MLP runs data parallel with the
batch split over the devices.

Example:
    >>> import mindjax as ms, numpy as np
    >>> net = WideDeepModel(vocab_size=64, field_size=39, emb_dim=4, deep_dims=(16, 8))
    >>> ids = np.zeros((2, 39), np.int32); w = np.ones((2, 39), np.float32)
    >>> net(ms.Tensor(ids), ms.Tensor(w)).shape
    (2, 1)
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import jax.numpy as jnp
import mindjax as ms
from mindjax import nn, ops
from mindjax.common.initializer import Normal, Uniform, initializer

__all__ = ["WideDeepModel", "WideDeepWithLoss", "DENSE_FIELDS", "CATEGORICAL_FIELDS"]

DENSE_FIELDS = 13
CATEGORICAL_FIELDS = 26


class WideDeepModel(nn.Cell):
    """The Wide&Deep network.

    Arguments:
        vocab_size: ids in the shared id space (rows of both tables).
        field_size: fields per sample (39 for Criteo).
        emb_dim: embedding width.
        deep_dims: hidden widths of the deep MLP (the zoo's are 1024, 512, 256, 128).
        table_split: devices the tables' rows are split over (1: not split). Only
            acts in SEMI_AUTO_PARALLEL / AUTO_PARALLEL, as MindSpore's strategies.

    Inputs:
        ids: int32 ``(batch, field_size)``.
        weights: float32 ``(batch, field_size)``.

    Returns:
        logits ``(batch, 1)``.

    Raises:
        ValueError: ``table_split`` does not divide ``vocab_size``.
    """

    def __init__(self, vocab_size: int, field_size: int = DENSE_FIELDS + CATEGORICAL_FIELDS, emb_dim: int = 16,
                 deep_dims: Sequence[int] = (1024, 512, 256, 128), table_split: int = 1) -> None:
        super().__init__()
        if vocab_size % table_split:
            raise ValueError(f"For 'WideDeepModel', 'table_split' ({table_split}) must divide 'vocab_size' "
                             f"({vocab_size})")
        self.field_size, self.emb_dim = field_size, emb_dim
        self.wide_w = ms.Parameter(initializer(Normal(0.01), (vocab_size, 1)),
                                   name="wide_w")
        self.wide_b = ms.Parameter(jnp.zeros((1,), jnp.float32), name="wide_b")
        self.embedding_table = ms.Parameter(
            initializer(Normal(0.01), (vocab_size, emb_dim)), name="embedding_table")
        dims = [field_size * emb_dim, *deep_dims, 1]
        layers = []
        for k, (d_in, d_out) in enumerate(zip(dims[:-1], dims[1:])):
            bound = 1 / math.sqrt(d_in)
            layers.append(nn.Dense(d_in, d_out, weight_init=Uniform(bound), bias_init="zeros",
                                   activation="relu" if k < len(dims) - 2 else None))
        for k, layer in enumerate(layers):
            setattr(self, f"dense_layer_{k + 1}", layer)
        self.deep = [getattr(self, f"dense_layer_{k + 1}") for k in range(len(layers))]
        self.wide_gather = ops.Gather()
        self.deep_gather = ops.Gather()
        if table_split > 1:
            self._hybrid_parallel(table_split)

    def _hybrid_parallel(self, n: int) -> None:
        # Rows of both tables over all n devices; the lookups read them with replicated ids;
        # everything after the lookups, and the batch, is data parallel over the same n devices.
        self.shard(in_strategy=((n, 1), (n, 1)),
                   parameter_plan={"self.wide_w": (n, 1), "self.embedding_table": (n, 1)})
        self.wide_gather.shard(((n, 1), (1, 1)))
        self.deep_gather.shard(((n, 1), (1, 1)))
        for layer in self.deep:
            layer.shard(in_strategy=((n, 1),))

    def construct(self, ids: Any, weights: Any) -> Any:
        weights = weights.astype(jnp.float32)
        wide = self.wide_gather(self.wide_w, ids, 0)[..., 0]                  # (batch, fields)
        wide_out = jnp.sum(wide * weights, axis=1, keepdims=True) + self.wide_b._value
        rows = self.deep_gather(self.embedding_table, ids, 0)                 # (batch, fields, emb)
        deep = (rows * weights[..., None]).reshape(ids.shape[0], self.field_size * self.emb_dim)
        for layer in self.deep:
            deep = layer(deep)
        return wide_out + deep


class WideDeepWithLoss(nn.Cell):
    """Sigmoid cross entropy of the Wide&Deep logit against the 0/1 label, averaged.

    Arguments:
        network: the WideDeepModel.

    Inputs:
        ids, weights: as for :class:`WideDeepModel`.
        label: float32 ``(batch, 1)``.

    Returns:
        the scalar mean loss.
    """

    def __init__(self, network: WideDeepModel) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss = nn.BCEWithLogitsLoss(reduction="mean")

    def construct(self, ids: Any, weights: Any, label: Any) -> Any:
        return self.loss(self.network(ids, weights), label.astype(jnp.float32))
