"""Test set-up: 8 virtual CPU devices, fixed seeds, a clean context per test."""
import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import pytest  # noqa: E402

import mindjax as ms  # noqa: E402


@pytest.fixture(autouse=True)
def _clean_context():
    """Every test starts in PYNATIVE mode, stand-alone, with seed 0."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.reset_auto_parallel_context()
    ms.set_seed(0)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.reset_auto_parallel_context()


@pytest.fixture(params=[ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def mode(request):
    """Run a test once per execution mode."""
    ms.set_context(mode=request.param)
    return request.param
