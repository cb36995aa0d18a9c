"""``BackupAndRestore``: resume an interrupted training run where it stopped.

At the end of every ``save_freq``-th epoch the whole training state (every
Variable of the training network: weights, optimizer state, counters, loss
scale; the random key; the epoch and step counters) is written to
``backup_dir``. A later ``Model.train`` with the same callback restores it and
continues from the next epoch, so the run ends where an uninterrupted one
ends. Files are safetensors, written atomically.
"""
from __future__ import annotations

import os
from typing import Any

import jax.numpy as jnp
import numpy as np

from mindjax.cells.state import collect_variables
from mindjax.common.random import RNG_STATE
from mindjax.train.callback.callback import Callback, RunContext

__all__ = ["BackupAndRestore"]

_FILE = "backup.safetensors"


class BackupAndRestore(Callback):
    """Back up the training state every epoch and restore it on the next run.

    Arguments:
        backup_dir: the folder of the backup.
        save_freq: ``'epoch'`` or a positive int (every n epochs).
        delete_checkpoint: delete the backup when training completes.
    """

    def __init__(self, backup_dir: str, save_freq: Any = "epoch", delete_checkpoint: bool = True) -> None:
        super().__init__()
        if not isinstance(backup_dir, str) or not backup_dir:
            raise ValueError(f"For 'BackupAndRestore', 'backup_dir' must be a non-empty str, got {backup_dir!r}")
        if save_freq != "epoch" and (not isinstance(save_freq, int) or isinstance(save_freq, bool)
                                     or save_freq <= 0):
            raise ValueError(f"For 'BackupAndRestore', 'save_freq' must be 'epoch' or a positive int, "
                             f"got {save_freq!r}")
        if not isinstance(delete_checkpoint, bool):
            raise TypeError(f"For 'BackupAndRestore', 'delete_checkpoint' must be a bool, got {delete_checkpoint!r}")
        self.backup_dir = backup_dir
        self.save_freq = 1 if save_freq == "epoch" else save_freq
        self.delete_checkpoint = delete_checkpoint
        self.path = os.path.join(backup_dir, _FILE)

    @staticmethod
    def _state(cb_params: Any) -> list[Any]:
        return collect_variables(cb_params.train_network) + [RNG_STATE]

    def on_train_begin(self, run_context: RunContext) -> None:
        """Restore the backup, if any, and tell ``Model`` which epoch to resume at."""
        if not os.path.exists(self.path):
            return
        from safetensors.numpy import load_file
        from safetensors import safe_open

        cb_params = run_context.original_args()
        arrays = load_file(self.path)
        with safe_open(self.path, framework="numpy") as f:
            meta = f.metadata() or {}
        variables = self._state(cb_params)
        if int(meta.get("count", -1)) != len(variables):
            raise ValueError(f"For 'BackupAndRestore', the backup in {self.backup_dir!r} holds "
                             f"{meta.get('count')} state arrays but the training network has {len(variables)}")
        for i, var in enumerate(variables):
            old = var._value
            value = jnp.asarray(arrays[f"state.{i}"])
            if tuple(value.shape) != tuple(old.shape):
                raise ValueError(f"For 'BackupAndRestore', state array {i} has shape {value.shape} in the "
                                 f"backup and {old.shape} in the network")
            object.__setattr__(var, "_raw", value.astype(old.dtype))
        cb_params["_resume_epoch"] = int(meta["epoch"])
        cb_params.cur_step_num = int(meta["cur_step_num"])

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Write the backup when due."""
        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % self.save_freq:
            return
        from safetensors.numpy import save_file

        os.makedirs(self.backup_dir, exist_ok=True)
        variables = self._state(cb_params)
        tensors = {f"state.{i}": np.array(v._value, order="C") for i, v in enumerate(variables)}
        meta = {"epoch": str(cb_params.cur_epoch_num), "cur_step_num": str(cb_params.cur_step_num),
                "count": str(len(variables))}
        tmp = f"{self.path}.tmp-{os.getpid()}"
        save_file(tensors, tmp, metadata=meta)
        os.replace(tmp, self.path)

    def on_train_end(self, run_context: RunContext) -> None:
        """Delete the backup after a completed run."""
        cb_params = run_context.original_args()
        finished = cb_params.get("cur_epoch_num") == cb_params.get("_final_epoch")
        if self.delete_checkpoint and finished and not run_context.get_stop_requested() \
                and os.path.exists(self.path):
            os.remove(self.path)
