"""examples/gpt: the four parallel modes on 8 virtual devices train to the same losses; the plans split."""
import jax
import numpy as np
import pytest

from examples.gpt.data import CORPUS_FILES, VOCAB_SIZE, encode, load_corpus, windows
from examples.gpt.train import main


@pytest.fixture(scope="module")
def all_modes():
    return main(["--parallel", "all", "--devices", "8", "--layers", "2", "--width", "64", "--heads", "4",
                 "--context", "32", "--batch-size", "16", "--steps", "4", "--log-every", "2"])


def test_gpt_corpus_is_standard_library_source_as_ascii_ids():
    text = load_corpus(max_chars=5000)
    assert len(text) == 5000 and "def " in text
    ids = encode(text)
    assert ids.dtype == np.int32 and 0 <= ids.min() and ids.max() < VOCAB_SIZE
    x, y = windows(ids, 3, 16, seed=0)
    np.testing.assert_array_equal(x[:, 1:], y[:, :-1])      # labels are the next characters
    assert len(CORPUS_FILES) >= 5


def test_gpt_losses_fall_and_match_across_the_four_parallel_modes(all_modes):
    runs = all_modes["runs"]
    assert set(runs) == {"stand_alone", "data_parallel", "semi_auto", "auto"}
    base = np.asarray(runs["stand_alone"]["losses"])
    assert len(base) == 4 and base[-1] < base[0] - 0.5
    for mode, run in runs.items():
        np.testing.assert_allclose(run["losses"], base, rtol=1e-4, err_msg=mode)
    assert all_modes["max_rel_diff"] < 1e-4


def test_gpt_semi_auto_keeps_megatron_layouts_for_weights_and_adam_states(all_modes):
    run = all_modes["runs"]["semi_auto"]
    assert (run["dp"], run["mp"]) == (2, 4) and "Megatron plan, dp=2 x mp=4" in run["plan"]
    params = {p.name: p for p in run["network"].get_parameters()}
    column = params["blocks.0.mlp.mapping.weight"]._value          # (4d, d): rows over mp
    row = params["blocks.0.mlp.output.weight"]._value              # (d, 4d): columns over mp
    assert {s.data.shape for s in column.addressable_shards} == {(64, 64)}
    assert {s.data.shape for s in row.addressable_shards} == {(64, 64)}
    assert params["head.weight"]._value.addressable_shards[0].data.shape == (VOCAB_SIZE // 4, 64)
    moments = {p.name: p for p in run["model"]._optimizer.get_parameters()}
    moment = moments["adam_m.blocks.0.mlp.mapping.weight"]._value
    assert {s.data.shape for s in moment.addressable_shards} == {(64, 64)}
    assert "scores BatchMatMul: in_strategy=((2, 4, 1, 1), (2, 4, 1, 1))" in run["plan"]


def test_gpt_auto_parallel_prints_a_searched_plan_that_splits_work(all_modes):
    plan = all_modes["runs"]["auto"]["plan"]
    assert plan.startswith("search_mode=recursive_programming")
    split_line = next(line for line in plan.splitlines() if line.startswith("parameters split"))
    assert int(split_line.split("(")[1].split()[0]) > 0


def test_gpt_auto_parallel_trains_with_parameters_laid_out_as_the_plan_says(all_modes):
    network = all_modes["runs"]["auto"]["network"]
    specs = {k: v for k, v in network.plan.param_specs.items() if any(e is not None for e in v)}
    assert specs
    params = {p.name: p for p in network.get_parameters()}
    for name, spec in specs.items():
        value = params[name]._value
        assert value.sharding.is_equivalent_to(jax.sharding.NamedSharding(network.plan.mesh, spec), value.ndim), name
