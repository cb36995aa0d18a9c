"""The operator-level mixed-precision policy: which Primitives run in low precision, per Cell.

MindSpore's ``O1`` rewrites a network so that white-listed Primitives (``MatMul``,
``Conv2D``, ``ReLU`` ...) get their floating inputs cast down and their floating
outputs cast back to float32. MindJAX carries that as one policy object per Cell
(``cell_precision_policy(cell)``, set by :func:`mindjax.train.amp.auto_mixed_precision`):
when a Cell with a policy runs its ``construct``, the policy is the active one on
this thread (:func:`active_policy`), and every Primitive call asks it whether it is
covered. Cells without a policy of their own run under their caller's.

Example:
    >>> from mindjax.common.precision import PrecisionPolicy, active_policy, policy_scope
    >>> import jax.numpy as jnp
    >>> policy = PrecisionPolicy(jnp.float16, None)   # every Primitive but Cast
    >>> with policy_scope(policy):
    ...     active_policy() is policy
    True
"""
from __future__ import annotations

import threading
from typing import Any, Callable

__all__ = ["PrecisionPolicy", "NO_CAST", "active_policy", "policy_scope"]


class PrecisionPolicy:
    """Which Primitives run in ``dtype``.

    Arguments:
        dtype: the low-precision type (float16 or bfloat16).
        white: the Primitive classes that run in ``dtype``; ``None`` means every
            Primitive except ``Cast`` (inside a white-listed Cell, as MindSpore's
            forced cast).
        declared: maps a Primitive class to the class its user declared (MindJAX may
            run a same-named subclass); identity by default.
        cast_class: the ``Cast`` Primitive class (excluded when ``white`` is None).
    """

    __slots__ = ("dtype", "white", "_declared", "_cast", "_memo")

    def __init__(self, dtype: Any, white: frozenset[type] | None,
                 declared: Callable[[type], type] | None = None, cast_class: type | None = None) -> None:
        self.dtype = dtype
        self.white = white
        self._declared = declared or (lambda cls: cls)
        self._cast = cast_class
        self._memo: dict[type, bool] = {}

    def covers(self, prim: Any) -> bool:
        """Whether ``prim`` (a Primitive or Primitive class) runs in ``dtype``."""
        cls = prim if isinstance(prim, type) else type(prim)
        hit = self._memo.get(cls)
        if hit is None:
            declared = self._declared(cls)
            if self.white is None:
                hit = self._cast is None or not issubclass(declared, self._cast)
            else:
                hit = declared in self.white
            self._memo[cls] = hit
        return hit

    def __repr__(self) -> str:
        what = "all but Cast" if self.white is None else sorted(c.__name__ for c in self.white)
        return f"PrecisionPolicy({getattr(self.dtype, 'name', self.dtype)}, {what})"


class _NoCast(PrecisionPolicy):
    """Covers no Primitive: a Cell that already runs wholly in its own precision (``to_float``)."""

    def __init__(self) -> None:
        super().__init__(None, frozenset())

    def covers(self, prim: Any) -> bool:
        return False

    def __repr__(self) -> str:
        return "NO_CAST"


NO_CAST: PrecisionPolicy = _NoCast()


class _Active(threading.local):
    policy: PrecisionPolicy | None = None


_ACTIVE = _Active()


def active_policy() -> PrecisionPolicy | None:
    """The policy the Primitives called now on this thread run under (None: no mixed precision)."""
    return _ACTIVE.policy


class policy_scope:
    """``with policy_scope(policy):`` makes ``policy`` (or None) the active one on this thread."""

    __slots__ = ("_policy", "_saved")

    def __init__(self, policy: PrecisionPolicy | None) -> None:
        self._policy = policy

    def __enter__(self) -> None:
        self._saved = _ACTIVE.policy
        _ACTIVE.policy = self._policy

    def __exit__(self, *exc: Any) -> None:
        _ACTIVE.policy = self._saved
