"""Global dataset settings, as ``mindspore.dataset.config`` has them.

The seed orders every shuffle and random transform. ``ms.set_seed`` also
sets it, as in MindSpore (through a seed hook of ``mindjax.common.random``):
whichever of the two was called last wins.
Worker counts are capped at the machine's cores, because MindSpore's default
of 8 workers overloads small machines.
"""
from __future__ import annotations

import enum
import os
from typing import Any

__all__ = ["set_seed", "get_seed", "set_num_parallel_workers", "get_num_parallel_workers",
           "set_prefetch_size", "get_prefetch_size", "set_data_timeout", "get_data_timeout",
           "set_callback_timeout", "get_callback_timeout", "set_enable_watchdog", "get_enable_watchdog",
           "set_multiprocessing_timeout_interval", "get_multiprocessing_timeout_interval",
           "set_multiprocessing_start_method", "get_multiprocessing_start_method", "set_debug_mode", "get_debug_mode",
           "ErrorSamplesMode", "set_error_samples_mode", "get_error_samples_mode", "set_video_backend",
           "get_video_backend", "cpu_count", "cap_workers", "reset"]

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


class ErrorSamplesMode(enum.IntEnum):
    """What a pipeline does with a sample whose transform fails: ``RETURN`` raises (MindJAX supports only this)."""

    RETURN = 0
    REPLACE = 1
    SKIP = 2


_settings: dict[str, Any] = {}
_SETTING_DEFAULTS: dict[str, Any] = {"enable_watchdog": True, "multiprocessing_timeout_interval": 300,
                                     "multiprocessing_start_method": "fork", "video_backend": "CPU"}


def set_enable_watchdog(enable: bool) -> None:
    """Record MindSpore's worker watchdog switch (default True).

    MindJAX's workers are bounded by :func:`set_data_timeout` whatever this says.
    """
    if not isinstance(enable, bool):
        raise TypeError(f"For 'set_enable_watchdog', the argument must be a bool, got {enable!r}")
    _settings["enable_watchdog"] = enable


def get_enable_watchdog() -> bool:
    """The watchdog switch (default True)."""
    return _settings.get("enable_watchdog", _SETTING_DEFAULTS["enable_watchdog"])


def set_multiprocessing_timeout_interval(interval: int) -> None:
    """Record the seconds between MindSpore's warnings about slow worker processes (default 300)."""
    _settings["multiprocessing_timeout_interval"] = _check_int("set_multiprocessing_timeout_interval", interval, 1)


def get_multiprocessing_timeout_interval() -> int:
    """The slow-worker warning interval in seconds (default 300)."""
    return _settings.get("multiprocessing_timeout_interval", _SETTING_DEFAULTS["multiprocessing_timeout_interval"])


def set_multiprocessing_start_method(start_method: str = "fork") -> None:
    """Record the start method of worker processes: ``'fork'`` (default), ``'spawn'`` or ``'forkserver'``.

    MindJAX's worker processes are grain's, which choose their own start method.
    """
    if start_method not in ("fork", "spawn", "forkserver"):
        raise ValueError(f"For 'set_multiprocessing_start_method', the argument must be 'fork', 'spawn' or "
                         f"'forkserver', got {start_method!r}")
    _settings["multiprocessing_start_method"] = start_method


def get_multiprocessing_start_method() -> str:
    """The recorded start method (default ``'fork'``)."""
    return _settings.get("multiprocessing_start_method", _SETTING_DEFAULTS["multiprocessing_start_method"])


def set_debug_mode(debug_mode_flag: bool, debug_hook_list: list[Any] | None = None) -> None:
    """MindSpore's pipeline debug mode; only ``False`` is supported.

    Raises:
        NotImplementedError: for ``True``: run the pipeline with ``num_parallel_workers=1`` and put a
            Python function that prints (or breaks) in a ``map`` instead.
    """
    if not isinstance(debug_mode_flag, bool):
        raise TypeError(f"For 'set_debug_mode', 'debug_mode_flag' must be a bool, got {debug_mode_flag!r}")
    if debug_mode_flag:
        raise NotImplementedError("For 'set_debug_mode', the debug mode is not supported in MindJAX: set "
                                  "num_parallel_workers=1 and put a Python function that prints or breaks in a map")


def get_debug_mode() -> bool:
    """``False``: MindJAX has no pipeline debug mode (see :func:`set_debug_mode`)."""
    return False


def set_error_samples_mode(error_samples_mode: ErrorSamplesMode) -> None:
    """What to do with failing samples; only ``ErrorSamplesMode.RETURN`` (raise) is supported.

    Raises:
        NotImplementedError: for ``REPLACE``/``SKIP``: drop bad samples with ``Dataset.filter`` instead.
    """
    if not isinstance(error_samples_mode, ErrorSamplesMode):
        raise TypeError(f"For 'set_error_samples_mode', the argument must be an ErrorSamplesMode, "
                        f"got {error_samples_mode!r}")
    if error_samples_mode != ErrorSamplesMode.RETURN:
        raise NotImplementedError(f"For 'set_error_samples_mode', {error_samples_mode.name} is not supported in "
                                  "MindJAX: a failing sample raises; drop bad samples with Dataset.filter instead")


def get_error_samples_mode() -> ErrorSamplesMode:
    """``ErrorSamplesMode.RETURN``: a failing sample raises."""
    return ErrorSamplesMode.RETURN


def set_video_backend(backend: str) -> None:
    """The video decoding backend; only ``'CPU'`` is accepted (video decoding itself is not supported)."""
    if backend not in ("CPU", "Ascend"):
        raise ValueError(f"For 'set_video_backend', the backend must be 'CPU' or 'Ascend', got {backend!r}")
    if backend == "Ascend":
        raise NotImplementedError("For 'set_video_backend', 'Ascend' is not available in MindJAX; use 'CPU'")
    _settings["video_backend"] = backend


def get_video_backend() -> str:
    """The video decoding backend (``'CPU'``)."""
    return _settings.get("video_backend", _SETTING_DEFAULTS["video_backend"])


def reset() -> None:
    """Restore every setting to its default (used by tests); the seed follows ``ms.set_seed`` if it was called."""
    global _seed, _num_workers, _prefetch, _timeout_s, _seed_generation, _callback_timeout
    _callback_timeout = _DEFAULT_CALLBACK_TIMEOUT
    _settings.clear()
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
