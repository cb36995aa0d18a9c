"""Global dataset settings, as ``mindspore.dataset.config`` has them.

The seed orders every shuffle and random transform. ``ms.set_seed`` also
sets it, as in MindSpore (through a seed hook of ``mindjax.common.random``):
whichever of the two was called last wins.
Worker counts are capped at the machine's cores, because MindSpore's default
of 8 workers overloads small machines.
"""
from __future__ import annotations

import os

__all__ = ["set_seed", "get_seed", "set_num_parallel_workers", "get_num_parallel_workers",
           "set_prefetch_size", "get_prefetch_size", "set_data_timeout", "get_data_timeout",
           "set_callback_timeout", "get_callback_timeout", "cpu_count", "cap_workers", "reset"]

_MT19937_DEFAULT_SEED = 5489
_DEFAULT_WORKERS = 8
_DEFAULT_PREFETCH = 16
_DEFAULT_TIMEOUT_S = 600.0
_DEFAULT_CALLBACK_TIMEOUT = 60
_callback_timeout: int = _DEFAULT_CALLBACK_TIMEOUT

_seed: int | None = None
# bumped by every seeding, so eager random transforms restart their generator
_seed_generation: int = 0
_num_workers: int | None = None
_prefetch: int = _DEFAULT_PREFETCH
_timeout_s: float = _DEFAULT_TIMEOUT_S


def _seed_from_global() -> int | None:
    from mindjax.common.random import get_seed as global_get_seed

    seed = global_get_seed()
    return None if seed is None else int(seed) % 2 ** 32


def _on_global_seed(seed: int) -> None:
    """``ms.set_seed`` hook: the global seed becomes the dataset seed."""
    global _seed, _seed_generation
    _seed = int(seed) % 2 ** 32
    _seed_generation += 1


def _check_int(name: str, value: object, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ValueError(f"For '{name}', the argument must be an int >= {low}, got {value!r}")
    return int(value)


def cpu_count() -> int:
    """The cores this process may use (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return max(1, os.cpu_count() or 1)


def cap_workers(num: int | None) -> int:
    """``num`` (or the configured default when ``None``) capped at :func:`cpu_count`."""
    if num is None:
        num = get_num_parallel_workers()
    return max(1, min(int(num), cpu_count()))


def set_seed(seed: int) -> None:
    """Seed every shuffle and random transform of later pipelines.

    Arguments:
        seed: a non-negative int below 2**32.

    Example:
        >>> import mindjax.dataset as ds
        >>> ds.config.set_seed(1)
    """
    global _seed, _seed_generation
    _check_int("set_seed", seed, 0)
    if seed >= 2 ** 32:
        raise ValueError(f"For 'set_seed', the argument must be below 2**32, got {seed}")
    _seed = int(seed)
    _seed_generation += 1


def get_seed() -> int:
    """The dataset seed.

    Returns:
        The value of the last of ``ds.config.set_seed`` and ``ms.set_seed``,
        or 5489 (``std::mt19937``'s default, as in MindSpore) when neither was called.
    """
    return _MT19937_DEFAULT_SEED if _seed is None else _seed


def set_num_parallel_workers(num: int) -> None:
    """Default worker count of each operation (capped at the cores when used).

    Arguments:
        num: a positive int.
    """
    global _num_workers
    _num_workers = _check_int("set_num_parallel_workers", num, 1)


def get_num_parallel_workers() -> int:
    """The default worker count: the value set, else ``min(8, cores)``."""
    if _num_workers is not None:
        return min(_num_workers, cpu_count())
    return min(_DEFAULT_WORKERS, cpu_count())


def set_prefetch_size(size: int) -> None:
    """How many rows (or batches) each stage prepares ahead.

    Arguments:
        size: a positive int (MindSpore's default is 16).
    """
    global _prefetch
    _prefetch = _check_int("set_prefetch_size", size, 1)


def get_prefetch_size() -> int:
    """The prefetch depth (16 unless set)."""
    return _prefetch


def set_data_timeout(seconds: float) -> None:
    """The longest wait for one batch before the pipeline is declared stuck.

    Arguments:
        seconds: a positive number (600 unless set).
    """
    global _timeout_s
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds <= 0:
        raise ValueError(f"For 'set_data_timeout', the argument must be a positive number, got {seconds!r}")
    _timeout_s = float(seconds)


def get_data_timeout() -> float:
    """The wait bound in seconds used by background prefetch."""
    return _timeout_s


def set_callback_timeout(timeout: int) -> None:
    """Seconds a ``WaitedDSCallback`` waits for the training step before it goes on (default 60).

    Arguments:
        timeout: a positive int.
    """
    global _callback_timeout
    _check_int("set_callback_timeout", timeout, 1)
    _callback_timeout = int(timeout)


def get_callback_timeout() -> int:
    """The ``WaitedDSCallback`` timeout in seconds (default 60)."""
    return _callback_timeout


def reset() -> None:
    """Restore every setting to its default (used by tests); the seed follows ``ms.set_seed`` if it was called."""
    global _seed, _num_workers, _prefetch, _timeout_s, _seed_generation, _callback_timeout
    _callback_timeout = _DEFAULT_CALLBACK_TIMEOUT
    _seed = _seed_from_global()
    _seed_generation += 1
    _num_workers = None
    _prefetch = _DEFAULT_PREFETCH
    _timeout_s = _DEFAULT_TIMEOUT_S


def _follow_global_seed() -> None:
    global _seed
    from mindjax.common.random import add_seed_hook

    # ms.set_seed may have run before this module was imported.
    _seed = _seed_from_global()
    add_seed_hook(_on_global_seed)


_follow_global_seed()
