"""Global random state: one seed for initializers (numpy) and ops (a JAX key).

Initializers draw from a numpy generator, as MindSpore's do, so building a
network compiles nothing. Random ops (``Dropout``, ``ops.uniform`` ...) split a
JAX key held in a :class:`~mindjax.common.variable.Variable`; compiled calls
pass that key in and out, so GRAPH and PYNATIVE runs draw the same numbers.
"""
from __future__ import annotations

from typing import Any, Callable

import jax
import numpy as np

from mindjax.common.variable import Variable

__all__ = ["RNG_STATE", "set_seed", "get_seed", "numpy_rng", "next_key", "add_seed_hook", "remove_seed_hook"]

_DEFAULT_SEED = 0
_seed: int | None = None
_np_rng = np.random.default_rng(_DEFAULT_SEED)
# Called with the new seed by set_seed: how higher layers (the dataset's
# shuffles) follow ms.set_seed without this layer importing them.
_seed_hooks: list[Callable[[int], None]] = []


def _make_key() -> Any:
    seed = _DEFAULT_SEED if _seed is None else _seed
    if jax.config.jax_default_prng_impl == "threefry2x32" and not jax.config.jax_enable_custom_prng \
            and 0 <= seed < (2 ** 63 if jax.config.jax_enable_x64 else 2 ** 31):
        # jax.random.PRNGKey(seed)'s threefry key, [high 32 bits, low 32 bits], built on the host:
        # PRNGKey compiles two XLA programs for it.
        high = (seed >> 32) & 0xFFFFFFFF
        return jax.device_put(np.array([high, seed & 0xFFFFFFFF], np.uint32))
    return jax.random.PRNGKey(seed)


# The key is created on first use: building it at import would start the XLA
# backend before the user can set XLA_FLAGS.
RNG_STATE = Variable(factory=_make_key)


def set_seed(seed: int) -> None:
    """Seed initializers and random ops (MindSpore's ``ms.set_seed``).

    Example:
        >>> import mindjax as ms
        >>> ms.set_seed(1)
    """
    global _seed, _np_rng
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"For 'set_seed', 'seed' must be a non-negative int, got {seed!r}")
    _seed = int(seed)
    _np_rng = np.random.default_rng(_seed)
    object.__setattr__(RNG_STATE, "_raw", None)
    for hook in list(_seed_hooks):
        hook(_seed)


def add_seed_hook(hook: Callable[[int], None]) -> None:
    """Call ``hook(seed)`` on every later :func:`set_seed` (once, however often it is added).

    Arguments:
        hook: a callable taking the new seed.

    Example:
        >>> add_seed_hook(lambda seed: print("seeded", seed))  # doctest: +SKIP
    """
    if not callable(hook):
        raise TypeError(f"For 'add_seed_hook', 'hook' must be callable, got {type(hook).__name__}")
    if hook not in _seed_hooks:
        _seed_hooks.append(hook)


def remove_seed_hook(hook: Callable[[int], None]) -> None:
    """Stop calling ``hook`` on :func:`set_seed` (nothing happens when it was not added).

    Arguments:
        hook: a callable passed to :func:`add_seed_hook`.
    """
    if hook in _seed_hooks:
        _seed_hooks.remove(hook)


def get_seed() -> int | None:
    """The seed set by :func:`set_seed`, or ``None``."""
    return _seed


def numpy_rng() -> np.random.Generator:
    """The numpy generator that initializers draw from."""
    return _np_rng


def next_key() -> Any:
    """Split the global key and return a fresh subkey (works inside traces)."""
    key, sub = jax.random.split(RNG_STATE._value)
    RNG_STATE._value = key
    return sub
