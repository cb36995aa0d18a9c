"""SEMI_AUTO_PARALLEL: operator strategies (tuple and Layout), Cell.shard, ms.shard, errors."""
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import PartitionSpec as P

import mindjax as ms
from mindjax import nn, ops
from mindjax.transforms.jit import compiled_for_cell
from tests.parallel.nets import Block, MegatronMLP


@pytest.fixture
def semi_auto():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)


def _hlo(cell, *args):
    return compiled_for_cell(cell).lower(*args).compile().as_text()


def _spec(x):
    """The array's PartitionSpec without trailing unsplit dimensions (jax drops them sometimes)."""
    entries = list(jnp.asarray(x).sharding.spec)
    while entries and entries[-1] is None:
        entries.pop()
    return P(*entries)


def _count(hlo, op):
    return len(re.findall(rf"= \S+ {op}(-start)?\(", hlo))


X = np.random.default_rng(1).normal(size=(8, 16)).astype(np.float32)
W = np.random.default_rng(2).normal(size=(16, 32)).astype(np.float32)


def test_tuple_strategy_splits_rows_and_columns_over_the_device_matrix(semi_auto, mode):
    matmul = ops.MatMul().shard(((2, 1), (1, 4)))
    out = ms.jit(lambda a, b: matmul(a, b))(X, W) if mode == ms.GRAPH_MODE else matmul(X, W)
    np.testing.assert_allclose(np.asarray(out), X @ W, rtol=1e-5, atol=1e-5)
    assert _spec(out) == P("d0", ("d1", "d2"))


def test_layout_strategy_matches_the_equivalent_tuple_strategy(semi_auto):
    layout = ms.Layout((2, 4), ("dp", "mp"))
    matmul = ops.MatMul().shard(in_strategy=(layout("dp", "None"), layout("None", "mp")))
    out = jax.jit(lambda a, b: matmul(a, b))(X, W)
    np.testing.assert_allclose(np.asarray(out), X @ W, rtol=1e-5, atol=1e-5)
    assert _spec(out) == P("d0", ("d1", "d2"))
    assert layout("dp", "None").to_dict()["tensor_map"] == (1, -1)


def test_strategies_are_ignored_outside_semi_auto_and_auto_parallel():
    out = ops.MatMul().shard(((2, 1), (1, 3)))(X, W)   # 3 divides nothing: would fail if applied
    np.testing.assert_allclose(np.asarray(out), X @ W, rtol=1e-5, atol=1e-5)


def test_megatron_mlp_has_one_all_reduce_in_the_forward_and_matches_single_device(semi_auto):
    ms.set_context(mode=ms.GRAPH_MODE)
    x = np.random.default_rng(3).normal(size=(4, 16)).astype(np.float32)
    net = MegatronMLP(d=16, mp=8)
    expected = np.maximum(x @ np.asarray(net.w1), 0) @ np.asarray(net.w2)
    np.testing.assert_allclose(np.asarray(net(x)), expected, rtol=1e-5, atol=1e-5)
    hlo = _hlo(net, x)
    assert _count(hlo, "all-reduce") == 1
    assert _count(hlo, "all-gather") == 0


@pytest.mark.parametrize("strategy, why", [
    (((2, 1), (1, 3)), r"dimension 1 of input 1 \(shape \(16, 32\)\) has size 32, not divisible by 3"),
    (((4, 1), (1, 4)), r"device matrix \(4, 1, 4\) \(product 16\) must divide the device number 8"),
    (((2, 1, 1), (1, 4)), r"strategy \(2, 1, 1\) of input 0 has 3 dimension\(s\) but the input has "
                          r"shape \(8, 16\) \(rank 2\)"),
    (((2, 2), (1, 4)), r"contracted dimension is split 2 ways in input 0 but 1 ways in input 1"),
])
def test_bad_strategy_is_a_value_error_naming_op_path_strategy_and_shape(semi_auto, mode, strategy, why):
    net = Block(strategy)
    with pytest.raises(ValueError, match=r"For 'MatMul' at 'inner', in_strategy " + re.escape(str(strategy))
                       + r" does not fit the input shapes \(\(8, 16\), \(16, 32\)\) on 8 devices: .*" + why):
        net(X)


def test_cell_shard_places_parameters_and_lays_out_inputs_and_outputs(semi_auto, mode):
    net = nn.Dense(16, 32)
    net.shard(in_strategy=((2, 1),), out_strategy=((8, 1),), parameter_plan={"self.weight": (4, 1)})
    assert _spec(net.weight._value) == P(("d0", "d1"))
    out = net(X)
    expected = X @ np.asarray(net.weight).T + np.asarray(net.bias)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-5, atol=1e-5)
    assert _spec(out) == P(("d0", "d1", "d2"))


def test_cell_shard_rejects_a_parameter_plan_that_does_not_divide(semi_auto):
    net = nn.Dense(16, 30)
    with pytest.raises(ValueError, match=r"For 'Parameter 'weight'' at 'Dense', parameter_plan \(\(4, 1\),\) "
                                         r"does not fit the input shapes \(\(30, 16\),\).*size 30, not "
                                         r"divisible by 4"):
        net.shard(in_strategy=((2, 1),), parameter_plan={"weight": (4, 1)})


def test_cell_shard_rejects_an_input_of_the_wrong_rank_naming_the_cell(semi_auto):
    net = nn.Dense(16, 32)
    net.shard(in_strategy=((2, 1, 1),))
    with pytest.raises(ValueError, match=r"For 'Dense' at 'Dense', in_strategy \(\(2, 1, 1\),\).*rank 2"):
        net(X)


def test_ms_shard_lays_out_a_function(semi_auto):
    layout = ms.Layout((2, 4), ("dp", "mp"))
    fn = ms.shard(lambda a: a * 2, in_strategy=(layout("dp", "mp"),), out_strategy=((8, 1),))
    out = jax.jit(fn)(X)
    np.testing.assert_allclose(np.asarray(out), X * 2)
    assert _spec(out) == P(("d0", "d1", "d2"))
    with pytest.raises(TypeError, match="must not mix tuple strategies and Layouts"):
        ms.shard(lambda a, b: a, in_strategy=((2, 1), layout("dp", "mp")))
