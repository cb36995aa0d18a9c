"""Shared checks and conversions of ``mindjax.nn.probability`` (MindSpore's ``distribution._utils``).

Construction-time checks look at concrete values (a Parameter is not checked, as
in MindSpore); call-time helpers work on ``jax.Array``s and so under ``jax.jit``.
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common import dtype as mstype
from mindjax.common.parameter import Parameter
from mindjax.common.random import next_key
from mindjax.common.tensor import Tensor, as_array
from mindjax.ops.primitives import Primitive

_INT_TYPES = mstype.int_type + mstype.uint_type

__all__ = ["check_dtype", "check_type", "cast_to_tensor", "set_param_type", "check_greater_zero",
           "check_greater_equal_zero", "check_greater", "check_prob", "check_rank", "check_sum_equal_one",
           "check_tensor", "check_tuple", "check_distribution_name", "raise_none_error",
           "raise_not_implemented_util", "raise_not_defined", "raise_not_impl_error", "clamp_probs",
           "sample_key", "softplus", "inverse_softplus", "CheckTuple", "CheckTensor"]


def _type_list(types: tuple) -> str:
    return "[" + ", ".join(repr(t) for t in types) + "]"


def check_dtype(dtype: Any, valid: tuple, owner: str, arg: str = "dtype") -> None:
    """Raise MindSpore's TypeError when ``dtype`` is not one of ``valid``."""
    if dtype not in valid:
        raise TypeError(f"For '{owner}', the '{arg}' should be one of {_type_list(valid)}, "
                        f"but got '{dtype!r}'.")


def check_type(arg: str, value: Any, classes: tuple, owner: str) -> None:
    """Raise MindSpore's TypeError when ``value`` is not an instance of ``classes``."""
    if not isinstance(value, classes) or (isinstance(value, bool) and bool not in classes):
        names = ", ".join(f"'{c.__name__}'" for c in classes)
        raise TypeError(f"For '{owner}', the type of '{arg}' should be {names}, "
                        f"but got type '{type(value).__name__}'.")


def cast_to_tensor(t: Any, hint_type: Any = mstype.float32) -> Tensor:
    """``t`` as a Tensor of ``hint_type`` (a Parameter is returned as it is)."""
    if t is None:
        raise ValueError("Input cannot be None in cast_to_tensor")
    if isinstance(t, Parameter):
        return t
    if isinstance(t, bool):
        raise TypeError("Input cannot be Type Bool")
    if isinstance(t, (Tensor, np.ndarray, list, int, float)):
        return Tensor(as_array(t) if isinstance(t, Tensor) else np.asarray(t), dtype=hint_type)
    raise TypeError(f"Unable to convert input of type {type(t)} to a Tensor of type {hint_type}")


def set_param_type(args: dict, hint_type: Any) -> Any:
    """The dtype the parameters are computed in (MindSpore's ``set_param_type``)."""
    if hint_type in _INT_TYPES or hint_type is None:
        hint_type = mstype.float32
    common = None
    for name, arg in args.items():
        if hasattr(arg, "dtype"):
            cur = mstype.to_ms_dtype(arg.dtype) if isinstance(arg, np.ndarray) else arg.dtype
            if common is None:
                common = cur
            elif cur != common:
                raise TypeError(f"{name} should have the same dtype as other arguments.")
    if common in _INT_TYPES or common == mstype.float64:
        return mstype.float32
    return hint_type if common is None else common


def _concrete(value: Any) -> np.ndarray | None:
    if isinstance(value, Parameter):
        return None
    return np.asarray(as_array(value))


def check_greater_zero(value: Any, name: str) -> None:
    """ValueError unless every element of ``value`` is > 0."""
    v = _concrete(value)
    if v is not None and not np.all(v > 0):
        raise ValueError(f"{name} must be greater than zero.")


def check_greater_equal_zero(value: Any, name: str) -> None:
    """ValueError when an element of ``value`` is < 0."""
    v = _concrete(value)
    if v is not None and np.any(v < 0):
        raise ValueError(f"{name} must be greater than or equal to zero.")


def check_greater(a: Any, b: Any, name_a: str, name_b: str) -> None:
    """ValueError unless ``a < b`` everywhere."""
    if isinstance(a, Parameter) or isinstance(b, Parameter):
        return
    if not np.all(np.asarray(as_array(a)) < np.asarray(as_array(b))):
        raise ValueError(f"{name_a} must be less than {name_b}")


def check_prob(p: Any) -> None:
    """ValueError unless ``0 < p < 1`` everywhere."""
    v = _concrete(p)
    if v is None:
        return
    if not np.all(v > 0):
        raise ValueError("Probabilities must be greater than zero")
    if not np.all(v < 1):
        raise ValueError("Probabilities must be less than one")


def check_rank(probs: Any) -> None:
    """ValueError for 0-D Categorical probabilities."""
    v = _concrete(probs)
    if v is not None and v.ndim == 0:
        raise ValueError("probs for Categorical distribution must have rank >= 1.")


def check_sum_equal_one(probs: Any) -> None:
    """ValueError unless each row of ``probs`` sums to one."""
    v = _concrete(probs)
    if v is None:
        return
    s = np.sum(v, axis=-1)
    eps = np.finfo(s.dtype).eps
    if not np.allclose(s, np.ones(s.shape), rtol=eps * 10, atol=eps):
        raise ValueError("Probabilities for each category should sum to one for Categorical distribution.")


def check_tensor(x: Any, name: str) -> Any:
    """TypeError unless ``x`` is a Tensor, a Parameter or (inside the framework) an array."""
    if x is None or isinstance(x, (Tensor, jax.Array)):
        return x
    raise TypeError(f"For {name}, input type must be a Tensor or Parameter.")


def check_tuple(x: Any, name: str) -> tuple:
    """TypeError unless ``x`` is a tuple."""
    if isinstance(x, tuple):
        return x
    raise TypeError(f"For {name}, input type must be a tuple.")


def check_distribution_name(name: Any, expected: str) -> None:
    """ValueError unless the ``dist`` argument of kl_loss/cross_entropy names ``expected``."""
    if name is None:
        raise ValueError("Input dist must be a constant which is not None.")
    if name != expected:
        raise ValueError(f"Expected dist input is {expected}, but got {name}.")


def raise_none_error(name: str) -> None:
    raise TypeError(f"the type {name} must be subclass of Tensor. It can not be None since it is not "
                    f"specified during initialization.")


def raise_not_implemented_util(func_name: str, obj: str) -> None:
    raise NotImplementedError(f"{func_name} is not implemented for {obj} distribution.")


def raise_not_defined(func_name: str, obj: str) -> None:
    raise ValueError(f"{func_name} is undefined for {obj} distribution.")


def raise_not_impl_error(name: str) -> None:
    raise ValueError(f"{name} function must be implemented for non-linear transformation")


def clamp_probs(p: jax.Array) -> jax.Array:
    eps = jnp.finfo(p.dtype).eps
    return jnp.clip(p, eps, 1 - eps)


def sample_key(seed: int) -> jax.Array:
    """A fresh key from MindJAX's global random state, folded with a distribution's non-zero ``seed``."""
    key = next_key()
    return jax.random.fold_in(key, seed) if seed else key


def softplus(x: jax.Array) -> jax.Array:
    """log(1 + exp(x)), MindSpore's thresholded form."""
    threshold = np.log(np.finfo(np.float32).eps) + 1.0
    small, large = x < threshold, x > -threshold
    safe = jnp.where(small | large, jnp.ones_like(x), x)
    y = jnp.log(jnp.exp(safe) + 1.0)
    return jnp.where(small, jnp.exp(x), jnp.where(large, x, y))


def inverse_softplus(x: jax.Array) -> jax.Array:
    """log(exp(x) - 1), MindSpore's thresholded form."""
    threshold = np.log(np.finfo(np.float32).eps) + 1.0
    tiny = np.exp(threshold)
    small, large = x < tiny, x > -threshold
    safe = jnp.where(small | large, jnp.ones_like(x), x)
    y = safe + jnp.log(jnp.abs(jnp.expm1(-safe)))
    return jnp.where(small, jnp.log(x), jnp.where(large, x, y))


class CheckTuple(Primitive):
    """MindSpore's ``CheckTuple`` Primitive: ``CheckTuple()(x, name)`` is ``x`` when it is a tuple.

    Raises:
        TypeError: ``x`` is not a tuple, naming ``name``.
    """

    def __call__(self, x: Any, name: str) -> tuple:
        return check_tuple(x, name)


class CheckTensor(Primitive):
    """MindSpore's ``CheckTensor`` Primitive: ``CheckTensor()(x, name)`` is ``x`` when it is a Tensor
    or a Parameter (or None).

    Raises:
        TypeError: ``x`` is anything else, naming ``name``.
    """

    def __call__(self, x: Any, name: str) -> Any:
        return check_tensor(x, name)
