"""examples/wide_deep: hybrid parallel trains as one device does, with the tables split by rows."""
import numpy as np
import pytest

from examples.wide_deep.data import criteo_like_arrays, vocab_size_for
from examples.wide_deep.train import main

ARGS = ["--devices", "8", "--batch-size", "64", "--steps", "30", "--field-vocab", "50", "--deep", "64,32",
        "--lr", "0.01", "--log-every", "10"]


@pytest.fixture(scope="module")
def hybrid():
    return main(ARGS)


def test_criteo_like_data_has_13_dense_and_26_categorical_fields_in_one_id_space():
    ids, weights, labels = criteo_like_arrays(256, 50)
    assert ids.shape == weights.shape == (256, 39) and labels.shape == (256, 1)
    np.testing.assert_array_equal(ids[:, :13], np.broadcast_to(np.arange(13), (256, 13)))
    assert np.all(weights[:, 13:] == 1.0) and ids.max() < vocab_size_for(50)
    assert 0.1 < labels.mean() < 0.5


def test_wide_deep_hybrid_loss_falls_and_matches_one_device(hybrid):
    losses = np.asarray(hybrid["losses"])
    assert hybrid["parallel"] == "hybrid" and len(losses) == 30
    assert losses[-5:].mean() < losses[:5].mean() - 0.05
    single = main(ARGS + ["--parallel", "stand_alone"])
    np.testing.assert_allclose(losses, single["losses"], rtol=1e-4)


def test_wide_deep_embedding_table_and_its_adam_states_are_split_by_rows(hybrid):
    vocab, emb = hybrid["table_shape"]
    assert hybrid["table_block_shapes"] == [(vocab // 8, emb)]
    spec = hybrid["table_spec"]
    assert set(spec[0]) == {"d0", "d1", "d2"} and (len(spec) == 1 or spec[1] is None)
    states = {p.name: p for p in hybrid["model"]._optimizer.get_parameters()}
    for name in ("moment1.embedding_table", "moment2.embedding_table"):
        assert {s.data.shape for s in states[name]._value.addressable_shards} == {(vocab // 8, emb)}
    mlp = hybrid["network"].dense_layer_1.weight._value
    assert mlp.sharding.is_fully_replicated                      # the deep part is data parallel
