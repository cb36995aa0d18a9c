"""ops.jet, ops.derivative and ops.linearize against MindSpore 2.10: numbers and return structures."""
import mindspore
import numpy as np

import mindjax as mj

X = np.array([[1, 2], [3, 4]], np.float32)
SERIES = np.stack([np.ones((2, 2), np.float32), np.zeros((2, 2), np.float32), np.full((2, 2), 0.5, np.float32)])
A, B = np.array([1.0, 2.0], np.float32), np.array([3.0, 4.0], np.float32)
SA = np.array([[1.0, 1.0], [0.5, 0.5]], np.float32)
SB = np.array([[0.0, 1.0], [1.0, 0.0]], np.float32)


class MsOne(mindspore.nn.Cell):
    def construct(self, x):
        return mindspore.ops.exp(mindspore.ops.sin(x))


class MjOne(mj.nn.Cell):
    def construct(self, x):
        return mj.ops.exp(mj.ops.sin(x))


class MsTwo(mindspore.nn.Cell):
    def construct(self, x, y):
        return mindspore.ops.sin(x) * y, x * x


class MjTwo(mj.nn.Cell):
    def construct(self, x, y):
        return mj.ops.sin(x) * y, x * x


def _np(v):
    return [_np(i) for i in v] if isinstance(v, (list, tuple)) else v.asnumpy()


def _same(got, want):
    assert type(got) is list if isinstance(want, list) else not isinstance(got, (list, tuple))
    for g, w in (zip(got, want) if isinstance(want, list) else [(got, want)]):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-5, atol=1e-6)


def test_jet_one_input_one_output():
    want = mindspore.ops.jet(MsOne(), mindspore.Tensor(X), mindspore.Tensor(SERIES))
    got = mj.ops.jet(MjOne(), mj.Tensor(X), mj.Tensor(SERIES))
    assert got[1].shape == (3, 2, 2)
    for g, w in zip(got, want):
        _same(g, w)


def test_jet_two_inputs_two_outputs_gives_lists():
    want = mindspore.ops.jet(MsTwo(), (mindspore.Tensor(A), mindspore.Tensor(B)),
                             (mindspore.Tensor(SA), mindspore.Tensor(SB)))
    got = mj.ops.jet(MjTwo(), (mj.Tensor(A), mj.Tensor(B)), (mj.Tensor(SA), mj.Tensor(SB)))
    for g, w in zip(got, want):
        _same(g, w)


def test_jet_int_primals_run_in_float32_and_order_one_series():
    want = mindspore.ops.jet(MsOne(), mindspore.Tensor(X.astype(np.int32)), mindspore.Tensor(np.ones((2, 2), np.int32)))
    got = mj.ops.jet(MjOne(), mj.Tensor(X.astype(np.int32)), mj.Tensor(np.ones((2, 2), np.int32)))
    assert got[1].shape == tuple(want[1].shape) == (1, 2, 2) and str(got[0].dtype) == str(want[0].dtype)
    for g, w in zip(got, want):
        _same(g, w)


def test_derivative_orders():
    for order in (1, 3):
        want = mindspore.ops.derivative(MsOne(), mindspore.Tensor(X), order)
        got = mj.ops.derivative(MjOne(), mj.Tensor(X), order)
        for g, w in zip(got, want):
            _same(g, w)
    want = mindspore.ops.derivative(MsTwo(), (mindspore.Tensor(A), mindspore.Tensor(B)), 2)
    got = mj.ops.derivative(MjTwo(), (mj.Tensor(A), mj.Tensor(B)), 2)
    for g, w in zip(got, want):
        _same(g, w)


def test_linearize_output_and_jvp_fn():
    want_out, want_fn = mindspore.ops.linearize(MsTwo(), (mindspore.Tensor(A), mindspore.Tensor(B)))
    got_out, got_fn = mj.ops.linearize(MjTwo(), (mj.Tensor(A), mj.Tensor(B)))
    v = (np.array([1.0, 0.0], np.float32), np.array([0.0, 1.0], np.float32))
    want = want_fn(tuple(mindspore.Tensor(t) for t in v))
    got = got_fn(tuple(mj.Tensor(t) for t in v))
    assert isinstance(got_out, tuple) and isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(list(got_out) + list(got), list(want_out) + list(want)):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-5)
    want_out, want_fn = mindspore.ops.linearize(MsOne(), mindspore.Tensor(A))
    got_out, got_fn = mj.ops.linearize(MjOne(), mj.Tensor(A))
    np.testing.assert_allclose(got_out.asnumpy(), want_out.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(got_fn(mj.Tensor(B)).asnumpy(), want_fn(mindspore.Tensor(B)).asnumpy(), rtol=1e-5)
