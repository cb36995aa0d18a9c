"""mindjax.runtime (memory, stream, event, executor) and mindjax.device_manager, MindSpore's layout."""
import inspect

import numpy as np
import pytest

import mindjax as ms
from mindjax import device_manager, hal, runtime
from mindjax.runtime import executor, memory, stream


def test_memory_counters_are_hals_for_the_current_device():
    x = ms.Tensor(np.ones((4, 4), np.float32)) + 1
    assert memory.memory_stats() == hal.memory_stats("CPU")
    assert ms.memory_allocated() == hal.memory_allocated("CPU")
    assert ms.max_memory_allocated() >= ms.memory_allocated() >= 0
    assert ms.memory_reserved() == hal.memory_reserved("CPU")
    assert ms.max_memory_reserved() >= 0
    assert "total_allocated_memory" in ms.memory_summary()
    ms.reset_peak_memory_stats()
    ms.reset_max_memory_allocated()
    ms.reset_max_memory_reserved()
    ms.empty_cache()
    assert float(x.sum()) == 32.0


def test_runtime_signatures_match_mindspore_210():
    assert str(inspect.signature(ms.set_memory)) == (
        "(init_size: 'str' = '2GB', increase_size: 'str' = '2GB', max_size: 'str' = '1024GB', "
        "optimize_level: 'str' = 'O0', huge_page_reserve_size: 'str' = '0GB') -> 'None'")
    assert list(inspect.signature(ms.Stream).parameters) == ["priority", "kwargs"]
    assert list(inspect.signature(ms.Event).parameters) == ["enable_timing", "blocking"]
    assert list(inspect.signature(ms.set_cpu_affinity).parameters) == [
        "enable_affinity", "affinity_cpu_list", "module_to_cpu_dict", "bind_file"]


def test_set_memory_checks_its_size_strings():
    ms.set_memory(init_size="1GB", max_size="8GB")
    with pytest.raises(ValueError, match="For 'set_memory', 'max_size' must be a number followed by 'GB'.*'8G'"):
        ms.set_memory(max_size="8G")
    with pytest.raises(TypeError, match="'init_size' must be a str such as '2GB', but got int"):
        ms.set_memory(init_size=2)
    with pytest.raises(ValueError, match="'optimize_level' must be 'O0' or 'O1', but got 'O2'"):
        ms.set_memory(optimize_level="O2")


def test_streams_are_the_devices_one_stream_and_synchronize_waits():
    x = ms.Tensor(np.arange(6, dtype=np.float32)) * 2
    ms.synchronize()
    assert x._raw.is_ready()
    s = ms.Stream()
    assert s == ms.current_stream() == ms.default_stream() == stream.communication_stream()
    assert s.query() is True and s.stream_id == 0
    s.synchronize()
    s.wait_stream(ms.default_stream())
    stream.set_cur_stream(s)
    with stream.StreamCtx(s):
        y = x + 1
    assert float(y.sum()) == 36.0
    with pytest.raises(TypeError, match="For 'set_cur_stream', the argument 'stream' must be a Stream, but got int"):
        stream.set_cur_stream(1)
    with pytest.raises(TypeError, match="For 'Stream', 'priority' must be an int, but got str"):
        ms.Stream("high")


def test_events_time_the_work_between_two_records():
    start, end = ms.Event(enable_timing=True), ms.Event(enable_timing=True)
    assert not start.query()
    start.record()
    (ms.Tensor(np.ones((8, 8), np.float32)) @ ms.Tensor(np.ones((8, 8), np.float32))).asnumpy()
    ms.current_stream().record_event(end)
    assert start.query() and end.query() and start.elapsed_time(end) >= 0.0
    with pytest.raises(RuntimeError, match="both events must be created with enable_timing=True"):
        ms.Event().elapsed_time(end)
    with pytest.raises(TypeError, match="'enable_timing' must be a bool, but got int"):
        ms.Event(enable_timing=1)


def test_executor_settings_are_checked_and_not_repeatable():
    executor._CONFIGURED.clear()
    try:
        executor.dispatch_threads_num(4)
        with pytest.raises(RuntimeError, match="The 'dispatch_threads_num' can not be set repeatedly."):
            executor.dispatch_threads_num(4)
        with pytest.raises(TypeError, match="'enable_affinity' must be bool, but got int"):
            ms.set_cpu_affinity(1)
        ms.set_cpu_affinity(True, {"device0": ["0-1"]})
        with pytest.raises(RuntimeError, match="cannot be set repeatedly"):
            ms.set_cpu_affinity(False)
    finally:
        executor._CONFIGURED.clear()
    executor._CONFIGURED.clear()
    with pytest.raises(ValueError, match="'threads_num' must be int and must > 0, but got '0'"):
        executor.dispatch_threads_num(0)


@pytest.mark.parametrize("call, name", [
    (lambda: runtime.set_kernel_launch_group(), "set_kernel_launch_group"),
    (lambda: runtime.set_kernel_launch_capture(True), "set_kernel_launch_capture"),
    (lambda: runtime.set_stream_limit(ms.Stream(), 1, 1), "set_stream_limit"),
    (lambda: runtime.get_device_limit(0), "get_device_limit"),
    (lambda: runtime.PluggableAllocator("a.so", "a", "f"), "PluggableAllocator"),
    (lambda: runtime.use_mem_pool(None), "use_mem_pool"),
    (lambda: runtime.memory_replay("x"), "memory_replay"),
])
def test_ascend_only_runtime_names_raise_naming_what_xla_does(call, name):
    with pytest.raises(NotImplementedError, match=f"'{name}'"):
        call()


def test_device_manager_reports_the_device_and_checks_set_deterministic(monkeypatch):
    info = ms.get_current_device()
    assert info == ("CPU", info.device_id) and info.device_target == "CPU"
    assert device_manager.set_device is ms.set_device
    with pytest.raises(TypeError, match="The parameter 'deterministic' must be <class 'bool'>, but got <class 'int'>"):
        ms.set_deterministic(1)
    monkeypatch.setitem(device_manager._STATE, "configured", False)
    monkeypatch.setenv("XLA_FLAGS", "")
    with pytest.warns(UserWarning, match="XLA has read its flags already"):
        ms.set_deterministic(True)
    assert "--xla_gpu_deterministic_ops=true" in __import__("os").environ["XLA_FLAGS"]
    assert ms.get_context("deterministic") == "ON"
    with pytest.raises(RuntimeError, match="can not be set repeatedly"):
        ms.set_deterministic(False)
    ms.set_context(deterministic="OFF")


def test_launch_blocking_turns_off_cpus_async_dispatch():
    import jax

    before = jax.config.read("jax_cpu_enable_async_dispatch")
    try:
        ms.launch_blocking()
        assert jax.config.read("jax_cpu_enable_async_dispatch") is False
        assert ms.get_context("pynative_synchronize") is True
        assert float((ms.Tensor(np.ones(3, np.float32)) * 2).sum()) == 6.0
    finally:
        jax.config.update("jax_cpu_enable_async_dispatch", before)
        ms.set_context(pynative_synchronize=False)
