"""SampledSoftmaxLoss against MindSpore 2.10: given draws (sampled_values) the numbers agree; the
draws themselves come from MindJAX's key, so their properties are pinned instead (fixed seed)."""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import jax  # noqa: E402
import mindjax  # noqa: E402
from mindjax.cells.loss_extra import _uniform_candidates  # noqa: E402

RNG = np.random.default_rng(0)
WEIGHTS = RNG.standard_normal((7, 4)).astype(np.float32)
BIASES = RNG.standard_normal((7,)).astype(np.float32)
INPUTS = RNG.standard_normal((3, 4)).astype(np.float32)


def _loss(framework, graph, num_true, labels, sampled_values, reduction="none"):
    framework.set_context(mode=framework.GRAPH_MODE if graph else framework.PYNATIVE_MODE)
    values = tuple(framework.Tensor(v) for v in sampled_values)
    loss = framework.nn.SampledSoftmaxLoss(num_sampled=len(sampled_values[0]), num_classes=7, num_true=num_true,
                                           sampled_values=values, reduction=reduction)
    out = loss(*[framework.Tensor(v) for v in (WEIGHTS, BIASES, labels, INPUTS)]).asnumpy()
    framework.set_context(mode=framework.PYNATIVE_MODE)
    return out


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
@pytest.mark.parametrize("num_true, labels, sampled_values", [
    (1, np.array([0, 2, 5], np.int32),
     (np.array([1, 3, 6, 4], np.int32), np.full((3, 1), 0.786, np.float32), np.full((4,), 0.786, np.float32))),
    (2, np.array([[0, 1], [2, 3], [5, 6]], np.int64),
     (np.array([4, 0, 2], np.int32), np.array([[0.5, 0.4], [0.3, 0.2], [0.6, 0.7]], np.float32),
      np.array([0.5, 0.6, 0.7], np.float32))),
])
def test_loss_with_given_draws_matches_mindspore(num_true, labels, sampled_values, graph):
    want = _loss(mindspore, graph, num_true, labels, sampled_values)
    got = _loss(mindjax, graph, num_true, labels, sampled_values)
    assert got.shape == want.shape == (3,) and got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_reduction_is_checked_but_not_applied_as_in_mindspore():
    values = (np.array([1, 3], np.int32), np.full((3, 1), 0.5, np.float32), np.full((2,), 0.5, np.float32))
    labels = np.array([0, 2, 5], np.int32)
    want = _loss(mindspore, False, 1, labels, values, reduction="mean")
    got = _loss(mindjax, False, 1, labels, values, reduction="mean")
    assert got.shape == want.shape == (3,)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def _random_loss(seed, remove, graph=False):
    mindjax.set_context(mode=mindjax.GRAPH_MODE if graph else mindjax.PYNATIVE_MODE)
    mindjax.set_seed(seed)
    loss = mindjax.nn.SampledSoftmaxLoss(num_sampled=4, num_classes=7, remove_accidental_hits=remove)
    out = loss(*[mindjax.Tensor(v) for v in (WEIGHTS, BIASES, np.array([0, 2, 5], np.int32), INPUTS)]).asnumpy()
    mindjax.set_context(mode=mindjax.PYNATIVE_MODE)
    return out


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
def test_drawn_loss_is_fixed_by_the_seed_and_finite(graph):
    first, again, other = _random_loss(1, True, graph), _random_loss(1, True, graph), _random_loss(2, True, graph)
    assert first.shape == (3,) and first.dtype == np.float32 and np.all(np.isfinite(first)) and np.all(first > 0)
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)


def test_remove_accidental_hits_never_draws_a_true_class_and_counts_every_draw():
    labels = jax.numpy.array([[0], [2], [5]], jax.numpy.int32)
    for seed in range(20):
        sampled, true_count, sampled_count = _uniform_candidates(jax.random.PRNGKey(seed), labels, 4, True, 7, True)
        sampled = np.asarray(sampled)
        assert sampled.dtype == np.int32 and len(set(sampled.tolist())) == 4
        assert not set(sampled.tolist()) & {0, 2, 5}
        # MindSpore's counts: 1 - (1 - 1/7) ** tries, tries >= 4 (0.7859 for its 10 tries, 0.9542 for 20).
        tries = np.log1p(-float(sampled_count[0])) / np.log1p(-1 / 7)
        assert tries >= 4 - 1e-4 and abs(tries - round(tries)) < 1e-3
        assert np.asarray(true_count).shape == (3, 1) and np.all(np.asarray(true_count) == sampled_count[0])


def test_without_removal_true_classes_can_be_drawn():
    labels = jax.numpy.array([[0], [2], [5]], jax.numpy.int32)
    hits = 0
    for seed in range(20):
        sampled, _, count = _uniform_candidates(jax.random.PRNGKey(seed), labels, 4, True, 7, False)
        hits += bool(set(np.asarray(sampled).tolist()) & {0, 2, 5})
        assert len(set(np.asarray(sampled).tolist())) == 4
    assert hits > 0
    sampled, _, count = _uniform_candidates(jax.random.PRNGKey(0), labels, 4, False, 7, False)
    np.testing.assert_allclose(np.asarray(count), np.full(4, 4 / 7, np.float32))  # MindSpore's 0.5714286


def test_remove_accidental_hits_with_too_few_free_classes_raises():
    loss = mindjax.nn.SampledSoftmaxLoss(num_sampled=5, num_classes=7)
    # Known only when the step runs: the sampler's host check raises then (through XLA's runtime error).
    with pytest.raises(Exception, match="only 4 classes could be drawn of 'num_sampled' \\(5\\)"):
        loss(*[mindjax.Tensor(v) for v in (WEIGHTS, BIASES, np.array([0, 2, 5], np.int32), INPUTS)])


@pytest.mark.parametrize("kwargs", [
    {"num_sampled": 4, "num_classes": 7, "num_true": 0}, {"num_sampled": 4, "num_classes": 7, "seed": -1},
    {"num_sampled": 8, "num_classes": 7}, {"num_sampled": 4, "num_classes": 7, "num_true": 8},
    {"num_sampled": 4, "num_classes": 7, "sampled_values": 1}, {"num_sampled": 4, "num_classes": 7,
                                                                 "sampled_values": (1, 2)},
    {"num_sampled": 4, "num_classes": 7, "reduction": "avg"},
])
def test_bad_constructor_argument_raises_mindspores_error(kwargs):
    with pytest.raises((TypeError, ValueError)) as theirs:
        mindspore.nn.SampledSoftmaxLoss(**kwargs)
    with pytest.raises(type(theirs.value), match="^For 'SampledSoftmaxLoss'") as ours:
        mindjax.nn.SampledSoftmaxLoss(**kwargs)
    if "reduction" not in kwargs:
        assert str(ours.value).replace(" ", "") == str(theirs.value).replace("amd", "and").replace(" ", "")


def test_float_labels_are_rejected_naming_the_loss():
    loss = mindjax.nn.SampledSoftmaxLoss(num_sampled=2, num_classes=7)
    with pytest.raises(TypeError, match="For 'SampledSoftmaxLoss', the dtype of 'labels' must be int32 or int64"):
        loss(*[mindjax.Tensor(v) for v in (WEIGHTS, BIASES, np.array([0.0, 2.0, 5.0], np.float32), INPUTS)])
