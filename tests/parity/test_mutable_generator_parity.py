"""ms.mutable and ms.Generator against MindSpore 2.10 (MindSpore's nets run in its GRAPH mode)."""
import mindspore
import numpy as np
import pytest

import mindjax
import nets_mutable_ms as msnets

X = np.array([1.0, 2.0], np.float32)
Y = np.array([3.0, -1.0], np.float32)


class _ProductScale(mindjax.nn.Cell):
    def construct(self, z, n):
        return z[0] * z[1] * n


@pytest.mark.parametrize("n", [2, 2.5])
def test_forward_with_a_mutable_number_matches(n):
    expected = msnets.forward((mindspore.Tensor(X), mindspore.Tensor(Y)), mindspore.mutable(n)).asnumpy()
    mindjax.set_context(mode=mindjax.GRAPH_MODE)
    try:
        got = _ProductScale()((mindjax.Tensor(X), mindjax.Tensor(Y)), mindjax.mutable(n)).asnumpy()
    finally:
        mindjax.set_context(mode=mindjax.PYNATIVE_MODE)
    np.testing.assert_allclose(got, expected, rtol=1e-6)


@pytest.mark.parametrize("mode", ["GRAPH_MODE", "PYNATIVE_MODE"])
def test_grads_of_mutable_tuple_and_number_match(mode):
    (ex, ey), en = msnets.grads(mindspore.mutable((mindspore.Tensor(X), mindspore.Tensor(Y))),
                                mindspore.mutable(2.0))
    mindjax.set_context(mode=getattr(mindjax, mode))
    try:
        (gx, gy), gn = mindjax.grad(_ProductScale(), grad_position=(0, 1))(
            mindjax.mutable((mindjax.Tensor(X), mindjax.Tensor(Y))), mindjax.mutable(2.0))
        plain = mindjax.grad(_ProductScale(), grad_position=(0, 1))((mindjax.Tensor(X), mindjax.Tensor(Y)), 2.0)
    finally:
        mindjax.set_context(mode=mindjax.PYNATIVE_MODE)
    np.testing.assert_allclose(gx.asnumpy(), ex.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(gy.asnumpy(), ey.asnumpy(), rtol=1e-6)
    assert (gn, type(gn)) == (en, type(en))
    assert plain == msnets.grads((mindspore.Tensor(X), mindspore.Tensor(Y)), 2.0) == ()


def test_mutable_error_messages_match():
    for bad, kwargs in (("a", {}), (1, {"dynamic_len": 1}), (1, {"dynamic_len": True})):
        with pytest.raises(TypeError) as expected:
            mindspore.mutable(bad, **kwargs)
        with pytest.raises(TypeError) as got:
            mindjax.mutable(bad, **kwargs)
        assert str(got.value) == str(expected.value)


def test_generator_state_and_steps_match():
    msg, mjg = mindspore.Generator(), mindjax.Generator()
    np.testing.assert_array_equal(mjg.get_state().asnumpy(), msg.get_state().asnumpy())
    msg.manual_seed(5)
    mjg.manual_seed(5)
    for step in (3, 2, 7):
        es, eo = msg._step(mindspore.Tensor(step, mindspore.int64))
        gs, go = mjg._step(mindjax.Tensor(step, mindjax.int64))
        assert (int(gs), int(go)) == (int(es), int(eo))
    np.testing.assert_array_equal(mjg.get_state().asnumpy(), msg.get_state().asnumpy())
    saved_ms, saved_mj = msg.get_state(), mjg.get_state()
    msg.manual_seed(1)
    mjg.manual_seed(1)
    msg.set_state(saved_ms)
    mjg.set_state(saved_mj)
    assert mjg.initial_seed() == msg.initial_seed() == 5
    with pytest.raises(TypeError) as expected:
        msg.manual_seed(1.0)
    with pytest.raises(TypeError) as got:
        mjg.manual_seed(1.0)
    assert str(got.value) == str(expected.value)
