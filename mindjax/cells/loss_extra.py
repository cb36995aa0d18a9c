"""More of MindSpore's losses: Gaussian and Poisson NLL, ranking and margin losses, CTC, RMSE/MAE
and multi-class Dice. Each calls its functional op in ``mindjax.ops.function.nn_func``.

Example:
    >>> import numpy as np
    >>> from mindjax import nn
    >>> float(nn.MAELoss()(np.array([1.0, 2.0]), np.array([0.0, 4.0])))
    1.5
"""
from __future__ import annotations

import math
from typing import Any

import jax
import jax.numpy as jnp

from mindjax.cells.cell import Cell
from mindjax.cells.layers._inputs import broadcast_pair
from mindjax.cells.loss import LossBase
from mindjax.common.tensor import Tensor
from mindjax.common.tensor import as_array as _arr
from mindjax.ops.function import nn_func as _nn

__all__ = ["GaussianNLLLoss", "PoissonNLLLoss", "MarginRankingLoss", "HingeEmbeddingLoss", "SoftMarginLoss",
           "MultiMarginLoss", "MultiLabelSoftMarginLoss", "TripletMarginLoss", "CTCLoss", "RMSELoss", "MAELoss",
           "MultiClassDiceLoss", "MultilabelMarginLoss", "TripletMarginWithDistanceLoss"]


def _float_arg(where: str, name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{where}', '{name}' must be a float, got {type(value).__name__}")
    return float(value)


class GaussianNLLLoss(LossBase):
    """Gaussian negative log-likelihood of ``labels`` under means ``logits`` and variances ``var``.

    Arguments:
        full: add the constant ``0.5 * log(2 pi)``.
        eps: the floor of the variance.
        reduction: ``'none'``, ``'mean'`` or ``'sum'``.
    """

    def __init__(self, *, full: bool = False, eps: float = 1e-06, reduction: str = "mean") -> None:
        super().__init__(reduction)
        if not isinstance(full, bool):
            raise TypeError(f"For 'GaussianNLLLoss', 'full' must be a bool, got {type(full).__name__}")
        if _float_arg("GaussianNLLLoss", "eps", eps) <= 0:
            raise ValueError(f"For 'GaussianNLLLoss', 'eps' must be positive, got {eps}")
        self.full, self.eps, self.reduction = full, float(eps), reduction

    def construct(self, logits: Any, labels: Any, var: Any) -> jax.Array:
        logits, labels = broadcast_pair(self._where(), ("logits", "labels"), logits, labels)
        return _nn.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


class PoissonNLLLoss(LossBase):
    """Poisson negative log-likelihood: ``exp(x) - t * x`` (``log_input``) or ``x - t * log(x + eps)``,
    plus Stirling's term ``t log t - t + 0.5 log(2 pi t)`` for ``t > 1`` when ``full``."""

    def __init__(self, log_input: bool = True, full: bool = False, eps: float = 1e-08,
                 reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.log_input, self.full, self.eps = bool(log_input), bool(full), _float_arg("PoissonNLLLoss", "eps", eps)

    def construct(self, input: Any, target: Any) -> jax.Array:  # noqa: A002 - MindSpore's name
        x, t = broadcast_pair(self._where(), ("input", "target"), input, target)
        t = t.astype(x.dtype)
        loss = jnp.exp(x) - t * x if self.log_input else x - t * jnp.log(x + self.eps)
        if self.full:
            stirling = t * jnp.log(jnp.where(t > 0, t, 1)) - t + 0.5 * jnp.log(2 * math.pi * jnp.where(t > 0, t, 1))
            loss = loss + jnp.where(t > 1, stirling, 0)
        return self.get_loss(loss)


class MarginRankingLoss(LossBase):
    """``max(0, -target * (input1 - input2) + margin)``."""

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.margin, self.reduction = _float_arg("MarginRankingLoss", "margin", margin), reduction

    def construct(self, input1: Any, input2: Any, target: Any) -> jax.Array:
        input1, input2 = broadcast_pair(self._where(), ("input1", "input2"), input1, input2)
        return _nn.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class HingeEmbeddingLoss(LossBase):
    """``x`` where the label is 1, ``max(0, margin - x)`` where it is -1."""

    def __init__(self, margin: float = 1.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.margin, self.reduction = _float_arg("HingeEmbeddingLoss", "margin", margin), reduction

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        logits, labels = broadcast_pair(self._where(), ("logits", "labels"), logits, labels)
        return _nn.hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class SoftMarginLoss(LossBase):
    """``log(1 + exp(-labels * logits))``."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.reduction = reduction

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        logits, labels = broadcast_pair(self._where(), ("logits", "labels"), logits, labels)
        return _nn.soft_margin_loss(logits, labels, self.reduction)


class MultiMarginLoss(LossBase):
    """Multi-class hinge loss (``p`` 1 or 2) with optional class ``weight``."""

    def __init__(self, p: int = 1, margin: float = 1.0, reduction: str = "mean", weight: Any = None) -> None:
        super().__init__(reduction)
        if p not in (1, 2):
            raise ValueError(f"For 'MultiMarginLoss', 'p' must be 1 or 2, got {p!r}")
        self.p, self.margin, self.reduction = p, _float_arg("MultiMarginLoss", "margin", margin), reduction
        self.weight = weight

    def construct(self, x: Any, target: Any, weight: Any = None) -> jax.Array:
        return _nn.multi_margin_loss(x, target, self.p, self.margin, self.weight if weight is None else weight,
                                     self.reduction)


class MultiLabelSoftMarginLoss(LossBase):
    """``-mean_c(w * (y log sigmoid(x) + (1 - y) log sigmoid(-x)))`` per sample."""

    def __init__(self, weight: Any = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight, self.reduction = weight, reduction

    def construct(self, x: Any, target: Any) -> jax.Array:
        x, target = broadcast_pair(self._where(), ("x", "target"), x, target)
        return _nn.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)


class TripletMarginLoss(LossBase):
    """``max(d(x, positive) - d(x, negative) + margin, 0)`` with the ``p``-norm distance."""

    def __init__(self, p: int = 2, swap: bool = False, eps: float = 1e-06, reduction: str = "mean",
                 margin: float = 1.0) -> None:
        super().__init__(reduction)
        self.p, self.swap, self.eps, self.reduction = p, bool(swap), _float_arg("TripletMarginLoss", "eps", eps), \
            reduction
        self.margin = _float_arg("TripletMarginLoss", "margin", margin)

    def construct(self, x: Any, positive: Any, negative: Any, margin: Any = 1.0) -> jax.Array:
        m = self.margin if margin == 1.0 else float(jnp.asarray(_arr(margin)))
        return _nn.triplet_margin_loss(x, positive, negative, m, self.p, self.eps, self.swap, self.reduction)


class CTCLoss(LossBase):
    """Connectionist Temporal Classification loss over ``(T, N, C)`` log-probabilities.

    Arguments:
        blank: the blank label.
        reduction: ``'none'``, ``'mean'`` (each loss divided by its target length, then averaged) or ``'sum'``.
        zero_infinity: replace infinite losses with zero.
    """

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None:
        super().__init__(reduction)
        if isinstance(blank, bool) or not isinstance(blank, int) or blank < 0:
            raise ValueError(f"For 'CTCLoss', 'blank' must be a non-negative int, got {blank!r}")
        self.blank, self.reduction, self.zero_infinity = blank, reduction, bool(zero_infinity)

    def construct(self, log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any) -> jax.Array:
        loss, _ = _nn.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                               self.zero_infinity)
        return loss


class RMSELoss(LossBase):
    """Root mean squared error ``sqrt(mean((logits - label) ** 2))``."""

    def __init__(self) -> None:
        super().__init__()

    def construct(self, logits: Any, label: Any) -> jax.Array:
        logits, label = broadcast_pair(self._where(), ("logits", "label"), logits, label)
        return jnp.sqrt(_nn.mse_loss_ext(logits, label, "mean"))


class MAELoss(LossBase):
    """Mean absolute error ``|logits - label|`` with ``reduction``."""

    def construct(self, logits: Any, label: Any) -> jax.Array:
        x, y = broadcast_pair(self._where(), ("logits", "label"), logits, label)
        return self.get_loss(jnp.abs(x - y))


class MultiClassDiceLoss(LossBase):
    """The sum over classes of the Dice loss of ``activation(logits)[:, i]`` against ``label[:, i]``, divided
    by the number of classes.

    Arguments:
        weights: optional 2-D class weights; row ``i`` scales class ``i``'s loss.
        ignore_indiex: a class index left out (MindSpore's spelling).
        activation: a name of ``'softmax'``, ``'logsoftmax'``, ``'relu'``, ``'relu6'``, ``'tanh'``,
            ``'sigmoid'`` (as ``nn.get_activation`` builds it: softmax over the last axis), a Cell, or None.
    """

    _ACTIVATIONS = ("softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid")

    def __init__(self, weights: Any = None, ignore_indiex: int | None = None, activation: Any = "softmax") -> None:
        super().__init__()
        if isinstance(activation, str):
            if activation not in self._ACTIVATIONS:
                raise ValueError(f"For 'MultiClassDiceLoss', 'activation' must be one of {list(self._ACTIVATIONS)}, "
                                 f"got {activation!r}")
            from mindjax.cells.layers.activation import get_activation

            activation = get_activation(activation)
        if activation is not None and not isinstance(activation, Cell):
            raise TypeError(f"For 'MultiClassDiceLoss', 'activation' must be a str, a Cell or None, got "
                            f"{type(activation).__name__}")
        if weights is not None and _arr(weights).ndim != 2:
            raise ValueError(f"For 'MultiClassDiceLoss', the dimension of 'weights' must be 2, got "
                             f"{_arr(weights).ndim}")
        if ignore_indiex is not None and (isinstance(ignore_indiex, bool) or not isinstance(ignore_indiex, int)):
            raise TypeError(f"For 'MultiClassDiceLoss', 'ignore_indiex' must be an int, got {ignore_indiex!r}")
        self.weights = weights
        self.ignore_indiex = ignore_indiex
        self.activation = activation
        self.smooth = 1e-5

    def _activate(self, x: jax.Array) -> jax.Array:
        return x if self.activation is None else _arr(self.activation(x))

    def construct(self, logits: Any, label: Any) -> jax.Array:
        x, y = _arr(logits), _arr(label).astype(_arr(logits).dtype)
        if x.shape != y.shape or x.ndim < 2:
            raise ValueError(f"{self._where()}, 'logits' and 'label' must have one shape of rank >= 2, got "
                             f"{x.shape} and {y.shape}")
        x = self._activate(x)
        total = 0.0
        classes = x.shape[1]
        for i in range(classes):
            if self.ignore_indiex is not None and i == self.ignore_indiex:
                continue
            a, b = x[:, i].reshape(-1), y[:, i].reshape(-1)
            dice = 1 - (2 * jnp.sum(a * b)) / (jnp.sum(a * a) + jnp.sum(b * b) + self.smooth)
            if self.weights is not None:
                dice = dice * _arr(self.weights)[i]
            total = total + dice
        return total / classes


class MultilabelMarginLoss(LossBase):
    """The multi-label hinge loss of scores ``x`` ``(N, C)`` or ``(C,)`` and padded target indices.

    ``target`` holds each sample's label indices, ended by the first ``-1``.

    Arguments:
        reduction: ``'none'``, ``'mean'`` (default) or ``'sum'``.

    Raises:
        ValueError: another ``reduction``.
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.reduction = reduction

    def construct(self, x: Any, target: Any) -> jax.Array:
        return _nn.multilabel_margin_loss(x, target, self.reduction)


def _pairwise_l2(x: Any, y: Any) -> jax.Array:
    d = jnp.abs(_arr(x) - _arr(y))
    if d.ndim == 0:
        raise ValueError("For 'pairwise_distance' in 'TripletMarginWithDistanceLoss', 'ndim' of the input must be "
                         f"positive, but got {d.ndim}")
    return jnp.sqrt(jnp.sum(d * d, axis=1))


class TripletMarginWithDistanceLoss(LossBase):
    """``max(d(x, positive) - d(x, negative) + margin, 0)`` with any distance function ``d``.

    Arguments:
        distance_function: a callable of two Tensors; ``None`` (default) is the L2 distance along axis 1.
        swap: use ``min(d(x, negative), d(positive, negative))`` as the negative distance.
        reduction: ``'none'``, ``'mean'`` (default) or ``'sum'``.
        margin: a float (default ``1.0``).

    Raises:
        TypeError: ``margin`` not a float, ``swap`` not a bool, or inputs that are not Tensors.
    """

    def __init__(self, distance_function: Any = None, swap: bool = False, reduction: str = "mean",
                 margin: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        if not isinstance(margin, float):
            raise TypeError(f"For 'TripletMarginWithDistanceLoss', the type of 'margin' should be 'float', but got "
                            f"{type(margin).__name__}")
        if not isinstance(swap, bool):
            raise TypeError(f"For 'TripletMarginWithDistanceLoss', the type of 'swap' should be 'bool', but got "
                            f"{type(swap).__name__}")
        self.distance_function = _pairwise_l2 if distance_function is None else distance_function
        self.swap = swap
        self.reduction = reduction
        self.margin = margin

    def construct(self, x: Any, positive: Any, negative: Any) -> jax.Array:
        for name, v in (("x", x), ("positive", positive), ("negative", negative)):
            if v is not None and not isinstance(v, (jax.Array, Tensor)):
                raise TypeError(f"For 'TripletMarginWithDistanceLoss', the '{name}' must be a Tensor, but got "
                                f"{type(v).__name__}")
        d1 = _arr(self.distance_function(x, positive))
        d2 = _arr(self.distance_function(x, negative))
        if self.swap:
            d2 = jnp.minimum(d2, _arr(self.distance_function(positive, negative)))
        return self.get_loss(jnp.maximum(d1 - d2 + self.margin, 0))
