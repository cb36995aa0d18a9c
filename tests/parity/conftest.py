"""Parity tests run the real mindspore 2.10 beside MindJAX in one process."""
import os
import sys

# Net files here are imported both as tests.parity.<name> and as plain <name>.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

os.environ.setdefault("GLOG_v", "3")  # MindSpore's C++ logging: errors only

import mindspore  # noqa: E402,F401  (fails loudly when the test extra is not installed)
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _mindspore_pynative():
    """Each parity test starts with MindSpore in PYNATIVE mode, seed 0."""
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    mindspore.set_seed(0)
    yield
