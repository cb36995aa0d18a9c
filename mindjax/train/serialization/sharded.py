"""Sharded checkpoints with orbax-checkpoint: each process writes its own shards.

A sharded checkpoint is a folder. Arrays go through orbax's
``StandardCheckpointHandler`` (tensorstore; every process writes the shards it
holds, nothing is gathered), and strings and Python numbers from
``append_dict`` go into a JSON item. On restore each array is laid out with the
sharding asked for (usually the one the network's Parameter has now), so a
checkpoint saved on a 2x4 mesh restores onto a 1x8 mesh or a single device.

Selected by ``save_checkpoint(..., integrated_save=False)``; ``load_checkpoint``
recognises the folder.

Replacing a checkpoint takes three renames, and a process can be killed
between any two; each step leaves a folder that :func:`recover_sharded` puts
back on the next save, load or ``ModelCheckpoint`` start:

1. orbax writes ``<path>.saving-<host>-<pid>`` (incomplete until step 2);
2. it is renamed ``<path>.ready-<host>-<pid>`` (complete);
3. the old ``<path>`` is renamed ``<path>.old-<host>-<pid>``;
4. the ready folder becomes ``<path>``, and the old one is deleted.

A missing ``<path>`` is restored from a ready folder (the newer checkpoint),
or else from an old one; leftovers of writers that are no longer running are
deleted. Direct use:

Example:
    >>> save_sharded("ckpt_dir", [("fc.weight", w)])                  # doctest: +SKIP
    >>> load_sharded("ckpt_dir", shardings={"fc.weight": sharding})   # doctest: +SKIP
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
from typing import Any, Callable, Mapping

import jax
import numpy as np

from mindjax.train.serialization.atomic import writer_is_gone, writer_tag
from mindjax.train.serialization.ckpt_format import CheckpointFormatError

__all__ = ["save_sharded", "load_sharded", "is_sharded_checkpoint", "recover_sharded", "remove_stale_sharded",
           "remove_sharded"]

_STAGE = re.compile(r"^(?P<base>.+)\.(?P<stage>saving|ready|old|deleting)-(?P<host>[A-Za-z0-9_-]+)-(?P<pid>\d+)"
                    r"(?P<orbax>\.orbax-checkpoint-tmp.*)?$")
_SAVING_NOW: set[str] = set()

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


def _stale(match: "re.Match[str]", full: str) -> bool:
    pid = int(match["pid"])
    if pid == os.getpid():
        return not any(full.startswith(active) for active in _SAVING_NOW)
    return writer_is_gone(match["host"], pid)


def _remove_tree(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            os.remove(path)


def recover_sharded(path: str) -> bool:
    """Finish or undo a sharded save of ``path`` that a killed process left half done.

    Arguments:
        path: the checkpoint folder.

    Returns:
        Whether ``path`` was restored (it was missing and a complete copy was found).
    """
    path = os.path.abspath(path)
    directory, base = os.path.split(path)
    try:
        names = os.listdir(directory)
    except OSError:
        return False
    found: dict[str, list[tuple[float, str]]] = {"saving": [], "ready": [], "old": [], "deleting": []}
    for name in names:
        match = _STAGE.match(name)
        if match is None or match["base"] != base:
            continue
        full = os.path.join(directory, name)
        if not _stale(match, full):
            continue
        stage = "saving" if match["orbax"] else match["stage"]
        with contextlib.suppress(OSError):
            found[stage].append((os.path.getmtime(full), full))
    restored = False
    if not os.path.exists(path):
        for stage in ("ready", "old"):
            candidates = [c for c in sorted(found[stage]) if is_sharded_checkpoint(c[1])]
            if candidates:
                newest = candidates[-1]
                os.replace(newest[1], path)
                found[stage].remove(newest)
                restored = True
                break
    for entries in found.values():
        for _, leftover in entries:
            _remove_tree(leftover)
    return restored


def remove_sharded(path: str) -> None:
    """Delete the sharded checkpoint folder ``path`` so that a kill never leaves a half-deleted one under its name.

    The folder is first renamed ``<path>.deleting-<host>-<pid>`` (one atomic
    rename), then removed; :func:`recover_sharded` removes what a killed
    process left of it, and never restores it.
    """
    path = os.path.abspath(path)
    doomed = f"{path}.deleting-{writer_tag()}"
    os.replace(path, doomed)
    _remove_tree(doomed)


def remove_stale_sharded(directory: str, name_prefix: str) -> None:
    """Run :func:`recover_sharded` for every checkpoint in ``directory`` starting with ``name_prefix``
    that a killed sharded save left half done."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    bases = {m["base"] for m in map(_STAGE.match, names) if m is not None and m["base"].startswith(name_prefix)}
    for base in bases:
        recover_sharded(os.path.join(directory, base))


def save_sharded(path: str, entries: list[tuple[str, Any]]) -> None:
    """Write ``(name, jax.Array | numpy array | str | number)`` pairs as a sharded checkpoint folder.

    The folder appears complete or not at all: orbax writes into a temporary
    folder and renames it; an existing checkpoint at ``path`` is swapped out
    only after the new one is committed, and a kill during the swap is
    repaired by :func:`recover_sharded`. With several processes every process
    must call this with the same ``path``; process 0 does the renames.

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
    many = jax.process_count() > 1
    # Every process must name the same staging folder; process 0's pid stands for the job.
    tag = writer_tag() if not many else f"job-{_job_pid()}"
    primary = not many or jax.process_index() == 0
    if primary:
        recover_sharded(path)
    staging, ready, retired = (f"{path}.{stage}-{tag}" for stage in ("saving", "ready", "old"))
    _SAVING_NOW.add(staging)
    _SAVING_NOW.update((ready, retired))
    try:
        if primary:
            for leftover in (staging, ready):
                shutil.rmtree(leftover, ignore_errors=True)
        checkpointer.save(staging, args=args, force=many)
        if primary:
            os.replace(staging, ready)
            if os.path.exists(path):
                os.replace(path, retired)
            os.replace(ready, path)
            shutil.rmtree(retired, ignore_errors=True)
        if many:
            from jax.experimental import multihost_utils

            multihost_utils.sync_global_devices(f"mindjax sharded save {path}")
    finally:
        _SAVING_NOW.difference_update((staging, ready, retired))


def _job_pid() -> int:
    from jax.experimental import multihost_utils

    return int(multihost_utils.broadcast_one_to_all(np.int64(os.getpid())))


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
    recover_sharded(path)
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
