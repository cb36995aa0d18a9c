"""CompareAndBitpack, RaggedRange and NoRepeatNGram against mindspore 2.10 on CPU."""
import mindspore
import numpy as np
import pytest
from mindspore import ops as ms_ops

import mindjax
from mindjax import ops as mj_ops

RNG = np.random.default_rng(21)


def _numpy(out):
    return [o.asnumpy() for o in out] if isinstance(out, tuple) else [out.asnumpy()]


CASES = [
    ("CompareAndBitpack_float", lambda o, T, m: o.CompareAndBitpack()(
        T(RNG.standard_normal((3, 16)).astype(np.float32)), T(np.float32(0.1)))),
    ("CompareAndBitpack_int", lambda o, T, m: o.CompareAndBitpack()(
        T(np.arange(-8, 8, dtype=np.int32).reshape(2, 8)), T(np.int32(-2)))),
    ("CompareAndBitpack_bool", lambda o, T, m: o.CompareAndBitpack()(
        T(np.array([[True, False] * 4, [True] + [False] * 7], bool)), T(np.array(True)))),
    ("RaggedRange_int", lambda o, T, m: o.RaggedRange(m.int64)(
        T(np.array([2, 5, 8], np.int32)), T(np.array([3, 5, 12], np.int32)), T(np.array([1, 1, 1], np.int32)))),
    ("RaggedRange_negative_delta", lambda o, T, m: o.RaggedRange(m.int32)(
        T(np.array([9, 0], np.int64)), T(np.array([0, 7], np.int64)), T(np.array([-4, 3], np.int64)))),
    ("RaggedRange_float", lambda o, T, m: o.RaggedRange(m.int32)(
        T(np.array([0., 1.5], np.float32)), T(np.array([1., -1.], np.float32)), T(np.array([.3, -1.], np.float32)))),
    ("RaggedRange_scalar", lambda o, T, m: o.RaggedRange(m.int64)(
        T(np.array(1, np.int32)), T(np.array(6, np.int32)), T(np.array(2, np.int32)))),
    ("NoRepeatNGram_3", lambda o, T, m: o.NoRepeatNGram(3)(
        T(np.array([[[1, 2, 1, 2, 5, 1, 2], [9, 3, 9, 5, 4, 1, 5]]], np.int32)),
        T(RNG.random((1, 2, 10)).astype(np.float32)))),
    ("NoRepeatNGram_2", lambda o, T, m: o.NoRepeatNGram(2)(
        T(RNG.integers(0, 6, (2, 3, 8)).astype(np.int32)), T(RNG.random((2, 3, 6)).astype(np.float32)))),
    ("NoRepeatNGram_1", lambda o, T, m: o.NoRepeatNGram(1)(
        T(np.array([[[1, 2, 1]]], np.int32)), T(np.ones((1, 1, 4), np.float32)))),
]


@pytest.mark.parametrize("name,case", CASES, ids=[c[0] for c in CASES])
def test_primitive_matches_mindspore(name, case):
    state = RNG.bit_generator.state
    expected = _numpy(case(ms_ops, mindspore.Tensor, mindspore))
    RNG.bit_generator.state = state
    got = _numpy(case(mj_ops, mindjax.Tensor, mindjax))
    assert len(got) == len(expected)
    for e, g in zip(expected, got):
        assert g.shape == e.shape and g.dtype == e.dtype, (name, g.shape, e.shape, g.dtype, e.dtype)
        np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-6, err_msg=name)
