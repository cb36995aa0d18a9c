"""AUTO_PARALLEL: the searched plans, their execution on GSPMD, and XLA's view of them."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import PartitionSpec as P

import mindjax as ms
from mindjax import nn, ops
from mindjax.parallel.auto import (CostModel, auto_parallel, collective_stats, get_strategy,
                                   search_plan, xla_report)
from mindjax.transforms.jit import compiled_for_cell
from benchmarks.parallel_auto import MLP, MSELoss, gpt_case, hand_plan, mesh_of, train


def _mlp_batch(d, batch):
    rng = np.random.default_rng(0)
    return (jnp.asarray(rng.normal(size=(batch, d)), jnp.float32),
            jnp.asarray(rng.normal(size=(batch, d)), jnp.float32))


def test_auto_mlp_finds_column_then_row_with_one_all_reduce_and_trains_as_single_device():
    x, y = _mlp_batch(256, 64)
    single = train(lambda: MSELoss(MLP(256)), (x, y), None, "single", report=False)["losses"]
    run = train(lambda: MSELoss(MLP(256)), (x, y), mesh_of((1, 8)), "auto")
    params = get_strategy(run["net"])["parameters"]
    assert params["net.fc1.weight"] == str(P("mp", None))       # column split (Dense keeps (out, in))
    assert params["net.fc2.weight"] == str(P(None, "mp"))       # row split
    ops_ = {r["op"]: r for r in get_strategy(run["net"])["ops"]}
    assert ops_["net.fc1/dot_general"]["strategy"] == ((1, 1), (1, 8))
    assert ops_["net.fc2/dot_general"]["strategy"] == ((1, 8), (8, 1))
    col = run["xla"]["collectives"]
    # The input needs no gradient, so the whole step has the forward all-reduce only.
    assert col["all-reduce"]["count"] == 1 and col["total"]["count"] == 1
    assert run["net"].plan.result.comm_bytes == pytest.approx(col["total"]["bytes"], rel=1e-6)
    np.testing.assert_allclose(run["losses"], single, rtol=1e-5)


def test_auto_mlp_forward_program_has_one_all_reduce_after_the_second_matmul():
    ms.set_context(mode=ms.GRAPH_MODE)
    x, y = _mlp_batch(256, 64)
    net = auto_parallel(MSELoss(MLP(256)), x, y, mesh=mesh_of((1, 8)))
    compiled = compiled_for_cell(net).lower(x, y).compile()
    text = compiled.as_text()
    stats = collective_stats(text)
    assert stats["all-reduce"]["count"] == 1 and stats["total"]["count"] == 1
    # Per device: the two weight slices and biases, plus both (replicated) inputs.
    report = xla_report(compiled)
    d = 256
    expected = 4 * (d * 4 * d // 8 + 4 * d // 8 + 4 * d * d // 8 + d) + 2 * x.nbytes
    assert report["argument_bytes"] == expected
    assert report["flops"] < 2 * 2 * 64 * d * 4 * d / 8 * 1.5  # the matmul work is split 8 ways


def test_sharding_propagation_completes_an_annotated_column_split_with_a_row_split():
    class Annotated(nn.Cell):
        def __init__(self, d):
            super().__init__()
            self.w1 = ms.Parameter(jnp.asarray(np.random.default_rng(0).normal(0, 0.1, (d, 4 * d)),
                                               jnp.float32), name="w1")
            self.w2 = ms.Parameter(jnp.asarray(np.random.default_rng(1).normal(0, 0.1, (4 * d, d)),
                                               jnp.float32), name="w2")
            self.matmul = ops.MatMul().shard(((1, 1), (1, 8)))

        def construct(self, x, y):
            h = jax.nn.relu(self.matmul(x, self.w1))
            return jnp.mean((h @ self.w2 - y) ** 2)

    x, y = _mlp_batch(256, 64)
    plan = search_plan(Annotated(256), x, y, mesh=mesh_of((1, 8)), search_mode="sharding_propagation")
    assert plan.search_mode == "sharding_propagation"
    assert plan.param_specs["w1"] == P(None, "mp")
    assert plan.param_specs["w2"] == P("mp", None)
    free = search_plan(Annotated(256), x, y, mesh=mesh_of((1, 8)), search_mode="recursive_programming")
    assert free.search_mode == "recursive_programming"
    assert free.param_specs["w1"] == P(None, "mp")  # the recursive search keeps annotations too
    assert search_plan(MSELoss(MLP(256)), x, y, mesh=mesh_of((1, 8))).search_mode == \
        "recursive_programming"


def test_memory_budget_makes_the_search_shard_a_model_it_would_replicate():
    x, y = _mlp_batch(64, 16)
    mesh = mesh_of((1, 8))
    free = search_plan(MSELoss(MLP(64)), x, y, mesh=mesh)
    assert all(spec == P() or all(e is None for e in spec) for spec in free.param_specs.values())
    budget = free.result.memory_bytes / 3
    tight = search_plan(MSELoss(MLP(64)), x, y, mesh=mesh, memory_budget_bytes=budget)
    assert tight.fits_budget and tight.result.memory_bytes <= budget
    assert tight.param_specs["net.fc1.weight"] != P(None, None)


def test_gpt_auto_plan_is_no_worse_than_hand_written_plans_within_the_budget():
    make, batch = gpt_case(layers=2)
    mesh = mesh_of((2, 4))
    net = make()

    def cost(**kw):
        return search_plan(net, *batch, mesh=mesh, cost_model=CostModel(dict(mesh.shape), optimizer_states=1),
                           **kw).result

    hand = {}
    for kind in ("dp", "megatron", "fsdp"):
        spec_of, batch_spec = hand_plan(kind, mesh)
        specs = {p.name: spec_of(p.name, tuple(p.shape)) for p in net.get_parameters()}
        hand[kind] = cost(param_specs=specs, input_specs=[batch_spec] * 2,
                          search_mode="sharding_propagation")
    budget = 0.5 * hand["dp"].memory_bytes
    auto = cost(memory_budget_bytes=budget)
    fitting = [r for r in hand.values() if r.memory_bytes <= budget]
    assert auto.memory_bytes <= budget and fitting
    assert auto.cost <= min(r.cost for r in fitting) * 1.0001


def test_gpt_auto_training_equals_single_device_after_three_steps():
    make, batch = gpt_case(layers=1)
    single = train(make, batch, None, "single", report=False)["losses"]
    run = train(make, batch, mesh_of((2, 4)), "auto", budget=1.5e6, report=False)
    assert run["net"].plan.fits_budget
    np.testing.assert_allclose(run["losses"], single, rtol=1e-5)


def test_collective_stats_reads_tuple_and_grouped_collectives():
    text = (
        "  %all-reduce.5 = (f32[64]{0}, /*index=1*/f32[8]{0}) all-reduce(f32[64]{0} %a, f32[8]{0} %c), "
        "channel_id=3, replica_groups=[1,8]<=[8], to_apply=%add\n"
        "  ROOT %ag = f32[8,4]{1,0} all-gather(f32[4,4]{1,0} %x), replica_groups={{0,1},{2,3}}, "
        "dimensions={0}\n")
    stats = collective_stats(text)
    assert stats["all-reduce"] == {"count": 1, "bytes": 2 * 7 / 8 * 288}
    assert stats["all-gather"] == {"count": 1, "bytes": 64.0}
    assert stats["total"]["count"] == 2


def test_search_plan_rejects_an_unknown_search_mode():
    x, y = _mlp_batch(8, 8)
    with pytest.raises(ValueError, match="'search_mode' must be 'recursive_programming' or "
                                         "'sharding_propagation', got 'greedy'"):
        search_plan(MSELoss(MLP(8)), x, y, mesh=mesh_of((1, 8)), search_mode="greedy")


def test_get_strategy_names_a_network_without_a_plan():
    with pytest.raises(ValueError, match="For 'get_strategy', the network MLP has no searched plan"):
        get_strategy(MLP(8))


def test_imposed_layout_that_does_not_divide_is_an_error_naming_the_input():
    x, y = _mlp_batch(8, 12)
    with pytest.raises(ValueError, match=r"imposed on 'input\[0\]' of shape \(12, 8\)"):
        search_plan(MSELoss(MLP(8)), x, y, mesh=mesh_of((1, 8)), input_specs=[P("mp", None), None])
