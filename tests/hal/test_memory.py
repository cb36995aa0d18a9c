"""mindspore.hal memory counters: XLA's allocator counters, 0 on CPU as MindSpore's CPU backend reports."""
import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax.hal import memory


class _FakeDevice:
    """A device whose allocator reports the counters given to it."""

    id = 0
    platform = "gpu"

    def __init__(self):
        self.stats = {"bytes_in_use": 100, "peak_bytes_in_use": 900, "bytes_reserved": 1000,
                      "peak_bytes_reserved": 1500}

    def memory_stats(self):
        return dict(self.stats)


@pytest.fixture
def fake_device(monkeypatch):
    device = _FakeDevice()
    monkeypatch.setattr(memory, "devices_of", lambda target, who: [device])
    monkeypatch.setattr(memory, "_RESETS", {})
    return device


@pytest.mark.skipif(jax.default_backend() != "cpu", reason="XLA:CPU keeps no allocator counters")
def test_cpu_memory_counters_are_zero_as_mindspore_reports_on_cpu():
    # MindSpore 2.10 on CPU, measured: every counter is 0, after a 2000x2000 matmul too.
    x = ms.Tensor(np.ones((200, 200), np.float32))
    (x @ x).asnumpy()
    stats = ms.hal.memory_stats()
    assert {k: stats[k] for k in ("total_reserved_memory", "total_allocated_memory", "total_idle_memory",
                                  "total_eager_free_memory", "max_reserved_memory", "max_allocated_memory")} \
        == dict.fromkeys(("total_reserved_memory", "total_allocated_memory", "total_idle_memory",
                          "total_eager_free_memory", "max_reserved_memory", "max_allocated_memory"), 0)
    assert ms.hal.max_memory_allocated() == ms.hal.memory_allocated() == 0
    assert ms.hal.max_memory_reserved() == ms.hal.memory_reserved() == 0


def test_counters_read_xlas_allocator(fake_device):
    assert ms.hal.memory_allocated() == 100
    assert ms.hal.max_memory_allocated() == 900
    assert ms.hal.memory_reserved() == 1000
    assert ms.hal.max_memory_reserved() == 1500
    assert ms.hal.memory_stats()["total_idle_memory"] == 900
    assert "max_allocated_memory" in ms.hal.memory_summary()


def test_reset_peak_starts_the_peak_again_from_the_bytes_in_use(fake_device):
    ms.hal.reset_peak_memory_stats()
    assert ms.hal.max_memory_allocated() == 100  # the allocator's peak (900) was before the reset
    fake_device.stats.update(bytes_in_use=300)
    assert ms.hal.max_memory_allocated() == 300
    fake_device.stats.update(bytes_in_use=200, peak_bytes_in_use=1200)
    assert ms.hal.max_memory_allocated() == 1200  # a new peak after the reset
    ms.hal.reset_max_memory_reserved()
    assert ms.hal.max_memory_reserved() == 1000


def test_unknown_device_target_is_rejected_naming_the_function():
    with pytest.raises(ValueError, match=r"For 'max_memory_allocated', 'device_target' must be one of .*'NPU'"):
        ms.hal.max_memory_allocated("NPU")


def test_device_queries_follow_jax_devices():
    assert ms.hal.device_count("CPU") == len(jax.local_devices(backend="cpu"))
    assert ms.hal.is_available("CPU") and ms.hal.is_initialized("CPU")
    assert ms.hal.device_count("Ascend") == 0 and not ms.hal.is_available("Ascend")
