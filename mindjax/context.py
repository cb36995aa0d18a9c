"""Global state in one place: execution mode, device target, parallel context.

Example:
    >>> import mindjax as ms
    >>> ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    >>> ms.get_context("mode") == ms.GRAPH_MODE
    True
"""
from __future__ import annotations

import enum
import os
import threading
import warnings
from typing import Any

import jax
from jax.experimental.compilation_cache import compilation_cache as _jax_compilation_cache

GRAPH_MODE = 0
PYNATIVE_MODE = 1

# MindSpore's graph-syntax levels (``set_context(jit_syntax_level=...)``, ``JitConfig``).
STRICT = 0
COMPATIBLE = 1
LAX = 2
_SYNTAX_LEVELS = (STRICT, COMPATIBLE, LAX)

# Mutable single-element lists: read on every Cell call, so kept as cheap as possible.
_MODE = [PYNATIVE_MODE]          # MindSpore 2.x starts in PYNATIVE_MODE


class _CompileDepth(threading.local):
    """How many compiled calls this thread is tracing now (each thread traces on its own)."""

    depth = 0


_COMPILING = _CompileDepth()


def in_compiled() -> bool:
    """True while this thread traces a compiled call (GRAPH mode, ``ms.jit``, ``Model``'s step)."""
    return _COMPILING.depth > 0


class compiling:
    """Marks the body as the trace of a compiled call: ``with compiling(): ...``.

    Inside it, :func:`in_compiled` is True on this thread, so Cells and ``ms.jit``
    functions called from the trace run inline instead of compiling again.
    """

    __slots__ = ()

    def __enter__(self) -> None:
        _COMPILING.depth += 1

    def __exit__(self, *exc: Any) -> None:
        _COMPILING.depth -= 1

_DEVICE_TARGETS = {"CPU": "cpu", "GPU": "gpu", "Ascend": None, "TPU": "tpu"}

# Keys MindSpore's set_context accepts that have no effect under XLA; they are
# stored and returned by get_context so scripts run unchanged.
_PASSIVE_KEYS = {
    "device_id", "save_graphs", "save_graphs_path", "max_call_depth", "jit_config",
    "enable_graph_kernel", "graph_kernel_flags", "max_device_memory", "variable_memory_max_size",
    "mempool_block_size", "print_file_path", "enable_reduce_precision", "check_bprop",
    "inter_op_parallel_num", "runtime_num_threads",
    "memory_optimize_level", "deterministic", "pynative_synchronize", "jit_level",
    "ascend_config", "gpu_config", "debug_level", "disable_format_transform", "op_timeout",
    "enable_profiling", "profiling_options", "reserve_class_name_in_scope", "support_binary",
    "aoe_tune_mode", "aoe_config", "env_config_path", "precompile_only", "enable_dump",
    "save_dump_path",
}

_CONTEXT: dict[str, Any] = {"mode": PYNATIVE_MODE, "device_target": "CPU", "enable_x64": True}

# MindSpore's dtype rules need int64 and float64 (``Tensor([1, 2])`` is Int64, float64 numpy data
# stays Float64), so MindJAX turns on JAX's 64-bit types. MindJAX's own defaults stay 32-bit
# (``ops.ones`` is Float32, Python floats are Float32), and Parameters keep their dtype across
# updates, so compiled steps of float32 models stay float32. ``set_context(enable_x64=False)``
# switches 64-bit types off again.
jax.config.update("jax_enable_x64", True)

# XLA options MindJAX compiles with by default, through XLA_FLAGS (the one setting that reaches every
# program: Cells', Model's steps, eager ops and the backward programs JAX derives from them). A flag
# the user's XLA_FLAGS already names keeps the user's value. Each flag acts on one backend only:
# - xla_cpu_use_fusion_emitters=false: XLA:CPU's classic emitters instead of its MLIR fusion
#   emitters, which run a pass pipeline per fusion: in one process, a PYNATIVE LeNet-5 step compiled
#   in 0.47x the CPU time and a small DenseNet step in 0.70x, with the same step times (README,
#   "Compile time").
_DEFAULT_XLA_FLAGS = ("--xla_cpu_use_fusion_emitters=false",)


def _with_default_xla_flags(flags: str) -> str:
    """``flags`` (an XLA_FLAGS value) with MindJAX's defaults added for the flags it does not name."""
    named = {f.split("=", 1)[0] for f in flags.split()}
    extra = [f for f in _DEFAULT_XLA_FLAGS if f.split("=", 1)[0] not in named]
    return " ".join([flags.strip()] + extra if flags.strip() else extra)


os.environ["XLA_FLAGS"] = _with_default_xla_flags(os.environ.get("XLA_FLAGS", ""))


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
        elif key == "jit_syntax_level":
            if isinstance(value, bool) or value not in _SYNTAX_LEVELS:
                raise ValueError(f"For 'set_context', 'jit_syntax_level' must be STRICT (0), COMPATIBLE (1) "
                                 f"or LAX (2), got {value!r}")
            _CONTEXT[key] = value
        elif key == "enable_x64":
            jax.config.update("jax_enable_x64", bool(value))
            _CONTEXT[key] = bool(value)
        elif key == "enable_compile_cache":
            if not isinstance(value, bool):
                raise TypeError(f"For 'set_context', the parameter 'enable_compile_cache' must be "
                            f"<class 'bool'>, but got {type(value)}")
            _CONTEXT[key] = value
            _apply_compile_cache()
        elif key == "compile_cache_path":
            if not isinstance(value, (str, os.PathLike)) or not os.fspath(value):
                raise TypeError(f"For 'set_context', the parameter 'compile_cache_path' must be a "
                            f"non-empty str, but got {type(value)} {value!r}")
            _CONTEXT[key] = os.fspath(value)
            _apply_compile_cache()
        elif key in _PASSIVE_KEYS:
            _CONTEXT[key] = value
        else:
            raise ValueError(f"For 'set_context', the keyword argument '{key}' is not recognized; "
                             f"known keys: mode, device_target, enable_x64, jit_syntax_level, "
                             f"enable_compile_cache, compile_cache_path, "
                             f"{', '.join(sorted(_PASSIVE_KEYS))}")


def compile_cache_dir() -> str | None:
    """The directory of the persistent compile cache in use, or None when it is off.

    The cache is on when ``set_context(enable_compile_cache=True)`` was called, or, while
    ``enable_compile_cache`` was never set, when the environment variable
    ``MS_COMPILER_CACHE_ENABLE`` is ``"1"``. The path is ``compile_cache_path`` when set,
    else ``MS_COMPILER_CACHE_PATH``, else ``"."`` (MindSpore's default); as in MindSpore
    each rank writes below ``<path>/rank_<RANK_ID>/``.

    Returns:
        the absolute cache directory, or None.
    """
    enabled = _CONTEXT.get("enable_compile_cache")
    if enabled is None:
        enabled = os.environ.get("MS_COMPILER_CACHE_ENABLE", "0").strip() == "1"
    if not enabled:
        return None
    root = _CONTEXT.get("compile_cache_path") or os.environ.get("MS_COMPILER_CACHE_PATH") or "."
    rank = os.environ.get("RANK_ID", "0").strip() or "0"
    return os.path.abspath(os.path.join(root, f"rank_{rank}", "jax_cache"))


_CACHE_DIR_IN_USE: list[str | None] = [None]


def _apply_compile_cache() -> None:
    # JAX's persistent compilation cache stores every XLA executable under the directory;
    # a second process compiling the same program loads it instead of compiling. Small and
    # fast-compiling programs are stored too: a first train step is many small programs.
    directory = compile_cache_dir()
    if directory == _CACHE_DIR_IN_USE[0]:
        return
    if directory is not None:
        os.makedirs(directory, exist_ok=True)
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    jax.config.update("jax_compilation_cache_dir", directory)
    # JAX decides once, at its first compile, whether a cache is in use: start it afresh.
    _jax_compilation_cache.reset_cache()
    _CACHE_DIR_IN_USE[0] = directory


def set_device(device_target: str, device_id: int | None = None) -> None:
    """Choose the device new arrays and programs go to (MindSpore 2.10's ``ms.set_device``).

    Arguments:
        device_target: ``"CPU"``, ``"GPU"`` or ``"TPU"``; ``"Ascend"`` falls back to JAX's
            default device with a warning, as in :func:`set_context`.
        device_id: recorded (``get_context("device_id")``); the process uses the devices
            JAX gives it.

    Raises:
        ValueError: an unknown ``device_target``.
        TypeError: ``device_id`` is not a non-negative int.
    """
    if device_id is not None and (isinstance(device_id, bool) or not isinstance(device_id, int) or device_id < 0):
        raise TypeError(f"For 'set_device', 'device_id' must be a non-negative int, got {device_id!r}")
    _set_device_target(device_target)
    if device_id is not None:
        _CONTEXT["device_id"] = device_id


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
    if attr_key == "compile_cache_path":
        return ""  # MindSpore's read-back before it is set
    if attr_key in _PASSIVE_KEYS or attr_key in ("enable_x64", "enable_compile_cache"):
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
    "search_mode": "recursive_programming",  # MindSpore 2.10's default
    "pipeline_stages": 1,
    "pipeline_result_broadcast": False,
    "enable_parallel_optimizer": False,
    "parallel_optimizer_config": {},
    "dataset_strategy": "data_parallel",
    "full_batch": False,
    "strategy_ckpt_load_file": "",
    "strategy_ckpt_save_file": "",
    "loss_repeated_mean": True,
    "parameter_broadcast": False,
    "all_reduce_fusion_config": [],
    "comm_fusion": {},
    "enable_alltoall": False,
    "strategy_ckpt_config": {},
    "grad_accumulation_step": 1,
    "pipeline_config": {},
    "pipeline_interleave": False,
    "pipeline_scheduler": "1f1b",
    "optimizer_weight_shard_size": -1,
    "optimizer_weight_shard_aggregated_save": False,
    "auto_pipeline": False,
    "force_fp32_communication": False,
    "dump_local_norm": False,
    "dump_local_norm_path": "",
    "dump_device_local_norm": False,
    "communi_parallel_mode": "all_group_parallel",
    "group_ckpt_save_file": "",
    "pipeline_segments": 1,
    "memory_budget_bytes": None,  # MindJAX: per-device memory budget of the AUTO_PARALLEL search
}
_PARALLEL: dict[str, Any] = {}
# Keys the user set since the last reset: an unset device_num means "every device JAX sees".
_PARALLEL_SET: set[str] = set()
_SEARCH_MODES = ("recursive_programming", "dynamic_programming", "sharding_propagation")
# Keys MindSpore only reads back through other keys (setting them is accepted).
_SET_ONLY = {"pipeline_config", "parallel_optimizer_config", "group_ckpt_save_file", "pipeline_segments"}
# Keys MindSpore reads back that are derived from others.
_DERIVED = {"auto_parallel_search_mode", "sharding_propagation", "full_batch_is_set"}
# Read back only: set through pipeline_config, as in MindSpore.
_GET_ONLY = {"pipeline_interleave", "pipeline_scheduler"}
_TYPES: dict[str, type | tuple[type, ...]] = {
    "device_num": int, "global_rank": int, "gradients_mean": bool, "gradient_fp32_sync": bool,
    "loss_repeated_mean": bool, "parallel_mode": str, "search_mode": str, "auto_parallel_search_mode": str,
    "parameter_broadcast": bool, "strategy_ckpt_load_file": str, "strategy_ckpt_save_file": str,
    "full_batch": bool, "enable_parallel_optimizer": bool, "grad_accumulation_step": int,
    "all_reduce_fusion_config": list, "group_ckpt_save_file": str, "communi_parallel_mode": str,
    "optimizer_weight_shard_size": int, "sharding_propagation": bool,
    "optimizer_weight_shard_aggregated_save": bool, "enable_alltoall": bool, "comm_fusion": dict,
    "strategy_ckpt_config": dict, "force_fp32_communication": bool, "pipeline_config": dict,
    "parallel_optimizer_config": dict, "pipeline_stages": int, "pipeline_result_broadcast": bool,
    "auto_pipeline": bool, "dump_local_norm": bool, "dump_local_norm_path": str,
    "dump_device_local_norm": bool,
}
_OPTIMIZER_KEYS = ("gradient_accumulation_shard", "parallel_optimizer_threshold", "optimizer_weight_shard_size",
                   "optimizer_level")
_SCHEDULERS = ("1f1b", "gpipe")
_COMM_FUSION_OPS = ("allreduce", "allgather", "reducescatter")


def _fresh_defaults() -> dict[str, Any]:
    values = dict(_PARALLEL_DEFAULTS)
    # MindSpore returns these dicts filled in; fresh copies so user edits never leak into the defaults.
    values["strategy_ckpt_config"] = {"load_file": "", "save_file": "", "only_trainable_params": True}
    values["comm_fusion"] = {"openstate": True, **{op: {"mode": "auto", "config": None} for op in _COMM_FUSION_OPS}}
    values["parallel_optimizer_config"] = {}
    values["pipeline_config"] = {}
    values["all_reduce_fusion_config"] = []
    return values


_PARALLEL.update(_fresh_defaults())


def _fail(key: str, expected: str, value: Any, error: type = ValueError) -> None:
    raise error(f"For 'set_auto_parallel_context', '{key}' must be {expected}, got {value!r}")


def _check_type(key: str, value: Any) -> None:
    expected = _TYPES.get(key)
    if expected is None:
        return
    ok = isinstance(value, expected) and not (expected is int and isinstance(value, bool))
    if not ok:
        raise TypeError(f"For 'set_auto_parallel_context', the parameter '{key}' must be "
                        f"{getattr(expected, '__name__', expected)}, but got {type(value).__name__} ({value!r})")


def _set_dataset_strategy(value: Any) -> None:
    from mindjax.parallel.layout import Layout  # the parallel layer sits above the context

    if isinstance(value, str):
        if value not in ("full_batch", "data_parallel"):
            _fail("dataset_strategy", "'full_batch', 'data_parallel' or a tuple of strategies", value)
        _PARALLEL["full_batch"] = value == "full_batch"
        _PARALLEL["dataset_strategy"] = value
        return
    if not isinstance(value, tuple):
        _fail("dataset_strategy", "a str or a tuple", type(value).__name__, TypeError)
    if value and all(isinstance(v, Layout) for v in value):
        _PARALLEL["dataset_strategy"] = value
        return
    for item in value:
        if not isinstance(item, tuple) or not all(isinstance(d, int) and not isinstance(d, bool) and d > 0
                                                  for d in item):
            _fail("dataset_strategy", "a tuple of tuples of positive ints (one per input) or of Layouts",
                  value, TypeError)
    # MindSpore hands a tuple strategy back as lists.
    _PARALLEL["dataset_strategy"] = [list(item) for item in value]


def _set_parallel_optimizer_config(value: dict[str, Any]) -> None:
    unknown = [k for k in value if k not in _OPTIMIZER_KEYS]
    if unknown:
        raise ValueError(f"For 'set_auto_parallel_context', 'parallel_optimizer_config' has unknown keys "
                         f"{unknown}; known: {list(_OPTIMIZER_KEYS)}")
    level = value.get("optimizer_level")
    if level == "level3":
        raise NotImplementedError("For 'set_auto_parallel_context', parallel_optimizer_config['optimizer_level'] "
                                  "'level3' (weights sharded too) is not supported; use 'level2', or shard the "
                                  "weights with Cell.shard(parameter_plan=...) or AUTO_PARALLEL")
    if level is not None and level not in ("level1", "level2"):
        raise ValueError(f"For 'set_auto_parallel_context', parallel_optimizer_config['optimizer_level'] must be "
                         f"one of ['level1', 'level2'], got {level!r}")
    if "gradient_accumulation_shard" in value and not isinstance(value["gradient_accumulation_shard"], bool):
        _fail("parallel_optimizer_config['gradient_accumulation_shard']", "a bool",
              value["gradient_accumulation_shard"], TypeError)
    threshold = value.get("parallel_optimizer_threshold", 0)
    if not isinstance(threshold, int) or isinstance(threshold, bool) or threshold < 0:
        _fail("parallel_optimizer_config['parallel_optimizer_threshold']", "a non-negative int", threshold)
    size = value.get("optimizer_weight_shard_size", -1)
    if not isinstance(size, int) or isinstance(size, bool) or (size != -1 and size < 1):
        _fail("parallel_optimizer_config['optimizer_weight_shard_size']", "-1 or a positive int", size)
    if "optimizer_weight_shard_size" in value:
        _PARALLEL["optimizer_weight_shard_size"] = size
    merged = dict(_PARALLEL["parallel_optimizer_config"])
    merged.update(value)
    _PARALLEL["parallel_optimizer_config"] = merged


def _set_pipeline_config(value: dict[str, Any]) -> None:
    unknown = [k for k in value if k not in ("pipeline_interleave", "pipeline_scheduler")]
    if unknown:
        raise ValueError(f"For 'set_auto_parallel_context', 'pipeline_config' has unknown keys {unknown}; "
                         f"known: ['pipeline_interleave', 'pipeline_scheduler']")
    interleave = value.get("pipeline_interleave", _PARALLEL["pipeline_interleave"])
    if not isinstance(interleave, bool):
        _fail("pipeline_config['pipeline_interleave']", "a bool", interleave, TypeError)
    scheduler = value.get("pipeline_scheduler", _PARALLEL["pipeline_scheduler"])
    if scheduler not in _SCHEDULERS:
        _fail("pipeline_config['pipeline_scheduler']", f"one of {list(_SCHEDULERS)}", scheduler)
    _PARALLEL["pipeline_interleave"] = interleave
    _PARALLEL["pipeline_scheduler"] = scheduler
    _PARALLEL["pipeline_config"] = {"pipeline_interleave": interleave, "pipeline_scheduler": scheduler}


def _set_comm_fusion(value: dict[str, Any]) -> None:
    merged = {k: (dict(v) if isinstance(v, dict) else v) for k, v in _PARALLEL["comm_fusion"].items()}
    for op, config in value.items():
        if op == "openstate":
            if not isinstance(config, bool):
                _fail("comm_fusion['openstate']", "a bool", config, TypeError)
            merged[op] = config
            continue
        if op not in _COMM_FUSION_OPS:
            raise KeyError(f"For 'set_auto_parallel_context', 'comm_fusion' keys must be 'openstate' or one of "
                           f"{list(_COMM_FUSION_OPS)}, got {op!r}")
        if not isinstance(config, dict) or config.get("mode", "auto") not in ("auto", "size", "index"):
            _fail(f"comm_fusion['{op}']", "a dict with 'mode' in 'auto', 'size', 'index' and a 'config'", config)
        merged[op] = {"mode": config.get("mode", "auto"), "config": config.get("config")}
    _PARALLEL["comm_fusion"] = merged


def _set_strategy_ckpt_config(value: dict[str, Any]) -> None:
    unknown = [k for k in value if k not in ("load_file", "save_file", "only_trainable_params")]
    if unknown:
        raise KeyError(f"For 'set_auto_parallel_context', 'strategy_ckpt_config' has unknown keys {unknown}; "
                       f"known: ['load_file', 'save_file', 'only_trainable_params']")
    merged = dict(_PARALLEL["strategy_ckpt_config"])
    merged.update(value)
    _PARALLEL["strategy_ckpt_config"] = merged
    _PARALLEL["strategy_ckpt_load_file"] = merged["load_file"]
    _PARALLEL["strategy_ckpt_save_file"] = merged["save_file"]


def _set_one(key: str, value: Any) -> None:
    if key == "parallel_mode":
        try:
            value = ParallelMode(str(value).lower()).value
        except ValueError:
            raise ValueError(f"For 'set_auto_parallel_context', 'parallel_mode' must be one of "
                             f"{[m.value for m in ParallelMode]}, got {value!r}") from None
    elif key in ("search_mode", "auto_parallel_search_mode"):
        if value not in _SEARCH_MODES:
            raise ValueError(f"For 'set_auto_parallel_context', 'search_mode' must be one of "
                             f"{list(_SEARCH_MODES)}, got {value!r}")
        key = "search_mode"
    elif key == "sharding_propagation":
        # MindSpore's older switch: True selects the sharding-propagation search.
        if value:
            _PARALLEL["search_mode"] = "sharding_propagation"
        return
    elif key in ("device_num", "pipeline_stages"):
        if value < 1:
            raise ValueError(f"For 'set_auto_parallel_context', '{key}' must be a positive int, got {value!r}")
        if key == "device_num" and value > 4096:
            _fail("device_num", "in [1, 4096]", value)
    elif key == "global_rank" and not 0 <= value <= 4095:
        _fail("global_rank", "in [0, 4095]", value)
    elif key == "grad_accumulation_step":
        if value < 1:
            raise ValueError(f"For 'set_auto_parallel_context', 'grad_accumulation_step' must be a positive int, "
                             f"got {value!r}")
        if value > 1:
            raise ValueError("For 'set_auto_parallel_context', 'grad_accumulation_step' is deprecated in "
                             "MindSpore 2.x: wrap the network in nn.GradAccumulationCell(network, micro_size) "
                             "instead")
    elif key == "optimizer_weight_shard_size" and value != -1 and value < 1:
        _fail("optimizer_weight_shard_size", "-1 or a positive int", value)
    elif key == "full_batch":
        if isinstance(_PARALLEL["dataset_strategy"], str):  # a per-input strategy wins over full_batch
            _PARALLEL["dataset_strategy"] = "full_batch" if value else "data_parallel"
        _PARALLEL_SET.add("full_batch_is_set")
    elif key == "dataset_strategy":
        _set_dataset_strategy(value)
        return
    elif key == "parallel_optimizer_config":
        _set_parallel_optimizer_config(value)
        return
    elif key == "pipeline_config":
        _set_pipeline_config(value)
        return
    elif key == "comm_fusion":
        _set_comm_fusion(value)
        return
    elif key == "strategy_ckpt_config":
        _set_strategy_ckpt_config(value)
        return
    elif key in ("strategy_ckpt_load_file", "strategy_ckpt_save_file"):
        _PARALLEL["strategy_ckpt_config"] = dict(_PARALLEL["strategy_ckpt_config"],
                                                 **{key[len("strategy_ckpt_"):]: value})
    elif key == "all_reduce_fusion_config":
        value = list(value)
    _PARALLEL[key] = value


def set_auto_parallel_context(**kwargs: Any) -> None:
    """Configure parallel training (MindSpore's ``ms.set_auto_parallel_context``).

    Arguments:
        parallel_mode: a :class:`ParallelMode` or its string.
        device_num: number of devices taking part (default: every device JAX sees).
        gradients_mean, search_mode, pipeline_stages, enable_parallel_optimizer,
        parallel_optimizer_config, pipeline_config, dataset_strategy,
        full_batch, strategy_ckpt_config, comm_fusion, ...: as in MindSpore
        2.10, with its types, checks and read-back forms (a tuple
        ``dataset_strategy`` reads back as lists; ``full_batch`` and the
        string ``dataset_strategy`` set each other).
        memory_budget_bytes: MindJAX's per-device memory budget for the
            AUTO_PARALLEL search.

    Raises:
        ValueError: an unknown key or a bad value; TypeError: a value of the wrong type.
    """
    for key, value in kwargs.items():
        settable = (set(_PARALLEL_DEFAULTS) | _DERIVED) - _GET_ONLY - {"full_batch_is_set"}
        if key not in settable:
            raise ValueError(f"For 'set_auto_parallel_context', the keyword argument '{key}' is not "
                             f"recognized; known keys: {', '.join(sorted(settable))}")
        _check_type(key, value)
        _set_one(key, value)
        _PARALLEL_SET.add(key)


def get_auto_parallel_context(attr_key: str) -> Any:
    """Read one value set by :func:`set_auto_parallel_context` (MindSpore's defaults otherwise).

    Arguments:
        attr_key: a key of :func:`set_auto_parallel_context`, or one MindSpore
            derives: ``auto_parallel_search_mode``, ``sharding_propagation``,
            ``full_batch_is_set``, ``pipeline_interleave``, ``pipeline_scheduler``.

    Returns:
        the value, in MindSpore's type (dicts and lists as copies).

    Raises:
        ValueError: an unknown key.
    """
    if attr_key == "auto_parallel_search_mode":
        return _PARALLEL["search_mode"]
    if attr_key == "sharding_propagation":
        return False  # MindSpore keeps this deprecated switch off even when search_mode selects propagation
    if attr_key == "full_batch_is_set":
        return "full_batch_is_set" in _PARALLEL_SET
    if attr_key not in _PARALLEL:
        raise ValueError(f"For 'get_auto_parallel_context', the key '{attr_key}' is not recognized")
    value = _PARALLEL[attr_key]
    if isinstance(value, dict):
        return {k: (dict(v) if isinstance(v, dict) else v) for k, v in value.items()}
    if isinstance(value, list):
        return [list(v) if isinstance(v, list) else v for v in value]
    return value


def auto_parallel_key_is_set(attr_key: str) -> bool:
    """Whether :func:`set_auto_parallel_context` set ``attr_key`` since the last reset."""
    return attr_key in _PARALLEL_SET


def reset_auto_parallel_context() -> None:
    """Restore every parallel setting to its default."""
    _PARALLEL.clear()
    _PARALLEL.update(_fresh_defaults())
    _PARALLEL_SET.clear()


# ``MS_COMPILER_CACHE_ENABLE=1`` turns the persistent compile cache on from import on.
_apply_compile_cache()
