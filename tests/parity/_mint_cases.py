"""Shared runner of the mint parity tables: MindSpore 2.10 first, a numpy formula where it has no CPU kernel.

Many ``mindspore.mint`` ops are "pyboost" ops with only Ascend kernels in 2.10; on CPU they raise
(RuntimeError/TypeError/ValueError naming the missing kernel). For those cases each table
row carries a numpy (PyTorch-semantics) formula, and the test compares with it instead.
"""
import numpy as np

import mindjax as ms


def to_np(out):
    if isinstance(out, (tuple, list)):
        return [to_np(o) for o in out]
    if hasattr(out, "asnumpy"):
        return out.asnumpy()
    return np.asarray(out)


def mindspore_or_formula(call_ms, formula):
    """MindSpore's result, or ``formula()`` (with a flag) where MindSpore raises on CPU."""
    for attempt in range(2):
        try:
            return to_np(call_ms()), "mindspore"
        except (SystemError, ImportError):
            if attempt:
                raise
        except (RuntimeError, TypeError, ValueError, AttributeError, NotImplementedError):
            break
    assert formula is not None, "MindSpore raised on CPU and the case has no numpy formula"
    return to_np(formula()), "formula"


def assert_close(got, want, rtol=1e-5, atol=1e-5):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_close(g, w, rtol, atol)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype == bool or got.dtype == bool:
        np.testing.assert_array_equal(got, want)
    else:
        kind = np.complex128 if np.iscomplexobj(got) or np.iscomplexobj(want) else np.float64
        np.testing.assert_allclose(got.astype(kind), want.astype(kind), rtol=rtol, atol=atol)


def mj(x):
    return ms.Tensor(x) if isinstance(x, np.ndarray) else x
