"""mindspore.ops.operations._inner_ops: DynamicBroadcastTo, TensorCopySlices, DynamicBroadcastGradientArgs vs 2.10."""
from __future__ import annotations

import importlib

import mindspore
import numpy as np
import pytest

import mindjax


def _cases(ms):
    inner = importlib.import_module(ms.__name__ + ".ops.operations._inner_ops")
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    return {
        "copy_row": lambda: inner.TensorCopySlices()(x, ms.Tensor(np.ones((1, 4), np.float32)), (1,), (2,), (1,)),
        "copy_run_in_a_row": lambda: inner.TensorCopySlices()(x, ms.Tensor(np.full((1, 2), 7, np.float32)), (1, 1),
                                                              (2, 3), (1, 1)),
        "broadcast": lambda: inner.DynamicBroadcastTo()(ms.Tensor(np.array([1.0, 2.0], np.float32)), (3, 2)),
        "grad_args": lambda: inner.DynamicBroadcastGradientArgs()((2, 1, 3), (4, 3)),
        "grad_args_scalar_like": lambda: inner.DynamicBroadcastGradientArgs()((5, 4), (1,)),
    }


@pytest.mark.parametrize("name", list(_cases(mindjax)))
def test_inner_primitive_matches_mindspore(name: str) -> None:
    expected, got = _cases(mindspore)[name](), _cases(mindjax)[name]()
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    for e, g in zip(expected, got):
        assert g.shape == e.shape and str(g.dtype) == str(e.dtype)
        np.testing.assert_array_equal(g.asnumpy(), e.asnumpy())


def test_bad_inputs_name_the_primitive() -> None:
    from mindjax.ops.operations import _inner_ops as inner

    x = mindjax.Tensor(np.zeros((3, 4), np.float32))
    with pytest.raises(ValueError, match="For 'TensorCopySlices', the element in step only support 1"):
        inner.TensorCopySlices()(x, x, (0,), (3,), (2,))
    with pytest.raises(ValueError, match=r"For 'TensorCopySlices', 'value' of shape \(2, 2\) can not fill"):
        inner.TensorCopySlices()(x, mindjax.Tensor(np.zeros((2, 2), np.float32)), (0,), (1,), (1,))
    with pytest.raises(ValueError, match="For 'DynamicBroadcastTo', 'x' of shape \\(3, 4\\) can not be broadcast"):
        inner.DynamicBroadcastTo()(x, (2, 4))
    with pytest.raises(ValueError, match="For 'DynamicBroadcastGradientArgs', the shapes"):
        inner.DynamicBroadcastGradientArgs()((2, 3), (4, 3))
