"""AUTO_PARALLEL: the searched plans, their execution on GSPMD, and XLA's view of them."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import PartitionSpec as P

import mindjax as ms
from mindjax import nn, ops
from mindjax.parallel.auto import (CostModel, auto_parallel, collective_stats, find_plan, get_strategy,
                                   search_plan, xla_report)
from mindjax.parallel.auto.choose import choose_verified, default_memory_budget, zero_specs
from mindjax.parallel.auto.verify import measure_plan, measured_seconds
from mindjax.transforms.jit import compiled_for_cell
from benchmarks.parallel_auto import MLP, MSELoss, gpt_case, hand_plan_model, mesh_of, train
from tests.parallel.helpers import LossRecorder


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


@pytest.mark.xfail(reason="known regression: since the in-step label range checks and 64-bit types landed, "
                          "the GPT peaks moved (DP 3.52 MB, Megatron 1.85 MB, searched 1.83 MB against a 1.76 MB "
                          "budget) and the searched plan no longer fits half of DP's peak", strict=False)
def test_gpt_verified_auto_plan_fits_the_budget_and_beats_megatron_on_memory_comm_and_time():
    make, batch = gpt_case(layers=2)
    mesh = mesh_of((2, 4))
    model = CostModel(dict(mesh.shape), optimizer_states=1)
    hand = {}
    for kind in ("dp", "megatron", "fsdp"):
        report = measure_plan(hand_plan_model(make, batch, mesh, kind).propagated(), 1)
        hand[kind] = (report["peak_bytes"], report["collectives"]["total"]["bytes"],
                      measured_seconds(report, model))
    # A device that cannot hold the replicated training state: half of data parallel's peak.
    budget = 0.5 * hand["dp"][0]
    auto = search_plan(make(), *batch, mesh=mesh, cost_model=model, memory_budget_bytes=budget,
                       verify=True)
    peak = auto.measured["peak_bytes"]
    comm = auto.measured["collectives"]["total"]["bytes"]
    seconds = measured_seconds(auto.measured, model)
    assert auto.fits_budget and peak <= budget, (peak, budget, hand)
    # Megatron is the fastest hand-written plan within the budget; the search's plan
    # (Megatron's layers with the embedding split too) needs less of everything.
    assert hand["megatron"][0] <= budget and hand["dp"][0] > budget
    assert peak < hand["megatron"][0] and comm < hand["megatron"][1] and seconds < hand["megatron"][2]
    assert not any(h[0] < peak and h[1] < comm for h in hand.values())
    assert auto.param_specs["net.blocks.0.proj.weight"] == P(None, "mp")
    assert auto.param_specs["net.head.weight"] == P("mp", None)
    # A constrained candidate fits, so the GSPMD-propagated and ZeRO fallbacks are not compiled.
    assert {r["label"] for r in auto.candidates} >= {"searched", "data=dp", "data=dp/lean"}
    assert {"data=dp/propagated", "data=dp,mp+zero/propagated"} <= set(auto.skipped)


def test_gradient_reductions_cost_their_bytes_but_share_one_combined_all_reduce_per_axis():
    model = CostModel({"dp": 2, "mp": 4})
    seconds, moved = model.gradient_reduce(("mp",), 4096.0)
    assert moved == 2 * 3 / 4 * 4096
    assert seconds == pytest.approx(moved * model.beta)  # no ring steps of its own
    separate = dataclasses.replace(model, combine_gradient_reductions=False)
    assert separate.gradient_reduce(("mp",), 4096.0)[0] == pytest.approx(6 * model.alpha + moved * model.beta)


def test_fallbacks_are_compiled_only_when_no_candidate_fits_and_far_over_budget_plans_never():
    x, y = _mlp_batch(64, 16)
    mesh = mesh_of((1, 8))
    model = CostModel(dict(mesh.shape))
    free = dataclasses.replace(search_plan(MSELoss(MLP(64)), x, y, mesh=mesh), label="replicated")
    lean = search_plan(MSELoss(MLP(64)), x, y, mesh=mesh,
                       memory_budget_bytes=free.result.memory_bytes / 3)
    lean = dataclasses.replace(lean, label="sharded")
    roomy = choose_verified([lean], model, None, 2, fallbacks=[free])
    assert roomy.label == "sharded" and roomy.skipped == ["replicated"]
    # The budget is below what the lean plan measures: the fallback is compiled too,
    # except when its modelled memory is far over the budget.
    tiny = 0.5 * lean.result.memory_bytes
    assert free.result.memory_bytes > 1.5 * tiny
    tight = choose_verified([lean], model, tiny, 2, fallbacks=[free, free.propagated()])
    assert [r["label"] for r in tight.candidates] == ["sharded"]
    assert set(tight.skipped) == {"replicated", "replicated/propagated"}
    assert tight.label == "sharded" and not tight.fits_budget  # none fits: the leanest
    # Every candidate modelled far over the budget: the fallbacks are verified instead.
    instead = choose_verified([free], model, 0.5 * free.result.memory_bytes, 2, fallbacks=[lean])
    assert [r["label"] for r in instead.candidates] == ["sharded"] and instead.skipped == ["replicated"]


def test_verification_chooses_by_measured_memory_and_falls_back_when_the_fastest_does_not_fit():
    x, y = _mlp_batch(64, 16)
    mesh = mesh_of((1, 8))
    model = CostModel(dict(mesh.shape))
    free = dataclasses.replace(search_plan(MSELoss(MLP(64)), x, y, mesh=mesh), label="replicated")
    lean = search_plan(MSELoss(MLP(64)), x, y, mesh=mesh,
                       memory_budget_bytes=free.result.memory_bytes / 3)
    lean = dataclasses.replace(lean, label="sharded")
    unlimited = choose_verified([free, lean], model, None, optimizer_states=2)
    times = {r["label"]: r["seconds"] for r in unlimited.candidates}
    assert unlimited.label == min(times, key=times.get)
    peaks = {r["label"]: r["peak_bytes"] for r in unlimited.candidates}
    assert peaks["sharded"] < peaks["replicated"]
    budget = (peaks["sharded"] + peaks["replicated"]) / 2
    tight = choose_verified([free, lean], model, budget, optimizer_states=2)
    assert tight.label == "sharded" and tight.fits_budget
    assert {r["label"]: r["fits"] for r in tight.candidates} == {"replicated": False, "sharded": True}


def test_model_train_in_auto_parallel_runs_the_searched_plan_and_equals_single_device():
    def run(auto):
        ms.reset_auto_parallel_context()
        ms.set_context(mode=ms.GRAPH_MODE)
        ms.set_seed(0)
        if auto:
            ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.AUTO_PARALLEL,
                                         search_mode="recursive_programming")
        net = MLP(32)
        model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.05, 0.9))
        recorder = LossRecorder()
        model.train(1, _regression_batches(), callbacks=[recorder])
        ms.reset_auto_parallel_context()
        return recorder.losses, model, net

    single, _, _ = run(False)
    auto, model, net = run(True)
    plan = find_plan(model.train_network)
    assert plan is not None and plan.measured is not None and len(plan.candidates) >= 3
    assert set(get_strategy(model.train_network)["parameters"]) == {"fc1.weight", "fc1.bias",
                                                                   "fc2.weight", "fc2.bias"}
    # The user's own network shows the plan Model.train searched for it.
    assert get_strategy(net) == get_strategy(model.train_network)
    np.testing.assert_allclose(auto, single, rtol=1e-5)


def _regression_batches(steps=3, batch=16, d=32):
    rng = np.random.default_rng(0)
    return [(rng.normal(size=(batch, d)).astype(np.float32), rng.normal(size=(batch, d)).astype(np.float32))
            for _ in range(steps)]


def test_zero_specs_add_the_data_axes_on_the_largest_dividing_dimension():
    specs = {"w": P("mp", None), "b": P(), "odd": P()}
    shapes = {"w": (8, 6), "b": (4,), "odd": (3,)}
    out = zero_specs(specs, shapes, ("dp",), {"dp": 2, "mp": 4})
    assert out == {"w": P(("mp", "dp"), None), "b": P("dp"), "odd": P(None)}


def test_cpu_devices_report_no_memory_so_there_is_no_default_budget():
    assert default_memory_budget(mesh_of((2, 4))) is None


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
    assert stats["all-reduce"] == {"count": 1, "bytes": 2 * 7 / 8 * 288, "steps": 14}
    assert stats["all-gather"] == {"count": 1, "bytes": 64.0, "steps": 1}
    assert stats["total"]["count"] == 2 and stats["total"]["steps"] == 15


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
