"""``set_algo_parameters``: MindSpore's knobs of the strategy search, stored and read back.

MindJAX's AUTO_PARALLEL search (:mod:`mindjax.parallel.auto`) has its own
cost model and does not read these knobs; they are kept, checked and returned
so that scripts written for MindSpore run unchanged.

Example:
    >>> import mindjax as ms
    >>> ms.parallel.set_algo_parameters(elementwise_op_strategy_follow=True)
    >>> ms.parallel.get_algo_parameters("elementwise_op_strategy_follow")
    True
"""
from __future__ import annotations

from typing import Any

__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters"]

# MindSpore 2.10's defaults, read from the installed package.
_DEFAULTS: dict[str, Any] = {
    "fully_use_devices": False,
    "elementwise_op_strategy_follow": False,
    "enable_algo_approxi": False,
    "algo_approxi_epsilon": 0.1,
    "tensor_slice_align_enable": False,
    "tensor_slice_align_size": 16,
}
_TYPES: dict[str, type | tuple[type, ...]] = {
    "fully_use_devices": bool, "elementwise_op_strategy_follow": bool, "enable_algo_approxi": bool,
    "algo_approxi_epsilon": (float, int), "tensor_slice_align_enable": bool, "tensor_slice_align_size": int,
}
_VALUES: dict[str, Any] = dict(_DEFAULTS)


def set_algo_parameters(**kwargs: Any) -> None:
    """Set parameters of the strategy search (MindSpore's ``set_algo_parameters``).

    Arguments:
        fully_use_devices, elementwise_op_strategy_follow, enable_algo_approxi,
        algo_approxi_epsilon, tensor_slice_align_enable, tensor_slice_align_size:
            as in MindSpore; stored only (MindJAX's search has its own cost model).

    Raises:
        ValueError: an unknown key or a value out of range; TypeError: a value of the wrong type.
    """
    for key, value in kwargs.items():
        if key not in _DEFAULTS:
            raise ValueError(f"For 'set_algo_parameters', the keyword argument '{key}' is not recognized; "
                             f"known keys: {', '.join(_DEFAULTS)}")
        expected = _TYPES[key]
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)) or \
                (key == "algo_approxi_epsilon" and isinstance(value, bool)):
            raise TypeError(f"For 'set_algo_parameters', the parameter '{key}' must be "
                            f"{getattr(expected, '__name__', 'float')}, but got {type(value).__name__}")
        if key == "algo_approxi_epsilon" and value <= 0:
            raise ValueError(f"For 'set_algo_parameters', 'algo_approxi_epsilon' must be positive, got {value}")
        if key == "tensor_slice_align_size" and not 1 <= value <= 1024:
            raise ValueError(f"For 'set_algo_parameters', 'tensor_slice_align_size' must be in [1, 1024], "
                             f"got {value}")
        _VALUES[key] = float(value) if key == "algo_approxi_epsilon" else value


def get_algo_parameters(attr_key: str) -> Any:
    """Read one parameter set by :func:`set_algo_parameters` (MindSpore's default otherwise).

    Raises:
        ValueError: an unknown key.
    """
    if attr_key not in _VALUES:
        raise ValueError(f"For 'get_algo_parameters', the key '{attr_key}' is not recognized")
    return _VALUES[attr_key]


def reset_algo_parameters() -> None:
    """Restore every search parameter to MindSpore's default."""
    _VALUES.clear()
    _VALUES.update(_DEFAULTS)
