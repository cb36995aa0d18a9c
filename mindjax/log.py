"""``mindspore.log``: MindSpore's logger API (``debug``, ``info``, ``warning``, ``error``, ``critical``,
``get_level``, ``get_log_config``) over Python's :mod:`logging`.

The level comes from ``GLOG_v`` as in MindSpore: ``0`` DEBUG, ``1`` INFO, ``2`` WARNING
(the default), ``3`` ERROR, ``4`` CRITICAL. Messages go to standard error unless
``GLOG_logtostderr=0``, then to ``$GLOG_log_dir/mindjax.log``.

Example:
    >>> from mindjax import log as logger
    >>> logger.get_level() in ("0", "1", "2", "3", "4")
    True
"""
from __future__ import annotations

import logging
import os
import sys
import threading
from typing import Any

__all__ = ["debug", "info", "warning", "error", "critical", "get_level", "get_log_config"]

_GLOG_TO_LEVEL = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR,
                  "4": logging.CRITICAL}
_LEVEL_TO_GLOG = {v: k for k, v in _GLOG_TO_LEVEL.items()}
_DEFAULT_GLOG = "2"
_LOGGER_NAME = "mindjax"
_LOCK = threading.Lock()
_CONFIG: dict[str, str] = {}


def _env(name: str, default: str, allowed: tuple[str, ...] | None = None) -> str:
    value = os.environ.get(name, default).strip()
    if allowed is not None and value not in allowed:
        raise ValueError(f"For 'mindjax.log', the environment variable {name} must be one of "
                         f"{list(allowed)}, got {value!r}")
    return value


def _get_logger() -> logging.Logger:
    """The ``mindjax`` logger, configured from the GLOG_* variables on first use."""
    logger = logging.getLogger(_LOGGER_NAME)
    if _CONFIG:
        return logger
    with _LOCK:
        if _CONFIG:
            return logger
        level = _env("GLOG_v", _DEFAULT_GLOG, tuple(_GLOG_TO_LEVEL))
        to_stderr = _env("GLOG_logtostderr", "1", ("0", "1"))
        stderr_threshold = _env("GLOG_stderrthreshold", _DEFAULT_GLOG, tuple(_GLOG_TO_LEVEL))
        logger.setLevel(_GLOG_TO_LEVEL[level])
        logger.propagate = False
        fmt = logging.Formatter("[%(levelname)s] MJ(%(process)d,%(processName)s):%(asctime)s "
                                "[%(filename)s:%(lineno)d] %(message)s")
        if to_stderr == "1":
            handler: logging.Handler = logging.StreamHandler(sys.stderr)
            handler.setLevel(_GLOG_TO_LEVEL[stderr_threshold])
        else:
            log_dir = _env("GLOG_log_dir", "")
            if not log_dir:
                raise ValueError("For 'mindjax.log', GLOG_log_dir must be set when GLOG_logtostderr=0")
            os.makedirs(log_dir, exist_ok=True)
            handler = logging.FileHandler(os.path.join(log_dir, "mindjax.log"))
            _CONFIG["GLOG_log_dir"] = log_dir
        handler.setFormatter(fmt)
        logger.addHandler(handler)
        _CONFIG.update({"GLOG_v": level, "GLOG_logtostderr": to_stderr, "GLOG_stderrthreshold": stderr_threshold})
    return logger


def debug(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` with severity DEBUG on the MindJAX logger."""
    kwargs.setdefault("stacklevel", 2)  # report the caller's file and line
    _get_logger().debug(msg, *args, **kwargs)


def info(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` with severity INFO on the MindJAX logger."""
    kwargs.setdefault("stacklevel", 2)  # report the caller's file and line
    _get_logger().info(msg, *args, **kwargs)


def warning(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` with severity WARNING on the MindJAX logger."""
    kwargs.setdefault("stacklevel", 2)  # report the caller's file and line
    _get_logger().warning(msg, *args, **kwargs)


def error(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` with severity ERROR on the MindJAX logger."""
    kwargs.setdefault("stacklevel", 2)  # report the caller's file and line
    _get_logger().error(msg, *args, **kwargs)


def critical(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log ``msg % args`` with severity CRITICAL on the MindJAX logger."""
    kwargs.setdefault("stacklevel", 2)  # report the caller's file and line
    _get_logger().critical(msg, *args, **kwargs)


def get_level() -> str:
    """The logger's level as MindSpore's GLOG string: ``'0'`` DEBUG ... ``'4'`` CRITICAL.

    Returns:
        str, ``'2'`` (WARNING) unless ``GLOG_v`` says otherwise.
    """
    return _LEVEL_TO_GLOG.get(_get_logger().getEffectiveLevel(), _DEFAULT_GLOG)


def get_log_config() -> dict[str, str]:
    """The logger's configuration as GLOG variables (``GLOG_v``, ``GLOG_logtostderr`` ...).

    Returns:
        dict of str to str.
    """
    _get_logger()
    return dict(_CONFIG)
