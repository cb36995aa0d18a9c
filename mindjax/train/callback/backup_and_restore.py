"""``BackupAndRestore``: resume an interrupted training run exactly where it stopped.

At the end of every ``save_freq``-th epoch the whole training state is written
to ``backup_dir`` with :func:`mindjax.train.serialization.save_training_state`:
every Parameter of the training network (weights, optimizer state, counters,
loss scale), the random key, the epoch and step counters and the position of
the training data. A later ``Model.train`` with the same callback restores it
all and continues from the next epoch, so the run ends where an uninterrupted
one ends, bit for bit (MindSpore's version reruns every epoch instead).
"""
from __future__ import annotations

import os
from typing import Any

from mindjax.train.callback.callback import Callback, RunContext

__all__ = ["BackupAndRestore"]

_FILE = "backup.ckpt"


class BackupAndRestore(Callback):
    """Back up the training state every epoch and restore it on the next run.

    Arguments:
        backup_dir: the folder of the backup (a ``backup.ckpt`` file in it).
        save_freq: ``'epoch'`` or a positive int (every n epochs).
        delete_checkpoint: delete the backup when training completes.

    Example:
        >>> model.train(10, data, callbacks=[BackupAndRestore("backup")])  # doctest: +SKIP
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

    def on_train_begin(self, run_context: RunContext) -> None:
        """Restore the backup, if any: state, counters and data position; tell ``Model`` where to resume."""
        if not os.path.exists(self.path):
            return
        from mindjax.train.serialization import restore_training_state

        cb_params = run_context.original_args()
        try:
            extra = restore_training_state(self.path, cb_params.train_network)
        except ValueError as exc:
            raise ValueError(f"For 'BackupAndRestore', the backup in {self.backup_dir!r} does not fit this "
                             f"training network: {exc}") from exc
        source = cb_params.get("_train_source")
        if extra.get("data") is not None and source is not None:
            source.set_state(extra["data"])
        cb_params["_resume_epoch"] = int(extra["epoch"])
        cb_params.cur_step_num = int(extra["cur_step_num"])

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Write the backup when due."""
        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % self.save_freq:
            return
        from mindjax.train.serialization import save_training_state

        os.makedirs(self.backup_dir, exist_ok=True)
        source = cb_params.get("_train_source")
        extra = {"epoch": int(cb_params.cur_epoch_num), "cur_step_num": int(cb_params.cur_step_num),
                 "data": source.get_state() if source is not None else None}
        save_training_state(self.path, cb_params.train_network, extra)

    def on_train_end(self, run_context: RunContext) -> None:
        """Delete the backup after a completed run."""
        cb_params = run_context.original_args()
        finished = cb_params.get("cur_epoch_num") == cb_params.get("_final_epoch")
        if self.delete_checkpoint and finished and not run_context.get_stop_requested() \
                and os.path.exists(self.path):
            os.remove(self.path)
