"""``mindspore.graph.symbol``: ``Symbol``, a dynamic dimension with MindSpore's constraints.

``Tensor(shape=(None, Symbol(divisor=8), 3), dtype=...)`` marks each Symbol
dimension as dynamic, as ``None`` does, for ``Cell.set_inputs`` and
``ms.jit(input_signature=...)`` (:mod:`mindjax.transforms.dynamic_shape`).
The arguments are checked as MindSpore checks them and kept (``to_dict``);
the bounds, the divisibility and ``unique`` are hints that are not enforced
on calls: XLA compiles each size that comes.
"""
from __future__ import annotations

from typing import Any

__all__ = ["Symbol"]


class Symbol:
    """A symbolic dimension (MindSpore's ``mindspore.Symbol``; see the module).

    Arguments:
        max (int): the largest size; ``0`` for unbounded. Default: ``0``.
        min (int): the smallest size; positive. Default: ``1``.
        divisor (int): sizes are ``divisor * k + remainder``; positive. Default: ``1``.
        remainder (int): in ``[0, divisor)``. Default: ``0``.
        unique (bool): dimensions holding this same Symbol have equal sizes. Default: ``False``.

    Raises:
        TypeError: an argument of the wrong type.
        ValueError: ``min`` or ``divisor`` not positive, ``remainder`` outside ``[0, divisor)``,
            or ``max`` below ``min`` (when set).

    Example:
        >>> import mindjax as ms
        >>> ms.Tensor(shape=(None, ms.Symbol(divisor=8), 3), dtype=ms.float32).shape
        (-1, -1, 3)
    """

    _dynamic_dim = True  # read by Tensor(shape=...): this dimension has any size

    def __init__(self, max: int = 0, min: int = 1, divisor: int = 1, remainder: int = 0,  # noqa: A002
                 unique: bool = False, **kwargs: Any) -> None:
        for name, value in (("max", max), ("min", min), ("divisor", divisor), ("remainder", remainder)):
            if not isinstance(value, int):
                raise TypeError(f"For 'Symbol', the argument '{name}' must be int, but got {type(value)}")
        if not isinstance(unique, bool):
            raise TypeError(f"For 'Symbol', the argument 'unique' must be bool, but got {type(unique)}")
        if min <= 0:
            raise ValueError(f"For 'Symbol', the 'min' value should be positive, but got {min}")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', the 'divisor' value should be positive, but got {divisor}")
        if remainder < 0 or remainder >= divisor:
            raise ValueError(f"For 'Symbol', the 'remainder' value should be in the range '[0, {divisor})', "
                             f"but got {remainder}")
        if 0 < max < min:
            raise ValueError(f"For 'Symbol', the 'max' value should not be less than 'min' ({min}), but got {max}")
        self.max = max
        self.min = min
        self.divisor = divisor
        self.remainder = remainder
        self.unique = unique
        self.id = id(self)

    def to_dict(self) -> dict[str, Any]:
        """The constraints as a dict (``max`` only when set), as MindSpore gives them."""
        out: dict[str, Any] = {} if self.max <= 0 else {"max": self.max}
        out.update(min=self.min, divisor=self.divisor, remainder=self.remainder)
        if self.unique:
            out["id"] = self.id
        return out

    def __str__(self) -> str:
        return str(self.to_dict())

    def __repr__(self) -> str:
        return f"Symbol({self.to_dict()})"
