"""Sharded checkpoints with orbax-checkpoint: each process writes its own shards.

A sharded checkpoint is a folder. Arrays go through orbax's
``StandardCheckpointHandler`` (tensorstore; every process writes the shards it
holds, nothing is gathered), and strings and Python numbers from
``append_dict`` go into a JSON item. On restore each array is laid out with the
sharding asked for (usually the one the network's Parameter has now), so a
checkpoint saved on a 2x4 mesh restores onto a 1x8 mesh or a single device.

Selected by ``save_checkpoint(..., integrated_save=False)``; ``load_checkpoint``
recognises the folder. Direct use:

Example:
    >>> save_sharded("ckpt_dir", [("fc.weight", w)])                  # doctest: +SKIP
    >>> load_sharded("ckpt_dir", shardings={"fc.weight": sharding})   # doctest: +SKIP
"""
from __future__ import annotations

import os
import shutil
from typing import Any, Callable, Mapping

import jax
import numpy as np

from mindjax.train.serialization.ckpt_format import CheckpointFormatError

__all__ = ["save_sharded", "load_sharded", "is_sharded_checkpoint"]

_ARRAYS = "arrays"
_EXTRA = "extra"
# orbax keys a pytree by its dict keys, and '.'/'/' in a key would become
# folder structure on disk; names are stored under indices with a name list.
_NAMES = "__mindjax_names__"


def _checkpointer() -> Any:
    import orbax.checkpoint as ocp

    # Naming each item's handler lets a fresh process read the metadata before restoring.
    return ocp.Checkpointer(ocp.CompositeCheckpointHandler(**{_ARRAYS: ocp.StandardCheckpointHandler(),
                                                              _EXTRA: ocp.JsonCheckpointHandler()}))


def is_sharded_checkpoint(path: str) -> bool:
    """Whether ``path`` is a folder written by :func:`save_sharded`."""
    return os.path.isdir(path) and os.path.isdir(os.path.join(path, _ARRAYS))


def save_sharded(path: str, entries: list[tuple[str, Any]]) -> None:
    """Write ``(name, jax.Array | numpy array | str | number)`` pairs as a sharded checkpoint folder.

    The folder appears complete or not at all: orbax writes into a temporary
    folder and renames it; an existing checkpoint at ``path`` is swapped out
    only after the new one is committed (single process). With several
    processes every process must call this with the same ``path``.

    Arguments:
        path: the folder to create (replaced when it exists).
        entries: names and values; arrays keep their sharding.
    """
    import orbax.checkpoint as ocp

    path = os.path.abspath(path)
    if os.path.exists(path) and not os.path.isdir(path):
        raise IsADirectoryError(f"For 'save_checkpoint', a sharded checkpoint is a folder but {path} is a file")
    arrays: dict[str, Any] = {}
    extra: dict[str, Any] = {_NAMES: []}
    for name, value in entries:
        if isinstance(value, (str, bool, int, float)):
            extra[name] = value
            continue
        if not isinstance(value, jax.Array):
            value = np.asarray(value)
        arrays[str(len(extra[_NAMES]))] = value
        extra[_NAMES].append(name)
    args = ocp.args.Composite(**{_ARRAYS: ocp.args.StandardSave(arrays), _EXTRA: ocp.args.JsonSave(extra)})
    checkpointer = _checkpointer()
    if jax.process_count() > 1:
        checkpointer.save(path, args=args, force=True)
        return
    staging = f"{path}.saving-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    checkpointer.save(staging, args=args)
    if os.path.exists(path):
        retired = f"{path}.old-{os.getpid()}"
        os.replace(path, retired)
        os.replace(staging, path)
        shutil.rmtree(retired, ignore_errors=True)
    else:
        os.replace(staging, path)


def _target(name: str, meta: Any, shardings: Any) -> Any:
    if callable(shardings) and not isinstance(shardings, jax.sharding.Sharding):
        sharding = shardings(name)
    elif isinstance(shardings, Mapping):
        sharding = shardings.get(name)
    else:
        sharding = shardings
    if sharding is None:
        sharding = jax.sharding.SingleDeviceSharding(jax.local_devices()[0])
    return jax.ShapeDtypeStruct(tuple(meta.shape), meta.dtype, sharding=sharding)


def load_sharded(path: str, shardings: Any = None,
                 choose: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """Read a sharded checkpoint folder into ``{name: jax.Array | str | number}``.

    Arguments:
        path: the folder.
        shardings: where each array goes: one ``jax.sharding.Sharding`` for all,
            a ``{name: Sharding}`` mapping, or ``f(name) -> Sharding``; a
            missing entry means the first local device.
        choose: keep only names for which it returns True.

    Raises:
        CheckpointFormatError: the folder is not a complete sharded checkpoint.
    """
    import orbax.checkpoint as ocp

    path = os.path.abspath(path)
    checkpointer = _checkpointer()
    try:
        extra = checkpointer.restore(path, args=ocp.args.Composite(**{_EXTRA: ocp.args.JsonRestore()}))[_EXTRA]
        metadata = checkpointer.metadata(path).item_metadata[_ARRAYS].tree
    except Exception as exc:  # orbax raises several kinds for a missing or partial folder
        raise CheckpointFormatError(f"Failed to read the sharded checkpoint {path}: it is incomplete or not a "
                                    f"checkpoint folder ({exc})") from exc
    names = extra.pop(_NAMES)
    keys = {str(i): name for i, name in enumerate(names)}
    # orbax restores the whole tree; unwanted arrays go to one device and are dropped.
    targets = {key: _target(name, metadata[key], shardings if choose is None or choose(name) else None)
               for key, name in keys.items()}
    out: dict[str, Any] = {}
    if targets:
        try:
            arrays = checkpointer.restore(path, args=ocp.args.Composite(
                **{_ARRAYS: ocp.args.StandardRestore(targets)}))[_ARRAYS]
        except Exception as exc:
            raise CheckpointFormatError(f"Failed to read the sharded checkpoint {path}: {exc}") from exc
        out.update({name: arrays[key] for key, name in keys.items() if choose is None or choose(name)})
    out.update({k: v for k, v in extra.items() if choose is None or choose(k)})
    return out
