"""``mindspore.device_manager``: the device this process runs on, and determinism.

``set_device`` is :func:`mindjax.context.set_device`. ``set_deterministic(True)``
asks XLA for deterministic GPU kernels (``--xla_gpu_deterministic_ops``), which
works when it is called before the first array is made (XLA reads its flags
once); XLA:CPU is deterministic already. ``get_context("deterministic")``
reads ``"ON"``/``"OFF"`` as in MindSpore.
"""
from __future__ import annotations

import os
import warnings
from typing import NamedTuple

from mindjax import context
from mindjax.context import set_device

__all__ = ["set_device", "set_deterministic", "get_current_device"]

_DETERMINISTIC_FLAG = "--xla_gpu_deterministic_ops=true"
_STATE = {"configured": False}


class DeviceInfo(NamedTuple):
    """The current device: ``(device_target, device_id)``, as ``get_current_device`` returns it."""

    device_target: str
    device_id: int


def set_deterministic(deterministic: bool) -> None:
    """Ask for deterministic computation (MindSpore's ``mindspore.set_deterministic``; see the module).

    Arguments:
        deterministic (bool): whether to compute deterministically.

    Raises:
        TypeError: ``deterministic`` is not a bool.
        RuntimeError: it was set before.
    """
    if not isinstance(deterministic, bool):
        raise TypeError(f"The parameter 'deterministic' must be {bool}, but got {type(deterministic)}")
    if _STATE["configured"]:
        raise RuntimeError("The 'mindspore.set_deterministic' can not be set repeatedly.")
    _STATE["configured"] = True
    flags = os.environ.get("XLA_FLAGS", "")
    if deterministic and _DETERMINISTIC_FLAG not in flags:
        if _backend_started():
            warnings.warn("set_deterministic(True) after the first array was made: XLA has read its flags "
                          "already; set XLA_FLAGS=--xla_gpu_deterministic_ops=true before starting (XLA:CPU "
                          "is deterministic anyway)", stacklevel=2)
        os.environ["XLA_FLAGS"] = (flags + " " + _DETERMINISTIC_FLAG).strip()
    context.set_context(deterministic="ON" if deterministic else "OFF")


def _backend_started() -> bool:
    from jax._src import xla_bridge  # no public query for "has a backend been made"

    return bool(getattr(xla_bridge, "_backends", None))


def get_current_device() -> DeviceInfo:
    """The device target and device id of the current process (MindSpore's ``get_current_device``).

    Example:
        >>> import mindjax as ms
        >>> ms.get_current_device().device_target
        'CPU'
    """
    device_id = context.get_context("device_id")
    return DeviceInfo(context.get_context("device_target"), 0 if device_id is None else int(device_id))
