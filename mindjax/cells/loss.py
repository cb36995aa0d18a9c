"""Loss Cells with MindSpore 2.10's names, defaults, reductions and numerics.

Every loss derives from :class:`LossBase`, whose ``get_loss(x, weights)``
applies the ``reduction`` (``'mean'``, ``'sum'`` or ``'none'``) in float32 and
casts back, as MindSpore does. Defaults worth knowing:
``SoftmaxCrossEntropyWithLogits`` reduces with ``'none'``, ``SmoothL1Loss``
with ``'none'``, the others with ``'mean'``.

Example:
    >>> import mindjax as ms
    >>> from mindjax import nn
    >>> loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    >>> logits = ms.Tensor([[2.0, 0.5, -1.0]])
    >>> round(float(loss(logits, ms.Tensor([0], ms.int32))), 4)
    0.2413
"""
from __future__ import annotations

import numbers
from typing import Any

import jax
import jax.numpy as jnp
from jax.scipy.special import xlogy

from mindjax.common.tensor import Tensor
from mindjax.cells.cell import Cell
from mindjax.ops.functional import reduce_loss
from mindjax.cells.layers._inputs import broadcast_pair, tensor_input
from mindjax.common.checks import check_index_range
from mindjax.common.tensor import as_array as _arr

__all__ = ["LossBase", "L1Loss", "MSELoss", "SmoothL1Loss", "HuberLoss",
           "SoftmaxCrossEntropyWithLogits", "CrossEntropyLoss", "NLLLoss", "BCELoss",
           "BCEWithLogitsLoss", "KLDivLoss", "CosineEmbeddingLoss"]

_REDUCTIONS = ("mean", "sum", "none")


def _optional_array(x: Any, arg: str, cls_name: str) -> jax.Array | None:
    if x is None:
        return None
    if isinstance(x, (jax.Array, Tensor)):
        return jnp.asarray(x)
    raise TypeError(f"For '{cls_name}', '{arg}' must be a Tensor or None, got {type(x).__name__}")


_reduce = reduce_loss  # the loss Cells reduce as the loss ops do


def _check_same_shape(a: jax.Array, b: jax.Array, names: tuple[str, str], where: str) -> None:
    if a.shape != b.shape:
        raise ValueError(f"{where}, '{names[0]}' and '{names[1]}' must have the same shape, got "
                         f"{tuple(a.shape)} and {tuple(b.shape)}")


class LossBase(Cell):
    """Base class of losses: holds ``reduction`` and applies it in :meth:`get_loss`.

    Arguments:
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Raises:
        ValueError: ``reduction`` is none of those.
    """

    _allowed_reductions: tuple[str, ...] = _REDUCTIONS

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        if not isinstance(reduction, str) or reduction not in self._allowed_reductions:
            raise ValueError(f"For '{type(self).__name__}', the 'reduction' must be in "
                             f"{list(self._allowed_reductions)}, got {reduction!r}")
        self.reduction = reduction
        self.average = reduction != "sum"
        self.reduce = reduction != "none"

    def get_axis(self, x: Any) -> tuple[int, ...]:
        """All axes of ``x``."""
        return tuple(range(jnp.ndim(x)))

    def get_loss(self, x: Any, weights: Any = 1.0) -> jax.Array:
        """Weight and reduce an element-wise loss.

        Arguments:
            x: the unreduced loss.
            weights: multiplies ``x`` before the reduction (broadcast).

        Returns:
            ``mean``/``sum`` of ``weights * x`` (computed in float32), or the
            weighted ``x`` for ``'none'``, in ``x``'s dtype.
        """
        x = _arr(x)
        in_dtype = x.dtype
        x = jnp.asarray(weights, jnp.float32) * x.astype(jnp.float32)
        if self.reduce and self.average:
            x = jnp.mean(x)
        elif self.reduce:
            x = jnp.sum(x)
        return x.astype(in_dtype)

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        """Subclasses compute the loss."""
        raise NotImplementedError(f"{self._where()}: a LossBase subclass must define construct")


class L1Loss(LossBase):
    """``|logits - labels|``, reduced (default ``'mean'``)."""

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        logits, labels = broadcast_pair(self._where(), ("logits", "labels"), logits, labels)
        return self.get_loss(jnp.abs(logits - labels))


class MSELoss(LossBase):
    """``(logits - labels)^2``, reduced (default ``'mean'``)."""

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        logits, labels = broadcast_pair(self._where(), ("logits", "labels"), logits, labels)
        return self.get_loss(jnp.square(logits - labels))


class SmoothL1Loss(LossBase):
    """``0.5 d^2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta``; ``d = logits - labels``.

    Arguments:
        beta: the switch point (default ``1.0``; ``0`` gives the L1 loss); must be >= 0.
        reduction: default ``'none'`` (MindSpore's default for this loss).
    """

    def __init__(self, beta: float = 1.0, reduction: str = "none") -> None:
        super().__init__(reduction)
        if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
            raise TypeError(f"For 'SmoothL1Loss', 'beta' must be a float, got {type(beta).__name__}")
        if beta < 0:
            raise ValueError(f"For 'SmoothL1Loss', 'beta' must be >= 0, got {beta}")
        self.beta = beta

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        logits, labels = (tensor_input(self._where(), "logits", logits),
                          tensor_input(self._where(), "labels", labels))
        _check_same_shape(logits, labels, ("logits", "labels"), self._where())
        diff = jnp.abs(logits - labels)
        if self.beta == 0:
            loss = diff
        else:
            loss = jnp.where(diff < self.beta, 0.5 * diff * diff / self.beta, diff - 0.5 * self.beta)
        return _reduce(loss, self.reduction)


class HuberLoss(LossBase):
    """``0.5 d^2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)``.

    Arguments:
        reduction: default ``'mean'``.
        delta: the switch point; must be > 0 (default ``1.0``).
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction)
        if isinstance(delta, bool) or not isinstance(delta, numbers.Real):
            raise TypeError(f"For 'HuberLoss', 'delta' must be a float or int, got {type(delta).__name__}")
        if delta <= 0:
            raise ValueError(f"For 'HuberLoss', 'delta' must be > 0, got {delta}")
        self.delta = delta

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        logits, labels = broadcast_pair(self._where(), ("logits", "labels"), logits, labels)
        diff = jnp.abs(logits - labels)
        loss = jnp.where(diff < self.delta, 0.5 * jnp.square(diff), self.delta * (diff - 0.5 * self.delta))
        return self.get_loss(loss)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Cross entropy of ``softmax(logits)`` (last axis) against ``labels``.

    Arguments:
        sparse: ``labels`` are class indices (int) instead of distributions.
        reduction: default ``'none'``: one loss per sample.

    Inputs:
        logits: ``(N, C)`` floats.
        labels: ``(N, C)`` floats, or ``(N,)`` ints when ``sparse``.
    """

    def __init__(self, sparse: bool = False, reduction: str = "none") -> None:
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"For 'SoftmaxCrossEntropyWithLogits', 'sparse' must be a bool, got "
                            f"{type(sparse).__name__}")
        self.sparse = sparse

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        logits, labels = (tensor_input(self._where(), "logits", logits),
                          tensor_input(self._where(), "labels", labels))
        log_p = jax.nn.log_softmax(logits, axis=-1)
        if self.sparse:
            if labels.shape != logits.shape[:-1]:
                raise ValueError(f"{self._where()}, sparse 'labels' must have shape "
                                 f"{tuple(logits.shape[:-1])}, got {tuple(labels.shape)}")
            if not jnp.issubdtype(labels.dtype, jnp.integer):
                raise TypeError(f"{self._where()}, sparse 'labels' must be integers, got {labels.dtype}")
            check_index_range(self._where(), "labels", labels, 0, logits.shape[-1])
            picked = jnp.take_along_axis(log_p, labels.astype(jnp.int32)[..., None], axis=-1)
            loss = -picked[..., 0]
        else:
            _check_same_shape(logits, labels, ("logits", "labels"), self._where())
            loss = -jnp.sum(labels.astype(log_p.dtype) * log_p, axis=-1)
        return self.get_loss(loss)


def _nll(log_p: jax.Array, target: jax.Array, weight: jax.Array | None, ignore_index: int,
         reduction: str, label_smoothing: float) -> jax.Array:
    """MindSpore's ``nll_loss`` with label smoothing; classes on axis 1 (axis 0 for 1-D input)."""
    class_dim = 0 if log_p.ndim == 1 else 1
    n_classes = log_p.shape[class_dim]
    target = target.astype(jnp.int32)
    ignored = target == ignore_index
    safe = jnp.where(ignored, 0, target)
    if weight is not None:
        weight = weight.astype(log_p.dtype)
        shape = [1] * log_p.ndim
        shape[class_dim] = n_classes
        log_p = log_p * weight.reshape(shape)
        loss_weights = weight[safe]
    else:
        loss_weights = jnp.ones(safe.shape, log_p.dtype)
    loss = -jnp.take_along_axis(log_p, jnp.expand_dims(safe, class_dim), axis=class_dim)
    loss = jnp.squeeze(loss, class_dim)
    smooth = -jnp.sum(log_p, axis=class_dim)
    zero = jnp.zeros((), log_p.dtype)
    loss = jnp.where(ignored, zero, loss)
    smooth = jnp.where(ignored, zero, smooth)
    loss_weights = jnp.where(ignored, zero, loss_weights)
    if reduction == "sum":
        loss, smooth = jnp.sum(loss), jnp.sum(smooth)
    elif reduction == "mean":
        total = jnp.sum(loss_weights)
        loss, smooth = jnp.sum(loss) / total, jnp.sum(smooth) / total
    if label_smoothing == 0:
        return loss
    return (1.0 - label_smoothing) * loss + (label_smoothing / n_classes) * smooth


def _check_class_weight(weight: Any, cls_name: str) -> jax.Array | None:
    weight = _optional_array(weight, "weight", cls_name)
    if weight is not None and weight.dtype not in (jnp.float16, jnp.float32):
        raise TypeError(f"For '{cls_name}', 'weight' must be float16 or float32, got {weight.dtype}")
    return weight


def _check_ignore_index(ignore_index: Any, cls_name: str) -> int:
    if isinstance(ignore_index, bool) or not isinstance(ignore_index, int):
        raise TypeError(f"For '{cls_name}', 'ignore_index' must be an int, got "
                        f"{type(ignore_index).__name__}")
    return ignore_index


class NLLLoss(LossBase):
    """Negative log likelihood of log-probabilities ``logits`` at class indices ``labels``.

    Arguments:
        weight: per-class weights, a ``(C,)`` float Tensor, or ``None``.
        ignore_index: a label value that contributes nothing (default ``-100``).
        reduction: default ``'mean'``: divided by the summed weights of counted labels.

    Inputs:
        logits: ``(N, C, d1, ...)`` or ``(C,)`` log-probabilities.
        labels: ``(N, d1, ...)`` or ``()`` int class indices.
    """

    def __init__(self, weight: Any = None, ignore_index: int = -100, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.ignore_index = _check_ignore_index(ignore_index, "NLLLoss")
        self.weight = _check_class_weight(weight, "NLLLoss")

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        logits, labels = (tensor_input(self._where(), "logits", logits),
                          tensor_input(self._where(), "labels", labels))
        _check_index_labels(logits, labels, self._where(), self.ignore_index)
        return _nll(logits, labels, self.weight, self.ignore_index, self.reduction, 0.0)


def _check_index_labels(logits: jax.Array, labels: jax.Array, where: str, ignore_index: int) -> None:
    expected = () if logits.ndim == 1 else (logits.shape[0],) + tuple(logits.shape[2:])
    if labels.shape != expected:
        raise ValueError(f"{where}, class-index 'labels' must have shape {expected} for 'logits' of "
                         f"shape {tuple(logits.shape)}, got {tuple(labels.shape)}")
    if not jnp.issubdtype(labels.dtype, jnp.integer):
        raise TypeError(f"{where}, class-index 'labels' must be integers, got {labels.dtype}")
    classes = logits.shape[0 if logits.ndim == 1 else 1]
    check_index_range(where, "labels", labels, 0, classes, allowed=ignore_index)


class CrossEntropyLoss(LossBase):
    """Cross entropy between ``softmax(logits)`` over axis 1 and ``labels``.

    ``labels`` are either class indices (one rank less than ``logits``, ints)
    or class probabilities (same shape as ``logits``, floats).

    Arguments:
        weight: per-class weights, a ``(C,)`` float Tensor, or ``None``.
        ignore_index: a class index that contributes nothing (default ``-100``;
            index labels only).
        reduction: default ``'mean'``.
        label_smoothing: in ``[0, 1]`` (default ``0.0``).
    """

    def __init__(self, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__(reduction)
        self.ignore_index = _check_ignore_index(ignore_index, "CrossEntropyLoss")
        if not isinstance(label_smoothing, float):
            raise TypeError(f"For 'CrossEntropyLoss', 'label_smoothing' must be a float, got "
                            f"{type(label_smoothing).__name__}")
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For 'CrossEntropyLoss', 'label_smoothing' must be in range of "
                             f"[0.0, 1.0], got {label_smoothing}")
        self.weight = _check_class_weight(weight, "CrossEntropyLoss")
        self.label_smoothing = label_smoothing

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        logits, labels = (tensor_input(self._where(), "logits", logits),
                          tensor_input(self._where(), "labels", labels))
        if logits.dtype not in (jnp.float16, jnp.float32):
            raise TypeError(f"{self._where()}, 'logits' must be float16 or float32, got {logits.dtype}")
        class_dim = 0 if logits.ndim == 1 else 1
        log_p = jax.nn.log_softmax(logits, axis=class_dim)
        if labels.ndim == logits.ndim:
            _check_same_shape(logits, labels, ("logits", "labels"), self._where())
            return self._with_probabilities(log_p, labels.astype(log_p.dtype), class_dim)
        if labels.ndim != logits.ndim - 1:
            raise ValueError(f"{self._where()}, 'labels' must have the rank of 'logits' "
                             f"(probabilities) or one less (class indices), got shapes "
                             f"{tuple(logits.shape)} and {tuple(labels.shape)}")
        _check_index_labels(logits, labels, self._where(), self.ignore_index)
        return _nll(log_p, labels, self.weight, self.ignore_index, self.reduction,
                    self.label_smoothing)

    def _with_probabilities(self, log_p: jax.Array, target: jax.Array, class_dim: int) -> jax.Array:
        n_classes = log_p.shape[class_dim]
        if self.label_smoothing > 0:
            target = target * (1 - self.label_smoothing) + self.label_smoothing / n_classes
        prod = log_p * target
        if self.weight is not None:
            shape = [1] * log_p.ndim
            shape[class_dim] = n_classes
            prod = prod * self.weight.astype(log_p.dtype).reshape(shape)
        if self.reduction == "mean":
            return -jnp.sum(prod) / (log_p.size / n_classes)
        if self.reduction == "sum":
            return -jnp.sum(prod)
        return -jnp.sum(prod, axis=class_dim)


class BCELoss(LossBase):
    """Binary cross entropy of probabilities: ``-w (y log(x + eps) + (1 - y) log(1 - x + eps))``.

    ``eps`` is ``1e-12``, as in MindSpore's kernel.

    Arguments:
        weight: a Tensor broadcast against the loss, or ``None``.
        reduction: default ``'mean'``.
    """

    _EPS = 1e-12

    def __init__(self, weight: Any = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = _optional_array(weight, "weight", "BCELoss")

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        x, y = tensor_input(self._where(), "logits", logits), tensor_input(self._where(), "labels", labels)
        _check_same_shape(x, y, ("logits", "labels"), self._where())
        loss = -(y * jnp.log(x + self._EPS) + (1 - y) * jnp.log(1 - x + self._EPS))
        if self.weight is not None:
            loss = loss * self.weight.astype(loss.dtype)
        return _reduce(loss, self.reduction)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy of ``sigmoid(input)``, computed stably from the logits.

    ``loss = -w (pos_weight * y * log sigmoid(x) + (1 - y) * log(1 - sigmoid(x)))``.

    Arguments:
        reduction: default ``'mean'``.
        weight: a Tensor broadcast against the loss, or ``None``.
        pos_weight: a Tensor weighting positive examples (broadcast over the
            class axis), or ``None``.
    """

    def __init__(self, reduction: str = "mean", weight: Any = None, pos_weight: Any = None) -> None:
        super().__init__(reduction)
        self.weight = _optional_array(weight, "weight", "BCEWithLogitsLoss")
        self.pos_weight = _optional_array(pos_weight, "pos_weight", "BCEWithLogitsLoss")

    def construct(self, input: Any, target: Any) -> jax.Array:  # noqa: A002 (MindSpore's name)
        x, y = tensor_input(self._where(), "input", input), tensor_input(self._where(), "target", target)
        _check_same_shape(x, y, ("input", "target"), self._where())
        log_weight = 1.0 if self.pos_weight is None else (self.pos_weight.astype(x.dtype) - 1) * y + 1
        loss = (1 - y) * x + log_weight * jax.nn.softplus(-x)
        if self.weight is not None:
            loss = loss * self.weight.astype(loss.dtype)
        return _reduce(loss, self.reduction)


class KLDivLoss(LossBase):
    """Kullback-Leibler divergence ``labels * (log(labels) - logits)`` (``logits`` are log-probs).

    Terms where ``labels`` is 0 are 0.

    Arguments:
        reduction: ``'mean'`` (default; sum over every element divided by
            their count), ``'batchmean'`` (divided by the batch size), ``'sum'`` or ``'none'``.
    """

    _allowed_reductions = ("none", "mean", "batchmean", "sum")

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        logits, labels = (tensor_input(self._where(), "logits", logits),
                          tensor_input(self._where(), "labels", labels))
        _check_same_shape(logits, labels, ("logits", "labels"), self._where())
        loss = xlogy(labels, labels) - labels * logits
        if self.reduction == "none":
            return loss
        total = jnp.sum(loss)
        if self.reduction == "batchmean":
            return total / logits.shape[0]
        if self.reduction == "mean":
            return total / logits.size
        return total


class CosineEmbeddingLoss(LossBase):
    """``1 - cos(x1, x2)`` for label 1, ``max(0, cos(x1, x2) - margin)`` for label -1.

    Arguments:
        margin: a float in ``[-1, 1]`` (default ``0.0``).
        reduction: default ``'mean'``.

    Inputs:
        logits_x1, logits_x2: ``(N, D)`` Tensors of one shape.
        labels: ``(N,)`` of 1 or -1.
    """

    def __init__(self, margin: float = 0.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        if not isinstance(margin, float):
            raise TypeError(f"For 'CosineEmbeddingLoss', 'margin' must be a float, got "
                            f"{type(margin).__name__}")
        if not -1.0 <= margin <= 1.0:
            raise ValueError(f"For 'CosineEmbeddingLoss', 'margin' must be in [-1.0, 1.0], got {margin}")
        self.margin = margin

    def construct(self, logits_x1: Any, logits_x2: Any, labels: Any) -> jax.Array:
        x1, x2, labels = _arr(logits_x1), _arr(logits_x2), _arr(labels)
        _check_same_shape(x1, x2, ("logits_x1", "logits_x2"), self._where())
        prod = jnp.sum(x1 * x2, axis=1)
        denom = jnp.sqrt(jnp.sum(jnp.square(x1), axis=1)) * jnp.sqrt(jnp.sum(jnp.square(x2), axis=1))
        cosine = prod / denom
        zeros = jnp.zeros_like(cosine)
        pos = jnp.where(labels == 1, 1.0 - cosine, zeros)
        neg = jnp.where(labels == -1, jnp.maximum(cosine - self.margin, 0.0), zeros)
        return self.get_loss(pos + neg)
