"""The operator-level mixed-precision policy: which Primitives run in low precision, per Cell.

MindSpore's ``O1`` rewrites a network so that white-listed Primitives (``MatMul``,
``Conv2D``, ``ReLU`` ...) get their floating inputs cast down and their floating
outputs cast back to float32. Its ``auto`` level (:meth:`PrecisionPolicy.auto`) names
operators instead: white-listed ones run in the low type, black-listed ones in float32,
promote-listed ones in the widest floating input type (:meth:`PrecisionPolicy.rule`).
Functional ops, Tensor methods and layers that compute with jax.numpy name the Primitive
each step stands for (:func:`run_as`, :func:`amp_op`). MindJAX carries that as one policy object per Cell
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

import functools
import threading
from typing import Any, Callable

import jax.numpy as jnp
import numpy as np

__all__ = ["PrecisionPolicy", "NO_CAST", "LOW_TO_FP32", "LOW", "FP32", "PROMOTE", "active_policy", "policy_scope",
           "run_under_rule", "run_as", "amp_op"]


#: What a policy does to one operator call (:meth:`PrecisionPolicy.rule`).
LOW_TO_FP32 = "low_to_fp32"  # O1: floating inputs to the low type, floating outputs back to float32
LOW = "low"                  # auto white list: floating inputs to the low type, outputs as computed
FP32 = "fp32"                # auto black list: floating inputs to float32
PROMOTE = "promote"          # auto promote list: floating inputs to the widest floating input type


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
        forced_names: with ``white`` None, the Primitive names that functional ops and layers
            naming a Primitive (:func:`run_as`) are cast for (MindSpore's forced cast reaches
            Primitive calls only; by default every name but Cast's).

    A policy built with :meth:`auto` is MindSpore 2.x's ``amp_level='auto'``: it names
    operators (Primitive class names) instead of holding classes.
    """

    __slots__ = ("dtype", "white", "level", "black", "promote", "_declared", "_cast", "_forced", "_memo")

    def __init__(self, dtype: Any, white: frozenset[type] | None,
                 declared: Callable[[type], type] | None = None, cast_class: type | None = None,
                 forced_names: frozenset[str] | None = None) -> None:
        self.dtype = dtype
        self._forced = forced_names
        self.white = white
        self.level = "O1"
        self.black: frozenset[str] = frozenset()
        self.promote: frozenset[str] = frozenset()
        self._declared = declared or (lambda cls: cls)
        self._cast = cast_class
        self._memo: dict[Any, str | None] = {}

    @classmethod
    def auto(cls, dtype: Any, white: frozenset[str], black: frozenset[str], promote: frozenset[str],
             declared: Callable[[type], type] | None = None) -> "PrecisionPolicy":
        """MindSpore's ``auto`` level: operators named in ``white`` run in ``dtype`` (their
        outputs stay there), those in ``black`` in float32, those in ``promote`` in the widest
        floating type of their inputs; the others follow their inputs.

        Arguments:
            dtype: float16 or bfloat16.
            white, black, promote: Primitive names (``"MatMul"``, ``"Softmax"``, ``"AddN"`` ...).
            declared: as for the constructor.
        """
        policy = cls(dtype, frozenset(), declared)
        policy.level = "auto"
        policy.white, policy.black, policy.promote = frozenset(white), frozenset(black), frozenset(promote)
        return policy

    def _name_rule(self, name: str) -> str | None:
        if self.level == "auto":
            if name in self.white:
                return LOW
            if name in self.black:
                return FP32
            return PROMOTE if name in self.promote else None
        if self.white is None:
            if self._forced is not None:
                return LOW_TO_FP32 if name in self._forced else None
            return LOW_TO_FP32 if self._cast is None or name != self._cast.__name__ else None
        return LOW_TO_FP32 if any(c.__name__ == name for c in self.white) else None

    def rule(self, op: Any) -> str | None:
        """What this policy does to a call of ``op`` (a Primitive, a Primitive class, or a
        Primitive's name): :data:`LOW_TO_FP32`, :data:`LOW`, :data:`FP32`, :data:`PROMOTE`,
        or None (the operator runs as called)."""
        key = op if isinstance(op, (str, type)) else type(op)
        try:
            return self._memo[key]
        except KeyError:
            pass
        if isinstance(key, str):
            hit = self._name_rule(key)
        else:
            declared = self._declared(key)
            if self.level == "auto":
                hit = self._name_rule(declared.__name__)
            elif self.white is None:
                hit = LOW_TO_FP32 if self._cast is None or not issubclass(declared, self._cast) else None
            else:
                hit = LOW_TO_FP32 if declared in self.white else None
        self._memo[key] = hit
        return hit

    def covers(self, prim: Any) -> bool:
        """Whether ``prim`` (a Primitive or Primitive class) runs in ``dtype``."""
        return self.rule(prim) in (LOW_TO_FP32, LOW)

    def __repr__(self) -> str:
        name = getattr(self.dtype, "name", self.dtype)
        if self.level == "auto":
            return f"PrecisionPolicy.auto({name}, white={len(self.white)}, black={len(self.black)}, " \
                   f"promote={len(self.promote)})"
        what = "all but Cast" if self.white is None else sorted(c.__name__ for c in self.white)
        return f"PrecisionPolicy({name}, {what})"


class _NoCast(PrecisionPolicy):
    """Covers no Primitive: a Cell that already runs wholly in its own precision (``to_float``)."""

    def __init__(self) -> None:
        super().__init__(None, frozenset())

    def rule(self, op: Any) -> str | None:
        return None

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


def _is_float_tensor(x: Any) -> bool:
    # Arrays, Tensors and Parameters; MindSpore never casts Python or numpy scalars.
    dtype = getattr(x, "dtype", None)
    return dtype is not None and hasattr(x, "shape") and not isinstance(x, np.generic) \
        and jnp.issubdtype(dtype, jnp.floating)


def _cast(x: Any, dtype: Any) -> Any:
    if _is_float_tensor(x):
        return jnp.asarray(x).astype(dtype) if x.dtype != dtype else x
    if isinstance(x, (tuple, list)) and any(_is_float_tensor(e) for e in x):  # AddN's, Concat's tuple
        return type(x)(_cast(e, dtype) for e in x)
    return x


def _float_dtypes(values: Any) -> list[Any]:
    out = []
    for x in values:
        if _is_float_tensor(x):
            out.append(x.dtype)
        elif isinstance(x, (tuple, list)):
            out.extend(_float_dtypes(x))
    return out


def run_under_rule(rule: str, dtype: Any, run: Callable[[tuple[Any, ...], dict[str, Any]], Any],
                   args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``run(args, kwargs)`` as one operator under a policy's ``rule`` (see :meth:`PrecisionPolicy.rule`).

    ``LOW_TO_FP32`` (O1) casts the floating positional inputs to ``dtype`` and the floating
    outputs to float32, as MindSpore's O1 rewrite casts a call's arguments (not its keywords).
    The ``auto`` rules cast every floating input, keywords and the Tensors of tuple inputs too,
    and leave the outputs as computed. What ``run`` calls inside is not cast again.
    """
    if rule == LOW_TO_FP32:
        args = tuple(_cast(a, dtype) for a in args)
    else:
        if rule == LOW:
            target = dtype
        elif rule == FP32:
            target = jnp.dtype(jnp.float32)
        else:
            found = _float_dtypes(args) + _float_dtypes(kwargs.values())
            if not found:
                target = None
            else:
                target = found[0]
                for d in found[1:]:
                    target = jnp.promote_types(target, d)
        if target is not None:
            args = tuple(_cast(a, target) for a in args)
            kwargs = {k: _cast(v, target) for k, v in kwargs.items()}
    with policy_scope(None):
        out = run(args, kwargs)
    if rule != LOW_TO_FP32:
        return out
    f32 = jnp.dtype(jnp.float32)
    if isinstance(out, tuple):
        return tuple(o.astype(f32) if _is_float_tensor(o) else o for o in out)
    return out.astype(f32) if _is_float_tensor(out) else out


def run_as(op: Any, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` as the Primitive ``op`` (an instance, class or name) runs under the
    active policy: MindJAX's layers and functional ops compute with jax.numpy, and name the
    MindSpore Primitive each step stands for so that mixed precision treats it as MindSpore would.

    Example:
        >>> import jax.numpy as jnp
        >>> run_as("MatMul", jnp.matmul, jnp.ones((2, 2)), jnp.ones((2, 2))).dtype   # no policy
        dtype('float32')
    """
    policy = _ACTIVE.policy
    if policy is not None:
        rule = policy.rule(op)
        if rule is not None:
            return run_under_rule(rule, policy.dtype, lambda a, k: fn(*a, **k), args, kwargs)
    return fn(*args, **kwargs)


def amp_op(op: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: the function runs as the Primitive named ``op`` under mixed precision (:func:`run_as`)."""

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            policy = _ACTIVE.policy
            if policy is not None:
                rule = policy.rule(op)
                if rule is not None:
                    return run_under_rule(rule, policy.dtype, lambda a, k: fn(*a, **k), args, kwargs)
            return fn(*args, **kwargs)
        wrapper._amp_op = op  # type: ignore[attr-defined]
        return wrapper
    return decorate
