"""General transforms: ``TypeCast``, ``OneHot``, ``Compose`` (as ``mindspore.dataset.transforms``)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from mindjax.dataset.transforms.base import Transform, call_transform

__all__ = ["TypeCast", "OneHot", "Compose", "Duplicate", "Fill"]


def _numpy_dtype(data_type: Any, who: str) -> np.dtype:
    try:
        return np.dtype(data_type)
    except TypeError as err:
        raise TypeError(f"For '{who}', 'data_type' must be a mindjax or numpy dtype, got {data_type!r}") from err


class TypeCast(Transform):
    """Cast to ``data_type`` (a mindjax dtype such as ``ms.int32``, or a numpy dtype).

    Example:
        >>> import numpy as np
        >>> import mindjax as ms
        >>> from mindjax.dataset import transforms
        >>> transforms.TypeCast(ms.int32)(np.array([1.7])).dtype
        dtype('int32')
    """

    def __init__(self, data_type: Any) -> None:
        self.data_type = data_type
        self._dtype = _numpy_dtype(data_type, "TypeCast")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        return np.asarray(x).astype(self._dtype)

    def _batchable(self) -> bool:
        return True

    def _apply_batch(self, x: np.ndarray) -> np.ndarray:
        return self._apply(x)


class OneHot(Transform):
    """One-hot encode integer labels: shape ``(*)`` becomes ``(*, num_classes)``.

    Arguments:
        num_classes: the number of classes (greater than every label).
        smoothing_rate: label smoothing in [0, 1]; with smoothing the output is float32,
            otherwise it keeps the label dtype.
    """

    def __init__(self, num_classes: int, smoothing_rate: float = 0.0) -> None:
        if not isinstance(num_classes, int) or isinstance(num_classes, bool) or num_classes <= 0:
            raise ValueError(f"For 'OneHot', 'num_classes' must be a positive int, got {num_classes!r}")
        if not isinstance(smoothing_rate, (int, float)) or not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError(f"For 'OneHot', 'smoothing_rate' must be in [0, 1], got {smoothing_rate!r}")
        self.num_classes, self.smoothing_rate = num_classes, float(smoothing_rate)

    def _apply(self, label: Any, rng: Any = None) -> np.ndarray:
        label = np.asarray(label)
        if label.dtype.kind not in "iu":
            raise TypeError(f"For 'OneHot', the label must be an integer array, got dtype {label.dtype}")
        if label.size and (label.min() < 0 or label.max() >= self.num_classes):
            raise ValueError(f"For 'OneHot', labels must be in [0, {self.num_classes}), got {label.min()}.."
                             f"{label.max()}")
        hot = np.arange(self.num_classes) == label[..., None]
        if self.smoothing_rate:
            rate = self.smoothing_rate
            return (hot * (1.0 - rate) + rate / self.num_classes).astype(np.float32)
        return hot.astype(label.dtype)

    def _batchable(self) -> bool:
        return True

    def _apply_batch(self, labels: np.ndarray) -> np.ndarray:
        return self._apply(labels)


class Duplicate(Transform):
    """Return the input twice (two columns)."""

    def _apply(self, x: Any, rng: Any = None) -> tuple[np.ndarray, np.ndarray]:
        x = np.asarray(x)
        return x, x.copy()


class Compose(Transform):
    """Apply ``transforms`` in order, each to the previous one's output(s).

    Arguments:
        transforms: a non-empty list of transforms or callables.
    """

    def __init__(self, transforms: Sequence[Any]) -> None:
        if not isinstance(transforms, (list, tuple)) or not transforms:
            raise ValueError(f"For 'Compose', 'transforms' must be a non-empty list, got {transforms!r}")
        for t in transforms:
            if not callable(t):
                raise TypeError(f"For 'Compose', every transform must be callable, got {type(t).__name__}")
        self.transforms = list(transforms)

    def _is_random(self) -> bool:
        return any(isinstance(t, Transform) and t._is_random() for t in self.transforms)

    def _apply(self, *args: Any, rng: Any = None) -> Any:
        for t in self.transforms:
            out = call_transform(t, args, rng)
            args = out if isinstance(out, tuple) else (out,)
        return args if len(args) > 1 else args[0]

    def _batchable(self) -> bool:
        return all(isinstance(t, Transform) and t._batchable() for t in self.transforms)

    def _apply_batch(self, *columns: np.ndarray) -> Any:
        for t in self.transforms:
            out = t._apply_batch(*columns)
            columns = out if isinstance(out, tuple) else (out,)
        return columns if len(columns) > 1 else columns[0]


class Fill(Transform):
    """Every element set to ``fill_value``; the shape and dtype of the input are kept.

    Arguments:
        fill_value: a str, bytes, int, float or bool; cast to the input's dtype.
            A string fills only a string array, a number only a numeric one.

    Example:
        >>> import numpy as np
        >>> from mindjax.dataset import transforms
        >>> transforms.Fill(100)(np.array([1, 2, 3]))
        array([100, 100, 100])
    """

    def __init__(self, fill_value: Any) -> None:
        if not isinstance(fill_value, (str, bytes, int, float, bool, np.number, np.bool_)):
            raise TypeError(f"For 'Fill', 'fill_value' must be a str, bytes, int, float or bool, "
                            f"got {type(fill_value).__name__}")
        self.fill_value = fill_value

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        x = np.asarray(x)
        text = isinstance(self.fill_value, (str, bytes))
        if text != (x.dtype.kind in "US"):
            raise TypeError(f"For 'Fill', fill_value {self.fill_value!r} ({type(self.fill_value).__name__}) cannot "
                            f"fill an array of dtype {x.dtype}")
        if text:
            return np.full(x.shape, self.fill_value)
        return np.full(x.shape, self.fill_value).astype(x.dtype) if x.dtype.kind != "b" else np.full(
            x.shape, bool(self.fill_value))

    def _batchable(self) -> bool:
        return True

    def _apply_batch(self, x: np.ndarray) -> np.ndarray:
        return self._apply(x)
