"""``mindspore.hal`` device queries over ``jax.devices``."""
from __future__ import annotations

import jax

__all__ = ["device_count", "is_available", "is_initialized", "devices_of"]

# MindSpore's device targets and the JAX platform each runs on ("Ascend" has none).
_PLATFORMS = {"CPU": "cpu", "GPU": "gpu", "Ascend": None, "TPU": "tpu"}


def devices_of(device_target: str | None, who: str) -> list[jax.Device]:
    """The local JAX devices of ``device_target``, ``[]`` when JAX sees none.

    ``None`` means the device arrays go to by default (``set_context(device_target=...)`` sets it)
    and the other local devices of its platform.

    Raises:
        ValueError: an unknown ``device_target``, naming ``who``.
    """
    if device_target is None:
        default = jax.config.jax_default_device
        platform = getattr(default, "platform", default) or jax.default_backend()
        devices = jax.local_devices(backend=platform)
        return sorted(devices, key=lambda d: d != default)
    target = device_target
    if target not in _PLATFORMS:
        raise ValueError(f"For '{who}', 'device_target' must be one of {sorted(_PLATFORMS)}, got {target!r}")
    platform = _PLATFORMS[target]
    if platform is None:
        return []
    try:
        return jax.local_devices(backend=platform)
    except RuntimeError:
        return []


def device_count(device_target: str | None = None) -> int:
    """The number of local devices of ``device_target`` (default: the default device's platform)."""
    return len(devices_of(device_target, "device_count"))


def is_available(device_target: str | None = None) -> bool:
    """Whether JAX sees a device of ``device_target`` (default: the default device's platform)."""
    return bool(devices_of(device_target, "is_available"))


def is_initialized(device_target: str | None = None) -> bool:
    """Whether the backend of ``device_target`` is up: JAX starts a backend when it first lists its devices."""
    return is_available(device_target)
