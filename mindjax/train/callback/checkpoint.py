"""``ModelCheckpoint`` and ``CheckpointConfig``: save the network during training.

Files are named as MindSpore names them, ``<prefix>-<epoch>_<step in epoch>.ckpt``
(``.safetensors`` with ``format='safetensors'``) in ``directory``, and the
oldest are removed beyond ``keep_checkpoint_max``. They are written by
``mindjax.train.serialization.save_checkpoint`` (atomically); with
``integrated_save=False`` each "file" is a sharded checkpoint folder.

Unlike MindSpore, the new checkpoint is written before older ones are pruned,
so a process killed at any moment leaves at least one complete checkpoint,
even with ``keep_checkpoint_max=1``. Temporaries that killed saves of the same
prefix left behind are removed when training starts and at each save.
"""
from __future__ import annotations

import os
import re
import time
from typing import Any, Callable

from mindjax.train.callback.callback import Callback, RunContext

__all__ = ["CheckpointConfig", "ModelCheckpoint"]


def _check_non_negative_int(owner: str, name: str, value: Any) -> int:
    if value is None:
        return 0
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"For '{owner}', '{name}' must be a non-negative int, got {value!r}")
    return value


class CheckpointConfig:
    """When and how ``ModelCheckpoint`` saves.

    Arguments:
        save_checkpoint_steps: save every this many steps.
        save_checkpoint_seconds: save every this many seconds (when steps is 0).
        keep_checkpoint_max: keep at most this many files.
        keep_checkpoint_per_n_minutes: keep one file per this many minutes.
        integrated_save, async_save: passed to the checkpoint writer.
        saved_network: save this Cell instead of the training network.
        append_info: a list of ``'epoch_num'``, ``'step_num'`` or ``{name: value}``
            dicts saved alongside the parameters.
        crc_check: store a CRC32 in each file, in MindSpore's format. ``None`` (the
            default) stores one, unlike MindSpore; an explicit ``True`` is refused
            with ``format='safetensors'``, as in MindSpore.
        format: ``'ckpt'`` or ``'safetensors'`` (the file format and suffix).
        The remaining MindSpore arguments are accepted and stored.
    """

    def __init__(self, save_checkpoint_steps: int = 1, save_checkpoint_seconds: int = 0,
                 keep_checkpoint_max: int = 5, keep_checkpoint_per_n_minutes: int = 0,
                 integrated_save: bool = True, async_save: bool = False, saved_network: Any = None,
                 append_info: list[Any] | None = None, enc_key: Any = None, enc_mode: str = "AES-GCM",
                 exception_save: bool = False, crc_check: bool | None = None, remove_redundancy: bool = False,
                 format: str = "ckpt", **kwargs: Any) -> None:
        owner = "CheckpointConfig"
        self.save_checkpoint_steps = _check_non_negative_int(owner, "save_checkpoint_steps", save_checkpoint_steps)
        self.save_checkpoint_seconds = _check_non_negative_int(owner, "save_checkpoint_seconds",
                                                               save_checkpoint_seconds)
        self.keep_checkpoint_max = _check_non_negative_int(owner, "keep_checkpoint_max", keep_checkpoint_max)
        self.keep_checkpoint_per_n_minutes = _check_non_negative_int(owner, "keep_checkpoint_per_n_minutes",
                                                                     keep_checkpoint_per_n_minutes)
        if not self.save_checkpoint_steps and not self.save_checkpoint_seconds:
            raise ValueError("For 'CheckpointConfig', 'save_checkpoint_steps' and 'save_checkpoint_seconds' "
                             "cannot both be 0")
        if not self.keep_checkpoint_max and not self.keep_checkpoint_per_n_minutes:
            self.keep_checkpoint_max = 1
        # As MindSpore reports them: the time-based policy that a step/count policy
        # overrides reads None.
        if self.save_checkpoint_steps:
            self.save_checkpoint_seconds = None
        if self.keep_checkpoint_max:
            self.keep_checkpoint_per_n_minutes = None
        if format not in ("ckpt", "safetensors"):
            raise ValueError(f"For 'CheckpointConfig', 'format' must be 'ckpt' or 'safetensors', got {format!r}")
        if crc_check is not None and not isinstance(crc_check, bool):
            raise TypeError(f"For 'CheckpointConfig', 'crc_check' must be a bool, got {crc_check!r}")
        if format == "safetensors" and (enc_key is not None or enc_mode != "AES-GCM" or crc_check is True
                                        or exception_save):
            raise ValueError("For 'CheckpointConfig', when 'format' is 'safetensors', 'enc_key', 'enc_mode', "
                             "'crc_check' and 'exception_save' must keep their defaults")
        self.integrated_save = integrated_save
        self.async_save = async_save
        self.saved_network = saved_network
        self.append_info = self._parse_append_info(append_info)
        self._append_given = append_info is not None
        self.enc_key = enc_key
        self.enc_mode = enc_mode
        self.exception_save = exception_save
        self.crc_check = True if crc_check is None else crc_check
        self.remove_redundancy = remove_redundancy
        self.format = format
        self.kwargs = kwargs

    @staticmethod
    def _parse_append_info(append_info: list[Any] | None) -> dict[str, Any]:
        if append_info is None:
            return {}
        if not isinstance(append_info, list):
            raise TypeError(f"For 'CheckpointConfig', 'append_info' must be a list, got {type(append_info).__name__}")
        out: dict[str, Any] = {}
        for item in append_info:
            if item in ("epoch_num", "step_num"):
                out[item] = 0
            elif isinstance(item, dict):
                out.update(item)
            else:
                raise ValueError(f"For 'CheckpointConfig', elements of 'append_info' must be 'epoch_num', "
                                 f"'step_num' or a dict, got {item!r}")
        return out

    @property
    def append_dict(self) -> dict[str, Any] | None:
        """The extra entries saved in each file (MindSpore's name): ``{'epoch_num': 0, 'lr': 0.01}``;
        ``None`` without ``append_info``."""
        return self.append_info if self._append_given else None

    def get_checkpoint_policy(self) -> dict[str, Any]:
        """The saving policy as a dict, with ``saved_network`` as MindSpore's."""
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}


def _save(network: Any, path: str, config: CheckpointConfig, append_dict: dict[str, Any]) -> None:
    from mindjax.train.serialization import save_checkpoint

    save_checkpoint(network, path, integrated_save=config.integrated_save, async_save=config.async_save,
                    append_dict=append_dict or None, crc_check=config.crc_check, format=config.format)


def _remove_stale(directory: str, prefix: str) -> None:
    from mindjax.train.serialization.atomic import remove_stale_temporaries
    from mindjax.train.serialization.sharded import remove_stale_sharded

    remove_stale_temporaries(directory, prefix)
    remove_stale_sharded(directory, prefix)


def _prefix_family(directory: str, prefix: str) -> list[str]:
    """``<prefix>-`` and every ``<prefix>_<n>-`` found in ``directory``: the file prefixes runs given ``prefix``
    have used there (a restart in a folder that already has ``prefix``'s files writes as ``<prefix>_1`` ...)."""
    family = re.compile(r"^\.?(" + re.escape(prefix) + r"(?:_\d+)?-)")
    try:
        names = os.listdir(directory)
    except OSError:
        names = []
    return sorted({f"{prefix}-"} | {m.group(1) for m in map(family.match, names) if m is not None})


def _remove(path: str) -> None:
    """Delete a checkpoint: a file, or the folder a sharded (``integrated_save=False``) save wrote."""
    if os.path.isdir(path):
        from mindjax.train.serialization.sharded import remove_sharded

        remove_sharded(path)  # renamed first: a kill never leaves a half-deleted folder under a checkpoint's name
    else:
        os.remove(path)


class ModelCheckpoint(Callback):
    """Save checkpoints during training, named ``<prefix>-<epoch>_<step>.ckpt`` (or ``.safetensors``).

    Arguments:
        prefix: the file-name prefix (no '/'), or ``f(cb_params) -> str``, whose
            result is the whole file name before the suffix (as in MindSpore).
        directory: the folder (current directory when ``None``), or ``f(cb_params) -> str``.
        config: a :class:`CheckpointConfig`.

    As in MindSpore, when files with the same prefix already exist in the
    folder the prefix becomes ``<prefix>_1``, ``<prefix>_2`` ...
    """

    def __init__(self, prefix: str | Callable[[Any], str] = "CKP", directory: str | None = None,
                 config: CheckpointConfig | None = None) -> None:
        super().__init__()
        if not callable(prefix) and (not isinstance(prefix, str) or "/" in prefix):
            raise ValueError(f"For 'ModelCheckpoint', 'prefix' must be a str without '/' or a callable, "
                             f"got {prefix!r}")
        if config is None:
            config = CheckpointConfig()
        elif not isinstance(config, CheckpointConfig):
            raise TypeError(f"For 'ModelCheckpoint', 'config' must be a CheckpointConfig, "
                            f"got {type(config).__name__}")
        self._config = config
        self._prefix_func = prefix if callable(prefix) else None
        self._directory_func = directory if callable(directory) else None
        self._directory = os.path.realpath(directory) if isinstance(directory, str) else os.getcwd()
        if directory is not None and not callable(directory) and not isinstance(directory, str):
            raise ValueError(f"For 'ModelCheckpoint', 'directory' must be a str, a callable or None, "
                             f"got {directory!r}")
        os.makedirs(self._directory, exist_ok=True)
        self._given_prefix = "CKP" if callable(prefix) else prefix
        self._prefix = "CKP" if callable(prefix) else self._unique_prefix(self._directory, prefix)
        self._last_triggered_step = 0
        self._last_time = time.time()
        self._last_time_for_keep = time.time()
        self._latest_ckpt_file_name = ""
        self._saved: list[str] = []

    @property
    def latest_ckpt_file_name(self) -> str:
        """The path of the last file written."""
        return self._latest_ckpt_file_name

    def _suffix(self) -> str:
        return f".{self._config.format}"

    def _unique_prefix(self, directory: str, prefix: str) -> str:
        pattern = re.compile(re.escape(prefix) + r"(_\d+)?-\d+_\d+" + re.escape(self._suffix()) + "$")
        if not any(pattern.match(f) for f in os.listdir(directory)):
            return prefix
        n = 1
        while any(f.startswith(f"{prefix}_{n}-") for f in os.listdir(directory)):
            n += 1
        return f"{prefix}_{n}"

    def _file_prefix(self) -> str:
        # What every file of this callback's name starts with.
        return self._prefix if self._prefix_func is not None else f"{self._prefix}-"

    def begin(self, run_context: RunContext) -> None:
        """Remove temporaries that killed saves of this prefix left in the folder.

        Earlier runs given the same prefix count too: a run killed while
        writing ``CKP-1_4.ckpt`` makes the restart write ``CKP_1-...``, and
        the killed run's temporary would otherwise stay for good.
        """
        if self._prefix_func is None and self._directory_func is None:
            for file_prefix in _prefix_family(self._directory, self._given_prefix):
                _remove_stale(self._directory, file_prefix)

    def step_end(self, run_context: RunContext) -> None:
        """Save when the step or time policy says so."""
        cb_params = run_context.original_args()
        if self._prefix_func is not None:
            self._prefix = self._prefix_func(cb_params)
            if not isinstance(self._prefix, str) or "/" in self._prefix:
                raise ValueError(f"For 'ModelCheckpoint', the callable 'prefix' must return a str without '/', "
                                 f"got {self._prefix!r}")
        if self._directory_func is not None:
            self._directory = self._directory_func(cb_params)
            os.makedirs(self._directory, exist_ok=True)
        self._save_ckpt(cb_params)

    def end(self, run_context: RunContext) -> None:
        """Save the final state."""
        self._save_ckpt(run_context.original_args(), force=True)
        if self._config.async_save:
            from mindjax.train.serialization.api import _wait_async_save

            _wait_async_save()
            self._prune()

    def _due(self, cb_params: Any, force: bool) -> bool:
        if self._config.save_checkpoint_steps:
            return force or cb_params.cur_step_num >= self._last_triggered_step + self._config.save_checkpoint_steps
        now = time.time()
        if force or now - self._last_time > self._config.save_checkpoint_seconds:
            self._last_time = now
            return True
        return False

    def _save_ckpt(self, cb_params: Any, force: bool = False) -> None:
        if cb_params.cur_step_num == self._last_triggered_step or not self._due(cb_params, force):
            return
        step_in_epoch = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
        if self._prefix_func is not None:
            name = f"{self._prefix}{self._suffix()}"
        else:
            name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}{self._suffix()}"
        path = os.path.join(self._directory, name)
        if path in self._saved:  # a callable prefix reuses its name: the write replaces the file atomically
            self._saved.remove(path)
        _remove_stale(self._directory, self._file_prefix())
        self._last_triggered_step = cb_params.cur_step_num
        append = dict(self._config.append_info)
        if "epoch_num" in append:
            append["epoch_num"] = cb_params.cur_epoch_num
        if "step_num" in append:
            append["step_num"] = cb_params.cur_step_num
        network = self._config.saved_network if self._config.saved_network is not None \
            else cb_params.train_network
        _save(network, path, self._config, append)
        self._latest_ckpt_file_name = path
        self._saved.append(path)
        # Only now that the new checkpoint is complete may older ones go.
        self._prune()
        cb_params["latest_ckpt_file"] = path
        cb_params["last_save_ckpt_step"] = cb_params.cur_step_num

    def _prune(self) -> None:
        """Remove checkpoints beyond the keep policy, counting only complete ones on disk.

        An asynchronous save still being written is not on disk yet: the
        files it will replace stay until a later prune sees it.
        """
        keep = self._config.keep_checkpoint_max
        existing = [p for p in self._saved if os.path.exists(p)]
        pending = not existing or existing[-1] != self._saved[-1]
        if keep and len(existing) > keep:
            for old in existing[:len(existing) - keep]:
                _remove(old)
                self._saved.remove(old)
        elif self._config.keep_checkpoint_per_n_minutes and len(existing) > 1 and not pending:
            now = time.time()
            if now - self._last_time_for_keep < self._config.keep_checkpoint_per_n_minutes * 60:
                _remove(existing[-2])  # the new one replaces the previous within the window
                self._saved.remove(existing[-2])
            else:
                self._last_time_for_keep = now
