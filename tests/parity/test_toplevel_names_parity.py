"""The new top-level names take MindSpore 2.10's parameters, with its defaults."""
import inspect

import mindspore
import pytest

import mindjax

_NAMES = ["mutable", "lazy_inline", "no_inline", "recompute", "set_recursion_limit", "swap_tensors", "from_dlpack",
          "to_dlpack", "ckpt_to_safetensors", "safetensors_to_ckpt", "get_py_obj_dtype", "set_deterministic",
          "get_current_device", "synchronize", "empty_cache", "memory_allocated", "max_memory_allocated",
          "memory_reserved", "max_memory_reserved", "memory_stats", "memory_summary", "reset_peak_memory_stats",
          "reset_max_memory_allocated", "reset_max_memory_reserved", "set_memory", "set_cpu_affinity",
          "launch_blocking", "set_dump", "data_sink", "DatasetHelper", "connect_network_with_dataset", "Symbol",
          "enable_dynamic", "Generator", "seed", "manual_seed", "initial_seed", "get_rng_state", "set_rng_state",
          "Stream", "Event", "current_stream", "default_stream", "load_mindir", "save_mindir", "SummaryLandscape",
          "TrainFaultTolerance", "dispatch_threads_num", "set_cur_stream", "communication_stream", "StreamCtx",
          "BleuScore", "Dice", "Perplexity", "ConfusionMatrixMetric", "CosineSimilarity", "HausdorffDistance",
          "MeanSurfaceDistance", "RootMeanSquareDistance", "FileWriter", "FileReader", "OnRequestExit"]


def _params(obj):
    return [(p.name, p.kind, p.default) for p in inspect.signature(obj).parameters.values()]


@pytest.mark.parametrize("name", _NAMES)
def test_parameters_and_defaults_match_mindspore(name):
    assert _params(getattr(mindjax, name)) == _params(getattr(mindspore, name))


def test_mindspores_generator_methods_exist_with_its_parameters():
    for method in ("manual_seed", "seed", "initial_seed", "get_state", "set_state", "_step"):
        assert _params(getattr(mindjax.Generator, method)) == _params(getattr(mindspore.Generator, method))
