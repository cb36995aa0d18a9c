"""More of MindSpore's losses: Gaussian and Poisson NLL, ranking and margin losses, CTC, RMSE/MAE
and multi-class Dice. Each calls its functional op in ``mindjax.ops.function.nn_func``.

Example:
    >>> import numpy as np
    >>> from mindjax import nn
    >>> float(nn.MAELoss()(np.array([1.0, 2.0]), np.array([0.0, 4.0])))
    1.5
"""
from __future__ import annotations

import functools
import math
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.cells.cell import Cell
from mindjax.cells.layers._inputs import broadcast_pair, tensor_input
from mindjax.cells.loss import LossBase
from mindjax.common.tensor import Tensor
from mindjax.common.tensor import as_array as _arr
from mindjax.ops.function import nn_func as _nn

__all__ = ["GaussianNLLLoss", "PoissonNLLLoss", "MarginRankingLoss", "HingeEmbeddingLoss", "SoftMarginLoss",
           "MultiMarginLoss", "MultiLabelSoftMarginLoss", "TripletMarginLoss", "CTCLoss", "RMSELoss", "MAELoss",
           "MultiClassDiceLoss", "MultilabelMarginLoss", "TripletMarginWithDistanceLoss", "SampledSoftmaxLoss"]


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
        x, target = tensor_input(self._where(), "x", x), tensor_input(self._where(), "target", target)
        if x.ndim not in (1, 2) or tuple(target.shape) != tuple(x.shape[:-1]):
            raise ValueError(f"{self._where()}, 'x' must be (N, C) or (C,) and 'target' x's shape without its "
                             f"last axis, got {tuple(x.shape)} and {tuple(target.shape)}")
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
        x, target = tensor_input(self._where(), "x", x), tensor_input(self._where(), "target", target)
        if tuple(x.shape) != tuple(target.shape):
            raise ValueError(f"{self._where()}, 'x' and 'target' must have one shape, got {tuple(x.shape)} "
                             f"and {tuple(target.shape)}")
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


def _too_few_classes(drawn: Any, num_sampled: int) -> None:
    raise ValueError(f"For 'UniformCandidateSampler', only {int(drawn)} classes could be drawn of 'num_sampled' "
                     f"({num_sampled}): with 'remove_accidental_hits' the classes that are not labels of the batch "
                     f"must number at least 'num_sampled'")


@functools.partial(jax.jit, static_argnums=(2, 3, 4, 5))
def _uniform_candidates(key: Any, true_classes: jax.Array, num_sampled: int, unique: bool, range_max: int,
                        remove_accidental_hits: bool) -> tuple[jax.Array, jax.Array, jax.Array]:
    """MindSpore's ``UniformCandidateSampler``: ``num_sampled`` classes drawn uniformly from ``[0, range_max)``.

    Classes are drawn one at a time; with ``unique`` a class already drawn is drawn again, and
    with ``remove_accidental_hits`` so is a class among ``true_classes``. The expected counts are
    ``num_sampled / range_max`` without ``unique`` and ``1 - (1 - 1/range_max) ** tries`` with it
    (``tries``: every draw made, the rejected ones included), for the true and the sampled classes.
    """
    is_true = jnp.zeros((range_max,), bool).at[true_classes.reshape(-1)].set(True)

    def draw(state: tuple[Any, ...]) -> tuple[Any, ...]:
        tries, count, sampled, chosen = state
        c = jax.random.randint(jax.random.fold_in(key, tries), (), 0, range_max, jnp.int32)
        accept = jnp.logical_not((unique & chosen[c]) | (remove_accidental_hits & is_true[c]))
        sampled = jnp.where(accept, sampled.at[count].set(c), sampled)
        return tries + 1, count + accept.astype(jnp.int32), sampled, chosen.at[c].set(chosen[c] | accept)

    # The cap ends the loop where too few classes are left to draw (the caller checks that when it can).
    max_tries = 64 * (range_max + num_sampled)
    state = (jnp.int32(0), jnp.int32(0), jnp.zeros((num_sampled,), jnp.int32), jnp.zeros((range_max,), bool))
    tries, count, sampled, _ = jax.lax.while_loop(lambda s: (s[1] < num_sampled) & (s[0] < max_tries), draw, state)
    jax.lax.cond(count < num_sampled, lambda: jax.debug.callback(_too_few_classes, count, num_sampled), lambda: None)
    p = 1.0 / range_max
    if unique:
        expected = -jnp.expm1(tries.astype(jnp.float32) * jnp.log1p(jnp.float32(-p)))
    else:
        expected = jnp.float32(num_sampled * p)
    return (sampled, jnp.full(true_classes.shape, expected, jnp.float32),
            jnp.full((num_sampled,), expected, jnp.float32))


class SampledSoftmaxLoss(LossBase):
    """Softmax cross-entropy over the true classes and ``num_sampled`` sampled ones (MindSpore's ``SampledSoftmaxLoss``).

    Per example, the logits of its ``num_true`` true classes and of the shared sampled
    classes are ``inputs @ weights[c] + biases[c] - log(expected_count[c])``; the target puts
    ``1 / num_true`` on each true class. Without ``sampled_values`` the classes are drawn by
    :func:`_uniform_candidates` (unique, uniform; with ``remove_accidental_hits`` a true class
    of the batch is never drawn, which is how MindSpore removes accidental hits). The draws
    come from MindJAX's global key (``mindjax.set_seed``), ``seed`` mixed in when non-zero:
    fixed seeds give fixed draws, not MindSpore's. As in MindSpore 2.10 the loss is returned
    per example whatever ``reduction`` says.

    Arguments:
        num_sampled: the number of classes drawn (<= ``num_classes``).
        num_classes: the number of classes.
        num_true: the number of true classes per example (>= 1). Default 1.
        sampled_values: ``(sampled, true_expected_count, sampled_expected_count)`` to use instead
            of drawing, or None. Default None.
        remove_accidental_hits: never draw a true class. Default True.
        seed: mixed into the key when non-zero (>= 0). Default 0.
        reduction: ``'none'`` (default), ``'mean'`` or ``'sum'``; checked, not applied (MindSpore 2.10).

    Inputs:
        weights: ``(num_classes, dim)``. biases: ``(num_classes,)``.
        labels: int32/int64 ``(batch, num_true)`` (or ``(batch,)`` with ``num_true=1``).
        logits: ``(batch, dim)``: the inputs.

    Outputs:
        ``(batch,)`` float32.

    Raises:
        ValueError: ``num_true`` < 1, ``seed`` < 0, ``num_sampled`` or ``num_true`` > ``num_classes``,
            ``sampled_values`` not of length 3.
        TypeError: ``sampled_values`` not a list or tuple, ``labels`` not int32/int64.
        ValueError (when the step runs): fewer classes than ``num_sampled`` are left to draw.
    """

    def __init__(self, num_sampled: int, num_classes: int, num_true: int = 1, sampled_values: Any = None,
                 remove_accidental_hits: bool = True, seed: int = 0, reduction: str = "none") -> None:
        super().__init__(reduction)
        where = f"For '{type(self).__name__}'"
        if num_true < 1:
            raise ValueError(f"{where}, the 'num_true' must be greater than or equal to 1, but got {num_true}.")
        if seed < 0:
            raise ValueError(f"{where}, the 'seed' must be greater than or equal to 0, but got {seed}.")
        if num_sampled > num_classes:
            raise ValueError(f"{where}, the 'num_sampled' must be smaller than or equal to 'num_classes', but got "
                             f"'num_sampled': {num_sampled} and 'num_classes': {num_classes}.")
        if num_true > num_classes:
            raise ValueError(f"{where}, the 'num_true' must be smaller than or equal to 'num_classes', but got "
                             f"'num_true': {num_true} and 'num_classes': {num_classes}.")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError(f"{where}, the type of 'sampled_values' must be a list or tuple, but got "
                                f"{type(sampled_values).__name__}.")
            if len(sampled_values) != 3:
                raise ValueError(f"{where}, the length of 'sampled_values' must be equal to 3, but got "
                                 f"{len(sampled_values)}.")
        self.num_sampled = num_sampled
        self.num_classes = num_classes
        self.num_true = num_true
        self.sampled_values = sampled_values
        self.remove_accidental_hits = remove_accidental_hits
        self.seed = seed

    def _sample(self, labels: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
        if self.sampled_values is not None:
            sampled, true_count, sampled_count = (_arr(v) for v in self.sampled_values)
            return sampled, jnp.asarray(true_count, jnp.float32), jnp.asarray(sampled_count, jnp.float32)
        from mindjax.common.random import next_key
        key = next_key()
        if self.seed:
            key = jax.random.fold_in(key, self.seed)
        return _uniform_candidates(key, labels, self.num_sampled, True, self.num_classes,
                                   self.remove_accidental_hits)

    def construct(self, weights: Any, biases: Any, labels: Any, logits: Any) -> jax.Array:
        for name, value in (("weights", weights), ("biases", biases), ("labels", labels), ("logits", logits)):
            if not hasattr(value, "shape") or isinstance(value, np.ndarray):
                raise TypeError(f"{self._where()}, the '{name}' must be a Tensor, but got {type(value).__name__}.")
        weights, biases, labels, x = _arr(weights), _arr(biases), _arr(labels), _arr(logits)
        if labels.dtype not in (jnp.dtype(jnp.int32), jnp.dtype(jnp.int64)):
            raise TypeError(f"{self._where()}, the dtype of 'labels' must be int32 or int64, but got {labels.dtype}.")
        labels = labels.astype(jnp.int32).reshape(-1, self.num_true)
        sampled, true_count, sampled_count = self._sample(labels)
        sampled = sampled.astype(jnp.int32)
        true_w = jnp.take(weights, labels, axis=0)                       # (batch, num_true, dim)
        true_logits = jnp.sum(x[:, None, :] * true_w, axis=-1) + jnp.take(biases, labels, axis=0)
        sampled_logits = x @ jnp.take(weights, sampled, axis=0).T + jnp.take(biases, sampled, axis=0)
        true_logits = true_logits - jnp.log(true_count)
        sampled_logits = sampled_logits - jnp.log(sampled_count)
        out = jnp.concatenate([true_logits, sampled_logits], axis=1)
        targets = jnp.concatenate([jnp.full(true_logits.shape, 1.0 / self.num_true, out.dtype),
                                   jnp.zeros(sampled_logits.shape, out.dtype)], axis=1)
        stable = jnp.exp(out - jnp.max(out, axis=1, keepdims=True))
        pred = stable / jnp.sum(stable, axis=1, keepdims=True)
        return -jnp.sum(targets * jnp.log(pred + 1.0e-20), axis=1)
