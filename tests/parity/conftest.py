"""Parity tests run the real mindspore 2.10 beside MindJAX in one process."""
import contextlib
import io
import os
import sys

# Net files here are imported both as tests.parity.<name> and as plain <name>.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

os.environ.setdefault("GLOG_v", "3")  # MindSpore's C++ logging: errors only

import mindspore  # noqa: E402,F401  (fails loudly when the test extra is not installed)
import numpy as np  # noqa: E402
import pytest  # noqa: E402


def _warm_up_mindspore() -> None:
    """Take MindSpore 2.10's one-time numpy-2 failure here, not in whichever test runs first.

    Its C++ module was built against numpy 1.x: beside numpy 2 the first PYNATIVE
    scalar-times-Tensor (or transpose) of a process fails once with "returned a
    result with an exception set", and works from then on.
    """
    x = mindspore.Tensor(np.ones((1, 2), np.float32))
    # numpy prints its "compiled using NumPy 1.x" notice and a stack to sys.stderr on that first
    # failure; it is expected, so it is kept off the test run's output.
    with contextlib.redirect_stderr(io.StringIO()):
        _try_each_op(x)


def _try_each_op(x: "mindspore.Tensor") -> None:
    for op in (lambda: 0.5 * x, lambda: x * 0.5, lambda: mindspore.ops.transpose(x, (1, 0)),
               lambda: mindspore.ops.tensor_dot(x, x, ((1,), (1,)))):
        for _ in range(2):
            try:
                op().asnumpy()
            except (SystemError, ImportError, RuntimeError, TypeError):
                continue
            break


_warm_up_mindspore()


@pytest.fixture(autouse=True)
def _mindspore_pynative():
    """Each parity test starts with MindSpore in PYNATIVE mode, seed 0."""
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    mindspore.set_seed(0)
    yield
    _drain_pending_mindspore_errors()


def _drain_pending_mindspore_errors() -> None:
    """Take a failed asynchronous MindSpore kernel's error here, not in the next test.

    PYNATIVE launches kernels asynchronously: a kernel that MindSpore 2.10 lacks on CPU (an
    in-place ``erfinv_``) can raise at the next synchronisation, whichever test that is.
    """
    for _ in range(3):
        try:
            (mindspore.Tensor(np.ones((1,), np.float32)) + 1).asnumpy()
            return
        except (RuntimeError, TypeError, ValueError):
            # A late kernel error comes as any of these ("Unsupported data type" is a TypeError, a
            # refused argument found at launch a ValueError).
            continue
