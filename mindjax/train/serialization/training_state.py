"""The whole training state in one checkpoint, for exact resume.

A training Cell (``TrainOneStepCell`` and friends) holds every piece of
mutable training state as a Parameter: the weights, BatchNorm statistics,
optimizer moments, ``global_step``, the learning rate, the loss scale and its
counters. Beside them the file holds the global random key
(``mindjax.common.random.RNG_STATE``) and an opaque JSON blob from the caller
(epoch, step, data position ...). The file is an ordinary MindSpore ``.ckpt``
(the extra entries are a UInt32 tensor and a str), so MindSpore can read the
weights out of it too.

Example:
    >>> save_training_state("state.ckpt", model.train_network, {"epoch": 3})   # doctest: +SKIP
    >>> restore_training_state("state.ckpt", model.train_network)["epoch"]       # doctest: +SKIP
    3
"""
from __future__ import annotations

import json
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.cells.cell import Cell
from mindjax.common.random import RNG_STATE

__all__ = ["RNG_STATE_KEY", "TRAINING_STATE_KEY", "training_state_append_dict", "save_training_state",
           "restore_training_state"]

RNG_STATE_KEY = "__mindjax_rng_state__"
TRAINING_STATE_KEY = "__mindjax_training_state__"
_VERSION = 1


def _rng_array() -> np.ndarray:
    key = RNG_STATE._value
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        key = jax.random.key_data(key)
    return np.array(key, copy=True)


def training_state_append_dict(extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The non-Parameter training state as an ``append_dict`` for ``save_checkpoint``.

    ``save_checkpoint(train_network, path, append_dict=training_state_append_dict(extra))``
    writes the same file as :func:`save_training_state`. Call it at save time:
    the random key changes every step.

    Arguments:
        extra: a JSON-serialisable dict (epoch, step, data position ...).

    Returns:
        ``{RNG_STATE_KEY: the key as a uint32 array, TRAINING_STATE_KEY: JSON str}``.
    """
    try:
        blob = json.dumps({"version": _VERSION, "extra": extra or {}}, sort_keys=True)
    except TypeError as exc:
        raise TypeError(f"For 'save_training_state', 'extra' must be JSON-serialisable: {exc}") from exc
    return {RNG_STATE_KEY: _rng_array(), TRAINING_STATE_KEY: blob}


def _named_variables(train_cell: Cell) -> dict[str, Any]:
    if not isinstance(train_cell, Cell):
        raise TypeError(f"For 'save_training_state', 'train_cell' must be a Cell, got {type(train_cell).__name__}")
    named: dict[str, Any] = {}
    for path, param in train_cell.parameters_and_names():
        if param.name in named:
            raise ValueError(f"For 'save_training_state', two Parameters of the training Cell are named "
                             f"'{param.name}' (one at '{path}'); give them distinct names")
        named[param.name] = param
    return named


def save_training_state(path: str, train_cell: Cell, extra: dict[str, Any] | None = None,
                        crc_check: bool = False) -> None:
    """Write every Parameter of ``train_cell``, the random key and ``extra`` to ``path`` atomically.

    Arguments:
        path: a ``.ckpt`` file name (the suffix is added when missing).
        train_cell: the training Cell (``model.train_network``).
        extra: a JSON-serialisable dict returned by :func:`restore_training_state`.
        crc_check: store a CRC32.
    """
    from mindjax.train.serialization.api import save_checkpoint

    _named_variables(train_cell)
    save_checkpoint(train_cell, path, append_dict=training_state_append_dict(extra), crc_check=crc_check)


def restore_training_state(path: str, train_cell: Cell, crc_check: bool = False) -> dict[str, Any]:
    """Restore what :func:`save_training_state` wrote: all of it, or nothing.

    Every Parameter of ``train_cell`` must be in the file with the same shape
    and dtype; this is checked before anything is written. Values keep the
    sharding the Parameters have now.

    Arguments:
        path: the file.
        train_cell: the training Cell, built as when the state was saved.
        crc_check: verify the stored CRC32.

    Returns:
        The ``extra`` dict that was saved.

    Raises:
        ValueError: a missing entry, or a shape or dtype mismatch (naming the
            Parameter and both shapes); nothing was restored.
    """
    from mindjax.train.serialization.ckpt_format import read_ckpt

    path = path if path.endswith(".ckpt") else f"{path}.ckpt"
    values = read_ckpt(path, crc_check)
    named = _named_variables(train_cell)
    missing = [name for name in [*named, RNG_STATE_KEY, TRAINING_STATE_KEY] if name not in values]
    if missing:
        raise ValueError(f"For 'restore_training_state', {path} lacks {missing}; it was not written by "
                         f"save_training_state for this training Cell")
    plan = []
    for name, param in named.items():
        value, old = values[name], param._value
        if tuple(value.shape) != tuple(old.shape) or np.dtype(value.dtype) != np.dtype(old.dtype):
            raise ValueError(f"For 'restore_training_state', '{name}' is {value.dtype}{tuple(value.shape)} in "
                             f"{path} but {old.dtype}{tuple(old.shape)} in the training Cell; nothing was restored")
        plan.append((param, jax.device_put(value, old.sharding)))
    blob = json.loads(values[TRAINING_STATE_KEY])
    key = jnp.asarray(values[RNG_STATE_KEY])
    current = RNG_STATE._value
    if jnp.issubdtype(current.dtype, jax.dtypes.prng_key):
        key = jax.random.wrap_key_data(key, impl=jax.random.key_impl(current))
    elif key.shape != current.shape or key.dtype != current.dtype:
        raise ValueError(f"For 'restore_training_state', the random key in {path} is {key.dtype}{key.shape} but "
                         f"the current one is {current.dtype}{current.shape}")
    for param, value in plan:
        param.set_data(value)
    RNG_STATE._value = key
    return blob.get("extra", {})
