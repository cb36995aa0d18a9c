"""``CosineSimilarity``: the pairwise similarity matrix of the rows of the last input."""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["CosineSimilarity"]


def _one_of(name: str, value: Any, allowed: list[str]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"For 'CosineSimilarity', the type of '{name}' should be 'str', but got "
                        f"{type(value).__name__}")
    if value not in allowed:
        raise ValueError(f"For 'CosineSimilarity', the '{name}' should be in {allowed}, but got {value!r}")
    return value


class CosineSimilarity(Metric):
    """The ``(N, N)`` matrix of row similarities of an ``(N, D)`` input, optionally reduced per row.

    Arguments:
        similarity: ``'cosine'`` (default, rows normalised first) or ``'dot'``.
        reduction: ``'none'`` (default), ``'sum'`` or ``'mean'`` over the last axis.
        zero_diagonal: set the diagonal to 0 (default ``True``).

    Raises:
        TypeError / ValueError: arguments of the wrong type or value.
    """

    def __init__(self, similarity: str = "cosine", reduction: str = "none", zero_diagonal: bool = True) -> None:
        super().__init__()
        self.similarity = _one_of("similarity", similarity, ["dot", "cosine"])
        self.reduction = _one_of("reduction", reduction, ["none", "sum", "mean"])
        if not isinstance(zero_diagonal, bool):
            raise TypeError(f"For 'CosineSimilarity', the type of 'zero_diagonal' should be 'bool', but got "
                            f"{type(zero_diagonal).__name__}")
        self.zero_diagonal = zero_diagonal
        self.clear()

    def clear(self) -> None:
        """Forget the last input."""
        self.sqr_mtx_res: Any = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs: Any) -> None:
        """Compute the similarity matrix of ``inputs`` (``(N, D)``); each call replaces the last."""
        data = self._convert_data(inputs)
        if self.similarity == "cosine":
            data = data / np.linalg.norm(data, ord=2, axis=1)[:, None]
        self.sqr_mtx_res = data @ data.T
        self._is_update = True

    def eval(self) -> np.ndarray:
        """The similarity matrix (or its per-row sums or means)."""
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if self.zero_diagonal:
            np.fill_diagonal(self.sqr_mtx_res, 0)
        if self.reduction == "mean":
            self.sqr_mtx_res = self.sqr_mtx_res.mean(-1)
        elif self.reduction == "sum":
            self.sqr_mtx_res = self.sqr_mtx_res.sum(-1)
        return self.sqr_mtx_res
