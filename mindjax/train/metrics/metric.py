"""``Metric``: the ``clear``/``update``/``eval`` base class and input helpers."""
from __future__ import annotations

import functools
from abc import ABCMeta, abstractmethod
from typing import Any, Callable

import jax
import numpy as np

from mindjax.common.tensor import Tensor

__all__ = ["Metric", "rearrange_inputs"]


def rearrange_inputs(func: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate ``update`` so that it sees the inputs picked by ``set_indexes``."""
    @functools.wraps(func)
    def wrapper(self: "Metric", *inputs: Any) -> Any:
        indexes = self.indexes
        inputs = inputs if not indexes else tuple(inputs[i] for i in indexes)
        return func(self, *inputs)
    return wrapper


class Metric(metaclass=ABCMeta):
    """Base class of evaluation metrics: ``clear()``, ``update(*inputs)``, ``eval()``.

    Calling a metric (``metric(y_pred, y)``) clears, updates and evaluates.
    """

    def __init__(self) -> None:
        self._indexes: list[int] | None = None

    def _convert_data(self, data: Any) -> np.ndarray:
        if isinstance(data, (jax.Array, np.ndarray, np.generic, Tensor)):
            return np.asarray(data)
        if isinstance(data, list):
            return np.array(data)
        raise TypeError(f"For '{type(self).__name__}', the input data must be a Tensor, list or numpy.ndarray, "
                        f"got {type(data).__name__}")

    @property
    def indexes(self) -> list[int] | None:
        """The output indexes ``update`` reads (see :meth:`set_indexes`)."""
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes: list[int]) -> "Metric":
        """Make ``update`` read only the network outputs at ``indexes``."""
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            # MindSpore's message, word for word (its tests match it).
            raise ValueError(f"For 'set_indexes', the argument 'indexes' must be a list and all its elements "
                             f"must be int, please check whether it is correct. Got {indexes!r} "
                             f"(in {type(self).__name__})")
        self._indexes = indexes
        return self

    def __call__(self, *inputs: Any) -> Any:
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abstractmethod
    def clear(self) -> None:
        """Reset the accumulated state."""

    @abstractmethod
    def eval(self) -> Any:
        """The metric over everything seen since ``clear``."""

    @abstractmethod
    def update(self, *inputs: Any) -> None:
        """Accumulate one batch."""


_EVAL_TYPES = ("classification", "multilabel")


class _EvaluationBase(Metric):
    """Shape and value checks shared by classification metrics."""

    def __init__(self, eval_type: str) -> None:
        super().__init__()
        if eval_type not in _EVAL_TYPES:
            raise TypeError(f"For '{type(self).__name__}', 'eval_type' must be one of {list(_EVAL_TYPES)}, "
                            f"got {eval_type!r}")
        self._type = eval_type

    def _check_shape(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        name = type(self).__name__
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1 or y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError(f"For '{name}', in the classification case y must have y_pred's shape without "
                                 f"axis 1, got y_pred {y_pred.shape} and y {y.shape}")
        elif y_pred.shape != y.shape:
            raise ValueError(f"For '{name}', in the multilabel case y_pred and y must have the same shape, "
                             f"got {y_pred.shape} and {y.shape}")

    def _check_value(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        if self._type != "classification" and not (np.equal(y_pred ** 2, y_pred).all()
                                                   and np.equal(y ** 2, y).all()):
            raise ValueError(f"For '{type(self).__name__}', in the multilabel case every element of y_pred and y "
                             f"must be 0 or 1")

    def _check_class_num(self, y_pred: np.ndarray) -> None:
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"For '{type(self).__name__}.update', the class number changed: earlier inputs had "
                             f"{self._class_num} classes, this one has {y_pred.shape[1]}")


def _is_one_hot(data: np.ndarray) -> bool:
    if data.ndim > 1 and np.equal(data ** 2, data).all():
        shape = (data.shape[0],) + data.shape[2:]
        return bool(np.equal(np.ones(shape), data.sum(axis=1)).all())
    return False


def _check_two_inputs(owner: str, inputs: tuple[Any, ...]) -> None:
    if len(inputs) != 2:
        raise ValueError(f"For '{owner}.update', it needs 2 inputs (predicted value, true value), "
                         f"got {len(inputs)}")


def _check_samples(owner: str, count: Any) -> None:
    if not count:
        raise RuntimeError(f"The '{owner}' can not be calculated, because the number of samples is 0; call "
                           f"update with non-empty inputs before eval")
