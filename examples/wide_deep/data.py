"""Synthetic Criteo-shaped click data: 13 dense and 26 categorical fields, labels from a hidden model.

The id space follows the zoo's preprocessed Criteo: dense field ``f`` has the
single id ``f`` (its weight is ``log1p`` of a heavy-tailed count), categorical
field ``c`` owns ``field_vocab`` ids after the dense ones (weight 1), ids drawn
Zipf-like as real categories are. Labels come from a fixed random logistic
model over the same ids, so the loss has something to learn; about a quarter
of the samples are clicks, as in Criteo.
"""
from __future__ import annotations

from typing import Any

import numpy as np

import mindjax.dataset as ds

from examples.wide_deep.wide_deep import CATEGORICAL_FIELDS, DENSE_FIELDS

__all__ = ["vocab_size_for", "criteo_like_arrays", "criteo_like_dataset"]


def vocab_size_for(field_vocab: int, multiple: int = 1) -> int:
    """The id-space size for ``field_vocab`` ids per categorical field, rounded up to ``multiple``."""
    size = DENSE_FIELDS + CATEGORICAL_FIELDS * field_vocab
    return -(-size // multiple) * multiple


def criteo_like_arrays(count: int, field_vocab: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` samples: ids int32 ``(N, 39)``, weights float32 ``(N, 39)``, labels float32 ``(N, 1)``."""
    rng = np.random.default_rng(seed)
    dense_ids = np.broadcast_to(np.arange(DENSE_FIELDS), (count, DENSE_FIELDS))
    dense_values = np.log1p(rng.lognormal(mean=1.0, sigma=1.5, size=(count, DENSE_FIELDS)))
    ranks = np.minimum(rng.zipf(1.3, size=(count, CATEGORICAL_FIELDS)) - 1, field_vocab - 1)
    offsets = DENSE_FIELDS + field_vocab * np.arange(CATEGORICAL_FIELDS)
    ids = np.concatenate([dense_ids, offsets + ranks], axis=1).astype(np.int32)
    weights = np.concatenate([dense_values, np.ones((count, CATEGORICAL_FIELDS))], axis=1).astype(np.float32)
    hidden = np.random.default_rng(seed + 1).normal(0.0, 0.6, size=vocab_size_for(field_vocab))
    logit = (hidden[ids] * weights).sum(axis=1) / np.sqrt(ids.shape[1])
    logit = logit - np.quantile(logit, 0.75)
    labels = (rng.random(count) < 1 / (1 + np.exp(-3 * logit))).astype(np.float32)[:, None]
    return ids, weights, labels


def criteo_like_dataset(batch_size: int, steps: int, field_vocab: int, seed: int = 0) -> Any:
    """``steps`` batches of ``(ids, weights, label)`` in a fixed order."""
    ids, weights, labels = criteo_like_arrays(batch_size * steps, field_vocab, seed)
    data = ds.NumpySlicesDataset((ids, weights, labels), column_names=["ids", "weights", "label"],
                                 shuffle=False)
    return data.batch(batch_size, drop_remainder=True)
