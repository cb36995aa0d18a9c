"""MindSpore 2.10's top-level names that MindJAX gives, each at MindSpore's module path too."""
import importlib

import pytest

import mindjax as ms

# top-level name -> the module MindSpore defines it in (mindspore.X -> mindjax.X)
_LAYOUT = {
    "mutable": "graph.mutable", "lazy_inline": "graph.lazy_inline", "no_inline": "graph.no_inline",
    "set_recursion_limit": "graph.api", "Symbol": "graph.symbol", "enable_dynamic": "graph.dynamic_shape",
    "Generator": "common.generator", "default_generator": "common.generator", "seed": "common.generator",
    "manual_seed": "common.generator", "initial_seed": "common.generator", "get_rng_state": "common.generator",
    "set_rng_state": "common.generator", "recompute": "common.recompute", "set_dump": "common.dump",
    "swap_tensors": "common.tensor", "get_py_obj_dtype": "common.dtype",
    "from_dlpack": "utils.dlpack", "to_dlpack": "utils.dlpack", "ExitByRequest": "utils",
    "get_current_device": "device_manager", "set_deterministic": "device_manager",
    "memory_stats": "runtime.memory", "memory_allocated": "runtime.memory", "max_memory_allocated": "runtime.memory",
    "memory_reserved": "runtime.memory", "max_memory_reserved": "runtime.memory",
    "memory_summary": "runtime.memory", "empty_cache": "runtime.memory", "set_memory": "runtime.memory",
    "reset_peak_memory_stats": "runtime.memory", "reset_max_memory_allocated": "runtime.memory",
    "reset_max_memory_reserved": "runtime.memory", "Stream": "runtime.stream", "current_stream": "runtime.stream",
    "default_stream": "runtime.stream", "synchronize": "runtime.stream", "Event": "runtime.event",
    "launch_blocking": "runtime.executor", "set_cpu_affinity": "runtime.executor",
    "ckpt_to_safetensors": "train.serialization", "safetensors_to_ckpt": "train.serialization",
    "data_sink": "train.data_sink", "DatasetHelper": "train.dataset_helper",
    "connect_network_with_dataset": "train.dataset_helper", "BleuScore": "train.metrics", "Dice": "train.metrics",
    "Perplexity": "train.metrics", "FileWriter": "mindrecord", "FileReader": "mindrecord",
    "OnRequestExit": "train.callback", "SummaryLandscape": "train.callback", "TrainFaultTolerance": "train.callback",
}


@pytest.mark.parametrize("name", sorted(_LAYOUT))
def test_name_is_at_top_level_and_at_mindspores_module_path(name):
    module = importlib.import_module(f"mindjax.{_LAYOUT[name]}")
    assert getattr(module, name) is getattr(ms, name)


@pytest.mark.parametrize("name, alias", [("int", "int32"), ("float", "float32"), ("bool", "bool_")])
def test_dtype_aliases_are_mindspores(name, alias):
    assert getattr(ms, name) is getattr(ms, alias)
    assert getattr(importlib.import_module("mindjax.common.dtype"), name) is getattr(ms, alias)


def test_builtins_stay_builtins_inside_mindjax():
    assert ms.dtype.pytype_to_dtype(int) == ms.int64  # dtype.py's own code still sees Python's int
    assert isinstance(ms.mutable(1), int)


@pytest.mark.parametrize("name", ["runtime", "device_manager", "graph", "tools", "utils", "mindrecord", "version"])
def test_modules_are_mindspores(name):
    assert getattr(ms, name) is importlib.import_module(f"mindjax.{name}")


@pytest.mark.parametrize("name, args", [("SummaryLandscape", ("./s",)), ("TrainFaultTolerance", ()),
                                        ("MemPool", (None,)), ("StreamLimitCtx", (None,)),
                                        ("PluggableAllocator", ("a.so", "a", "f"))])
def test_unavailable_classes_raise_naming_why(name, args):
    with pytest.raises(NotImplementedError, match=f"'{name}'"):
        getattr(ms, name)(*args)
