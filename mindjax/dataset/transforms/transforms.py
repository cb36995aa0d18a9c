"""General transforms: ``TypeCast``, ``OneHot``, ``Compose`` (as ``mindspore.dataset.transforms``)."""
from __future__ import annotations

import enum
import operator
from typing import Any, Sequence

import numpy as np

from mindjax.dataset.transforms.base import RandomTransform, Transform, call_transform

__all__ = ["TypeCast", "OneHot", "Compose", "Duplicate", "Fill", "PadEnd", "Concatenate", "Mask", "Relational",
           "Slice", "Unique", "RandomApply", "RandomChoice", "RandomOrder", "Plugin", "not_random"]


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


class PadEnd(Transform):
    """Pad (or truncate) each dimension at its end to ``pad_shape``.

    Arguments:
        pad_shape: the target shape, of the input's rank; ``None`` keeps a dimension.
        pad_value: the padding (default: 0 for numbers, '' for strings).

    Example:
        >>> import numpy as np
        >>> from mindjax.dataset import transforms
        >>> transforms.PadEnd([4], pad_value=-1)(np.array([1, 2])).tolist()
        [1, 2, -1, -1]
    """

    def __init__(self, pad_shape: list[int | None], pad_value: Any = None) -> None:
        if not isinstance(pad_shape, list) or not all(
                d is None or (isinstance(d, int) and not isinstance(d, bool) and d > 0) for d in pad_shape):
            raise TypeError(f"For 'PadEnd', 'pad_shape' must be a list of positive int or None, got {pad_shape!r}")
        if pad_value is not None and not isinstance(pad_value, (str, bytes, int, float, bool)):
            raise TypeError(f"For 'PadEnd', 'pad_value' must be a str, bytes, int, float or bool, got {pad_value!r}")
        self.pad_shape, self.pad_value = pad_shape, pad_value

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        x = np.asarray(x)
        if x.ndim != len(self.pad_shape):
            raise ValueError(f"For 'PadEnd', pad_shape {self.pad_shape} has rank {len(self.pad_shape)}, but the "
                             f"input has shape {x.shape}")
        text = x.dtype.kind in "US"
        value = self.pad_value if self.pad_value is not None else ("" if text else 0)
        if isinstance(value, (str, bytes)) != text:
            raise TypeError(f"For 'PadEnd', pad_value {value!r} cannot pad an array of dtype {x.dtype}")
        target = [d if want is None else want for d, want in zip(x.shape, self.pad_shape)]
        x = x[tuple(slice(0, t) for t in target)]
        widths = [(0, t - d) for d, t in zip(x.shape, target)]
        if text:
            out = np.full(target, value, dtype=np.result_type(x.dtype, np.array(value).dtype))
            out[tuple(slice(0, d) for d in x.shape)] = x
            return out
        return np.pad(x, widths, constant_values=np.asarray(value).astype(x.dtype))


class Concatenate(Transform):
    """``prepend``, the 1-D input and ``append`` joined along ``axis``."""

    def __init__(self, axis: int = 0, prepend: np.ndarray | None = None, append: np.ndarray | None = None) -> None:
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"For 'Concatenate', 'axis' must be an int, got {axis!r}")
        for arg, value in (("prepend", prepend), ("append", append)):
            if value is not None and not isinstance(value, np.ndarray):
                raise TypeError(f"For 'Concatenate', '{arg}' must be a numpy array, got {type(value).__name__}")
        self.axis, self.prepend, self.append = axis, prepend, append

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        parts = [p for p in (self.prepend, np.asarray(x), self.append) if p is not None]
        try:
            return np.concatenate(parts, axis=self.axis)
        except ValueError as err:
            raise ValueError(f"For 'Concatenate', cannot join shapes {[p.shape for p in parts]} on axis "
                             f"{self.axis}: {err}") from None


class Relational(enum.IntEnum):
    """The comparisons of :class:`Mask`."""

    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


_COMPARE = {Relational.EQ: operator.eq, Relational.NE: operator.ne, Relational.GT: operator.gt,
            Relational.GE: operator.ge, Relational.LT: operator.lt, Relational.LE: operator.le}


class Mask(Transform):
    """``input <operator> constant`` elementwise, as ``dtype`` (bool by default)."""

    def __init__(self, operator: Relational, constant: Any, dtype: Any = np.bool_) -> None:  # noqa: A002
        if not isinstance(operator, Relational):
            raise TypeError(f"For 'Mask', 'operator' must be a transforms.Relational, got {operator!r}")
        if not isinstance(constant, (str, bytes, int, float, bool)):
            raise TypeError(f"For 'Mask', 'constant' must be a str, int, float or bool, got {constant!r}")
        self.operator, self.constant, self.dtype = operator, constant, dtype
        self._dtype = _numpy_dtype(dtype, "Mask")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        x = np.asarray(x)
        if isinstance(self.constant, (str, bytes)) != (x.dtype.kind in "US"):
            raise TypeError(f"For 'Mask', constant {self.constant!r} cannot be compared with dtype {x.dtype}")
        return _COMPARE[self.operator](x, self.constant).astype(self._dtype)


class Slice(Transform):
    """Index the input with ``slices`` (an int, list of ints, ``slice``, ``Ellipsis`` or ``None`` per dimension)."""

    def __init__(self, *slices: Any) -> None:
        for s in slices:
            ok = s is None or s is Ellipsis or isinstance(s, slice) or (
                isinstance(s, int) and not isinstance(s, bool)) or (
                isinstance(s, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in s))
            if not ok:
                raise TypeError(f"For 'Slice', each slice must be an int, list of int, slice, Ellipsis or None, "
                                f"got {s!r}")
        self.slices = slices

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        x = np.asarray(x)
        index = tuple(slice(None) if s is None else ([s] if isinstance(s, int) else s) for s in self.slices)
        try:
            return x[index] if index else x.copy()
        except IndexError as err:
            raise IndexError(f"For 'Slice', {self.slices} does not fit shape {x.shape}: {err}") from None


class Unique(Transform):
    """The distinct values of a 1-D array in first-seen order, each element's index into them, and their counts."""

    def _apply(self, x: Any, rng: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        x = np.asarray(x)
        if x.ndim != 1:
            raise ValueError(f"For 'Unique', the input must be 1-D, got shape {x.shape}")
        values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        return values[order], rank[inverse].astype(np.int32), counts[order].astype(np.int32)


def _transform_list(transforms: Any, who: str) -> list[Any]:
    if not isinstance(transforms, (list, tuple)) or not transforms:
        raise ValueError(f"For '{who}', 'transforms' must be a non-empty list, got {transforms!r}")
    for t in transforms:
        if not callable(t):
            raise TypeError(f"For '{who}', every transform must be callable, got {type(t).__name__}")
    return list(transforms)


class RandomApply(RandomTransform):
    """Apply all of ``transforms`` in order with probability ``prob``, else none."""

    def __init__(self, transforms: Sequence[Any], prob: float = 0.5) -> None:
        self.transforms = _transform_list(transforms, "RandomApply")
        if not isinstance(prob, (int, float)) or isinstance(prob, bool) or not 0.0 <= prob <= 1.0:
            raise ValueError(f"For 'RandomApply', 'prob' must be a number in [0, 1], got {prob!r}")
        self.prob = float(prob)

    def _apply(self, *args: Any, rng: np.random.Generator | None = None) -> Any:
        if rng.random() < self.prob:
            return Compose(self.transforms)._apply(*args, rng=rng)
        return args if len(args) > 1 else args[0]


class RandomChoice(RandomTransform):
    """Apply one of ``transforms``, picked uniformly."""

    def __init__(self, transforms: Sequence[Any]) -> None:
        self.transforms = _transform_list(transforms, "RandomChoice")

    def _apply(self, *args: Any, rng: np.random.Generator | None = None) -> Any:
        return call_transform(self.transforms[int(rng.integers(len(self.transforms)))], args, rng)


class RandomOrder(RandomTransform):
    """Apply all of ``transforms`` in a random order."""

    def __init__(self, transforms: Sequence[Any]) -> None:
        self.transforms = _transform_list(transforms, "RandomOrder")

    def _apply(self, *args: Any, rng: np.random.Generator | None = None) -> Any:
        order = rng.permutation(len(self.transforms))
        return Compose([self.transforms[k] for k in order])._apply(*args, rng=rng)


class Plugin(Transform):
    """MindSpore's C++ plugin op (a function from a shared library run inside its C++ pipeline); not supported.

    Raises:
        NotImplementedError: always. MindJAX pipelines run Python callables: load the library
            with ``ctypes.CDLL(lib_path)`` and pass a Python function calling it to ``map``.
    """

    def __init__(self, lib_path: str, func_name: str, user_args: str | None = None) -> None:
        raise NotImplementedError(f"For 'Plugin', loading '{func_name}' from the C++ library '{lib_path}' is not "
                                  "supported: MindJAX pipelines run Python callables; wrap the function with "
                                  "ctypes.CDLL(lib_path) in a Python function and pass that to Dataset.map")


def not_random(function: Any) -> Any:
    """Mark a Python function transform as deterministic (sets ``function.random = False``), as MindSpore does.

    MindJAX never reseeds plain Python functions, so the mark only records the intent.
    """
    function.random = False
    return function
