"""Global state in one place: execution mode, device target, parallel context.

Example:
    >>> import mindjax as ms
    >>> ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    >>> ms.get_context("mode") == ms.GRAPH_MODE
    True
"""
from __future__ import annotations

import enum
import warnings
from typing import Any

import jax

GRAPH_MODE = 0
PYNATIVE_MODE = 1

# Mutable single-element lists: read on every Cell call, so kept as cheap as possible.
_MODE = [PYNATIVE_MODE]          # MindSpore 2.x starts in PYNATIVE_MODE
_IN_COMPILED = [0]               # > 0 while a compiled call is being traced

_DEVICE_TARGETS = {"CPU": "cpu", "GPU": "gpu", "Ascend": None, "TPU": "tpu"}

# Keys MindSpore's set_context accepts that have no effect under XLA; they are
# stored and returned by get_context so scripts run unchanged.
_PASSIVE_KEYS = {
    "device_id", "save_graphs", "save_graphs_path", "max_call_depth", "jit_config",
    "enable_graph_kernel", "graph_kernel_flags", "max_device_memory", "variable_memory_max_size",
    "mempool_block_size", "print_file_path", "enable_reduce_precision", "check_bprop",
    "enable_compile_cache", "compile_cache_path", "inter_op_parallel_num", "runtime_num_threads",
    "memory_optimize_level", "deterministic", "pynative_synchronize", "jit_syntax_level",
    "ascend_config", "gpu_config", "debug_level", "disable_format_transform", "op_timeout",
    "enable_profiling", "profiling_options", "reserve_class_name_in_scope", "support_binary",
    "aoe_tune_mode", "aoe_config", "env_config_path", "precompile_only", "enable_dump",
    "save_dump_path",
}

_CONTEXT: dict[str, Any] = {"mode": PYNATIVE_MODE, "device_target": "CPU"}


def set_context(**kwargs: Any) -> None:
    """Set the execution context (MindSpore's ``ms.set_context``).

    Arguments:
        mode: ``GRAPH_MODE`` compiles every Cell call with ``jax.jit``;
            ``PYNATIVE_MODE`` runs eagerly.
        device_target: ``"CPU"``, ``"GPU"`` or ``"TPU"``: the device JAX puts
            new arrays and computations on. ``"Ascend"`` is accepted and falls
            back to JAX's default device with a warning.
        enable_x64: turn on JAX's 64-bit types (``float64``/``int64`` arrays).
        other MindSpore keys (``device_id``, ``save_graphs`` ...) are stored.

    Raises:
        ValueError: an unknown key, or a bad mode or device target.
    """
    for key, value in kwargs.items():
        if key == "mode":
            if value not in (GRAPH_MODE, PYNATIVE_MODE):
                raise ValueError(f"For 'set_context', 'mode' must be GRAPH_MODE (0) or "
                                 f"PYNATIVE_MODE (1), got {value!r}")
            _MODE[0] = value
            _CONTEXT["mode"] = value
        elif key == "device_target":
            _set_device_target(value)
        elif key == "enable_x64":
            jax.config.update("jax_enable_x64", bool(value))
            _CONTEXT[key] = bool(value)
        elif key in _PASSIVE_KEYS:
            _CONTEXT[key] = value
        else:
            raise ValueError(f"For 'set_context', the keyword argument '{key}' is not recognized; "
                             f"known keys: mode, device_target, enable_x64, "
                             f"{', '.join(sorted(_PASSIVE_KEYS))}")


def _set_device_target(value: Any) -> None:
    if value not in _DEVICE_TARGETS:
        raise ValueError(f"For 'set_context', 'device_target' must be one of "
                         f"{sorted(_DEVICE_TARGETS)}, got {value!r}")
    platform = _DEVICE_TARGETS[value]
    if platform is None:
        warnings.warn(f"device_target={value!r} has no XLA backend; using JAX's default device",
                      stacklevel=3)
    else:
        try:
            devices = jax.devices(platform)
        except RuntimeError:
            warnings.warn(f"device_target={value!r}: JAX sees no {platform} device; using "
                          f"{jax.default_backend()}", stacklevel=3)
        else:
            jax.config.update("jax_default_device", devices[0])
    _CONTEXT["device_target"] = value


def get_context(attr_key: str) -> Any:
    """Read one context value set by :func:`set_context` (``"mode"``, ``"device_target"`` ...)."""
    if attr_key in _CONTEXT:
        return _CONTEXT[attr_key]
    if attr_key in _PASSIVE_KEYS or attr_key == "enable_x64":
        return None
    raise ValueError(f"For 'get_context', the key '{attr_key}' is not recognized")


class ParallelMode(str, enum.Enum):
    """The parallel modes of ``set_auto_parallel_context`` (MindSpore's strings)."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"

    def __str__(self) -> str:
        return self.value


_PARALLEL_DEFAULTS: dict[str, Any] = {
    "parallel_mode": ParallelMode.STAND_ALONE.value,
    "device_num": 1,
    "global_rank": 0,
    "gradients_mean": False,
    "gradient_fp32_sync": True,
    "search_mode": "sharding_propagation",
    "pipeline_stages": 1,
    "pipeline_result_broadcast": False,
    "enable_parallel_optimizer": False,
    "parallel_optimizer_config": {},
    "dataset_strategy": "data_parallel",
    "full_batch": False,
    "strategy_ckpt_load_file": "",
    "strategy_ckpt_save_file": "",
    "auto_parallel_search_mode": None,
    "loss_repeated_mean": True,
    "parameter_broadcast": False,
    "all_reduce_fusion_config": [],
    "comm_fusion": {},
    "enable_alltoall": False,
    "strategy_ckpt_config": {},
    "grad_accumulation_step": 1,
    "pipeline_config": {},
    "memory_budget_bytes": None,
}
_PARALLEL: dict[str, Any] = dict(_PARALLEL_DEFAULTS)
# Keys the user set since the last reset: an unset device_num means "every device JAX sees".
_PARALLEL_SET: set[str] = set()
_SEARCH_MODES = ("sharding_propagation", "recursive_programming", "dynamic_programming")


def set_auto_parallel_context(**kwargs: Any) -> None:
    """Configure parallel training (MindSpore's ``ms.set_auto_parallel_context``).

    Arguments:
        parallel_mode: a :class:`ParallelMode` or its string.
        device_num: number of devices taking part (default: every device JAX sees).
        gradients_mean, search_mode, pipeline_stages, enable_parallel_optimizer,
        dataset_strategy, full_batch, ...: as in MindSpore.

    Raises:
        ValueError: an unknown key or value.
    """
    for key, value in kwargs.items():
        if key not in _PARALLEL_DEFAULTS:
            raise ValueError(f"For 'set_auto_parallel_context', the keyword argument '{key}' is not "
                             f"recognized; known keys: {', '.join(sorted(_PARALLEL_DEFAULTS))}")
        if key == "parallel_mode":
            try:
                value = ParallelMode(str(value).lower()).value
            except ValueError:
                raise ValueError(f"For 'set_auto_parallel_context', 'parallel_mode' must be one of "
                                 f"{[m.value for m in ParallelMode]}, got {value!r}") from None
        elif key == "search_mode" and value not in _SEARCH_MODES:
            raise ValueError(f"For 'set_auto_parallel_context', 'search_mode' must be one of "
                             f"{list(_SEARCH_MODES)}, got {value!r}")
        elif key in ("device_num", "pipeline_stages", "grad_accumulation_step") and (
                not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise ValueError(f"For 'set_auto_parallel_context', '{key}' must be a positive int, "
                             f"got {value!r}")
        _PARALLEL[key] = value
        _PARALLEL_SET.add(key)


def get_auto_parallel_context(attr_key: str) -> Any:
    """Read one value set by :func:`set_auto_parallel_context`."""
    if attr_key not in _PARALLEL:
        raise ValueError(f"For 'get_auto_parallel_context', the key '{attr_key}' is not recognized")
    return _PARALLEL[attr_key]


def reset_auto_parallel_context() -> None:
    """Restore every parallel setting to its default."""
    _PARALLEL.clear()
    _PARALLEL.update(_PARALLEL_DEFAULTS)
    _PARALLEL_SET.clear()
