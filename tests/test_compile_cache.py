"""The persistent compile cache: ``set_context(enable_compile_cache=..., compile_cache_path=...)``
and ``MS_COMPILER_CACHE_ENABLE`` / ``MS_COMPILER_CACHE_PATH``."""
import json
import os
import subprocess
import sys

import jax
import pytest

import mindjax as ms
from mindjax import context

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A child process: a GRAPH-mode Cell call, then the cache hits JAX's monitoring counted.
_CHILD = """
import json, sys
import jax, numpy as np
hits = []
jax.monitoring.register_event_listener(
    lambda event, **_: hits.append(event) if event == "/jax/compilation_cache/cache_hits" else None)
import mindjax as ms
from mindjax import nn
if sys.argv[1] != "env":
    ms.set_context(enable_compile_cache=True, compile_cache_path=sys.argv[1])
ms.set_context(mode=ms.GRAPH_MODE)
ms.set_seed(0)
net = nn.SequentialCell([nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 2)])
out = net(ms.Tensor(np.ones((3, 4), np.float32)))
print("RESULT " + json.dumps({"hits": len(hits), "out": np.asarray(out).tolist(),
                              "dir": ms.context.compile_cache_dir()}))
"""


def _run_child(arg: str, env_extra: dict) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MS_COMPILER_CACHE")}
    env.update(env_extra)
    env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    done = subprocess.run([sys.executable, "-c", _CHILD, arg], env=env, capture_output=True, text=True,
                          timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    line = [x for x in done.stdout.splitlines() if x.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


def _cache_files(root) -> list:
    return [name for _, _, names in os.walk(root) for name in names]


def test_second_process_loads_the_programs_the_first_compiled(tmp_path):
    first = _run_child(str(tmp_path), {})
    files = _cache_files(tmp_path)
    second = _run_child(str(tmp_path), {})
    assert first["hits"] == 0
    assert files, "the first process wrote no cache entry"
    assert second["hits"] >= 1
    assert second["out"] == first["out"]
    # MindSpore's layout: the cache lives below <compile_cache_path>/rank_<RANK_ID>/.
    assert first["dir"].startswith(os.path.join(str(tmp_path), "rank_0"))
    assert sorted(_cache_files(tmp_path)) == sorted(files)  # nothing new was compiled


def test_environment_variables_turn_the_cache_on(tmp_path):
    env = {"MS_COMPILER_CACHE_ENABLE": "1", "MS_COMPILER_CACHE_PATH": str(tmp_path)}
    first = _run_child("env", env)
    second = _run_child("env", env)
    assert first["dir"] == os.path.join(str(tmp_path), "rank_0", "jax_cache")
    assert _cache_files(tmp_path)
    assert second["hits"] >= 1


@pytest.fixture
def restore_cache_settings():
    saved = {k: context._CONTEXT.get(k) for k in ("enable_compile_cache", "compile_cache_path")}
    saved_dir = jax.config.jax_compilation_cache_dir
    yield
    for key, value in saved.items():
        if value is None:
            context._CONTEXT.pop(key, None)
        else:
            context._CONTEXT[key] = value
    context._apply_compile_cache()
    jax.config.update("jax_compilation_cache_dir", saved_dir)


def test_set_context_points_jax_cache_at_rank_dir_and_reads_back(tmp_path, restore_cache_settings):
    assert ms.get_context("enable_compile_cache") in (None, False)
    ms.set_context(enable_compile_cache=True, compile_cache_path=str(tmp_path))
    assert ms.get_context("enable_compile_cache") is True
    assert ms.get_context("compile_cache_path") == str(tmp_path)
    assert jax.config.jax_compilation_cache_dir == os.path.join(str(tmp_path), "rank_0", "jax_cache")
    assert jax.config.jax_persistent_cache_min_compile_time_secs == 0.0
    assert jax.config.jax_persistent_cache_min_entry_size_bytes == 0
    ms.set_context(enable_compile_cache=False)
    assert jax.config.jax_compilation_cache_dir is None
    assert context.compile_cache_dir() is None


def test_compile_cache_options_reject_wrong_types(restore_cache_settings):
    with pytest.raises(TypeError, match="'enable_compile_cache' must be <class 'bool'>, but got <class 'int'>"):
        ms.set_context(enable_compile_cache=1)
    with pytest.raises(TypeError, match="'compile_cache_path' must be a non-empty str"):
        ms.set_context(compile_cache_path=3)
