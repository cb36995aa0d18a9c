"""ms.Generator: seed/offset state in int64 Parameters, MindSpore's byte state, compiled use."""
import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.common import generator as gen_module


def test_new_generator_has_seed_zero_and_a_zero_state():
    g = ms.Generator()
    assert g.initial_seed() == 0
    state = g.get_state()
    assert state.dtype == ms.uint8 and state.shape == (16,)
    np.testing.assert_array_equal(state.asnumpy(), np.zeros(16, np.uint8))


def test_step_hands_out_seed_and_offset_then_advances_the_offset():
    g = ms.Generator()
    assert g.manual_seed(5) is g and g.initial_seed() == 5
    seed, offset = g._step(ms.Tensor(3, ms.int64))
    assert (int(seed), int(offset)) == (5, 0) and seed.dtype == ms.int64
    seed, offset = g._step(2)
    assert (int(seed), int(offset)) == (5, 3)
    np.testing.assert_array_equal(g.get_state().asnumpy(), [5, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0])
    assert g._seed.dtype == ms.int64 and isinstance(g._offset, ms.Parameter)


def test_manual_seed_resets_the_offset_and_set_state_restores_both():
    g = ms.Generator().manual_seed(9)
    g._step(4)
    saved = g.get_state()
    g.manual_seed(1)
    assert int(g._step(1)[1]) == 0
    g.set_state(saved)
    assert g.initial_seed() == 9 and int(g._step(1)[1]) == 4


def test_seed_draws_a_new_seed_and_resets_the_offset():
    g = ms.Generator().manual_seed(3)
    g._step(5)
    value = g.seed()
    assert isinstance(value, int) and g.initial_seed() == value and int(g._step(1)[1]) == 0


def test_bad_arguments_raise_with_clear_messages():
    g = ms.Generator()
    with pytest.raises(TypeError, match="^Seed must be an integer.$"):
        g.manual_seed(1.0)
    with pytest.raises(TypeError, match="'state' must be a Tensor, but got list"):
        g.set_state([1, 2])
    with pytest.raises(TypeError, match="'state' data type must be UInt8, but got Int64"):
        g.set_state(ms.Tensor(np.zeros(16, np.int64)))
    with pytest.raises(ValueError, match=r"must hold 16 values.*got shape \(3,\)"):
        g.set_state(ms.Tensor(np.zeros(3, np.uint8)))
    with pytest.raises(TypeError, match="'step' must be a Tensor or an int, but got float"):
        g._step(1.5)


def test_step_inside_a_graph_cell_advances_the_generators_state():
    class Draw(nn.Cell):
        def __init__(self):
            super().__init__()
            self.gen = ms.Generator()
            self.gen.manual_seed(11)

        def construct(self, x):
            seed, offset = self.gen._step(2)
            return x + offset, seed

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Draw()
        x = ms.Tensor(np.zeros(2, np.int64))
        outs = [net(x) for _ in range(3)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert [int(o[0][0]) for o in outs] == [0, 2, 4]
    assert all(int(o[1]) == 11 for o in outs)
    assert int(net.gen._offset) == 6


def test_next_key_is_a_fresh_jax_key_per_call_and_reproducible_from_the_seed():
    g = ms.Generator().manual_seed(2)
    a = jax.random.uniform(g.next_key(), (3,))
    b = jax.random.uniform(g.next_key(), (3,))
    assert not np.allclose(a, b) and int(g._offset) == 2
    g.manual_seed(2)
    np.testing.assert_array_equal(jax.random.uniform(g.next_key(), (3,)), a)

    @ms.jit
    def draw():
        return ms.Tensor(jax.random.normal(g.next_key(), (2,)))

    first, second = draw(), draw()
    assert not np.allclose(first.asnumpy(), second.asnumpy()) and int(g._offset) == 3


def test_module_functions_act_on_the_default_generator():
    saved = ms.get_rng_state()
    try:
        assert ms.manual_seed(13) is ms.default_generator and ms.initial_seed() == 13
        ms.default_generator._step(4)
        state = ms.get_rng_state()
        ms.manual_seed(1)
        ms.set_rng_state(state)
        assert ms.initial_seed() == 13 and int(ms.default_generator._step(1)[1]) == 4
        assert ms.seed() == ms.initial_seed()
        assert gen_module.default_generator is ms.default_generator
    finally:
        ms.set_rng_state(saved)
