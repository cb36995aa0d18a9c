"""``OnRequestExit``: stop training (or evaluation) on a signal, saving a checkpoint to resume from.

On ``sig`` (SIGTERM by default) the run stops after the current step; at its
end the network is saved to ``<directory>/rank_<device_id>/<file_name>_train.ckpt``
(``_eval`` for evaluation). The next run with the same callback loads that
checkpoint at its start, as MindSpore's does. ``save_mindir`` is checked and
accepted; no MINDIR is written (MindJAX exports StableHLO with ``ms.export``).
MindSpore's ``MS_ENABLE_GRACEFUL_EXIT`` cluster protocol (``config_file``,
the network's ``graceful_exit`` Parameter) is its Ascend TFT service's; here
the signal alone requests the stop.
"""
from __future__ import annotations

import os
import signal
from typing import Any

from mindjax import context
from mindjax.train.callback.callback import Callback, RunContext

__all__ = ["OnRequestExit"]


class OnRequestExit(Callback):
    """Stop on a signal and save a checkpoint (MindSpore's ``OnRequestExit``; see the module).

    Arguments:
        save_ckpt (bool): save a checkpoint at the stop. Default: ``True``.
        save_mindir (bool): accepted (no MINDIR is written). Default: ``True``.
        file_name (str): the file name's stem. Default: ``'Net'``.
        directory (str): where ``rank_<device_id>/`` goes; the working directory when None.
            Default: ``'./'``.
        config_file (str, optional): accepted (MindSpore's cluster protocol). Default: ``None``.
        sig (int): the signal that requests the stop. Default: ``signal.SIGTERM``.

    Raises:
        TypeError: ``save_ckpt``/``save_mindir`` not bools, or ``sig`` not an int.
        ValueError: ``sig`` is SIGKILL, which can not be caught.
    """

    def __init__(self, save_ckpt: bool = True, save_mindir: bool = True, file_name: str = "Net",
                 directory: str = "./", config_file: str | None = None, sig: int = signal.SIGTERM) -> None:
        super().__init__()
        for name, value in (("save_ckpt", save_ckpt), ("save_mindir", save_mindir)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'OnRequestExit', the '{name}' must be bool, but got {type(value).__name__}.")
        if isinstance(sig, bool) or not isinstance(sig, int):
            raise TypeError(f"For 'OnRequestExit', the 'sig' must be int, but got {type(sig).__name__}.")
        if hasattr(signal, "SIGKILL") and sig == signal.SIGKILL:
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.save_ckpt = save_ckpt
        self.save_mindir = save_mindir
        self.sig = sig
        self.remote_config_file = config_file
        self.exit = False
        self.stop_train = False
        device_id = context.get_context("device_id") or 0
        root = os.path.join(os.getcwd() if directory is None else directory, f"rank_{device_id}")
        self.train_name = os.path.join(root, f"{file_name}_train")
        self.eval_name = os.path.join(root, f"{file_name}_eval")
        self._previous_handler: Any = None

    def _handle_signal(self, signum: int, frame: Any) -> None:
        self.exit = True

    def _install(self) -> None:
        self._previous_handler = signal.signal(self.sig, self._handle_signal)

    def _restore(self) -> None:
        if self._previous_handler is not None:
            signal.signal(self.sig, self._previous_handler)
            self._previous_handler = None

    def _load(self, net: Any, *names: str) -> None:
        from mindjax.train.serialization import load_checkpoint  # callbacks sit below serialization's users

        for name in names:
            if os.path.isfile(f"{name}.ckpt"):
                load_checkpoint(f"{name}.ckpt", net=net)
                return

    def _save(self, net: Any, name: str) -> None:
        from mindjax.train.serialization import save_checkpoint

        os.makedirs(os.path.dirname(name), exist_ok=True)
        save_checkpoint(net, f"{name}.ckpt")

    def on_train_begin(self, run_context: RunContext) -> None:
        """Install the signal handler; resume from the checkpoint a stopped run saved."""
        self._install()
        if self.save_ckpt:
            self._load(run_context.original_args().train_network, self.train_name)

    def on_train_step_end(self, run_context: RunContext) -> None:
        """After a step, stop when the signal came."""
        if self.exit and not self.stop_train:
            run_context.request_stop()
            self.stop_train = True

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """After an epoch, stop when the signal came."""
        self.on_train_step_end(run_context)

    def on_train_end(self, run_context: RunContext) -> None:
        """Save the checkpoint when the signal stopped training; restore the signal's old handler."""
        self._restore()
        if self.exit and self.save_ckpt:
            self._save(run_context.original_args().train_network, self.train_name)

    def on_eval_begin(self, run_context: RunContext) -> None:
        """Install the signal handler; load the evaluation (or training) checkpoint a stopped run saved."""
        self._install()
        if self.save_ckpt:
            self._load(run_context.original_args().eval_network, self.eval_name, self.train_name)

    def on_eval_step_end(self, run_context: RunContext) -> None:
        """After an evaluation step, stop when the signal came."""
        if self.exit:
            run_context.request_stop()

    def on_eval_end(self, run_context: RunContext) -> None:
        """Save the evaluation checkpoint when the signal stopped it; restore the signal's old handler."""
        self._restore()
        if self.exit and self.save_ckpt:
            self._save(run_context.original_args().eval_network, self.eval_name)
