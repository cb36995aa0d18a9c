"""``sampler=`` on sources: MindSpore's built-in samplers, index lists, sizes, epochs, resume and errors."""
import numpy as np
import pytest

import mindjax.dataset as ds
from mindjax.dataset.sources import MappableSourceDataset
from tests.dataset.conftest import make_mnist


class _Squares:
    """A random-access source: row i is (i, i * i)."""

    def __len__(self):
        return 10

    def __getitem__(self, i):
        return np.array(i, np.int64), np.array(i * i, np.int64)


def _slices(n=10, **kwargs):
    return ds.NumpySlicesDataset({"x": np.arange(n, dtype=np.int64)}, **kwargs)


def _epochs(data, epochs=2):
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=epochs)
    return [[int(r[0]) for r in it] for _ in range(epochs)]


def test_sequential_sampler_reads_from_start_index_and_limits_to_num_samples():
    data = _slices(sampler=ds.SequentialSampler(start_index=3, num_samples=4))
    assert data.get_dataset_size() == 4
    assert _epochs(data) == [[3, 4, 5, 6]] * 2
    tail = _slices(sampler=ds.SequentialSampler(start_index=7))
    assert tail.get_dataset_size() == 3 and _epochs(tail, 1) == [[7, 8, 9]]


def test_random_sampler_is_a_seeded_permutation_that_changes_per_epoch():
    ds.config.set_seed(4)
    first = _epochs(_slices(sampler=ds.RandomSampler()))
    assert sorted(first[0]) == list(range(10)) and sorted(first[1]) == list(range(10))
    assert first[0] != first[1]
    ds.config.set_seed(4)
    assert _epochs(_slices(sampler=ds.RandomSampler())) == first
    ds.config.set_seed(5)
    assert _epochs(_slices(sampler=ds.RandomSampler())) != first


def test_random_sampler_num_samples_and_replacement():
    ds.config.set_seed(1)
    data = _slices(sampler=ds.RandomSampler(num_samples=4))
    assert data.get_dataset_size() == 4
    rows = _epochs(data, 1)[0]
    assert len(rows) == 4 and len(set(rows)) == 4
    capped = _slices(sampler=ds.RandomSampler(replacement=True, num_samples=50))
    assert capped.get_dataset_size() == 10  # MindSpore caps num_samples at the source length
    drawn = _epochs(_slices(n=3, sampler=ds.RandomSampler(replacement=True)), 3)
    assert all(len(e) == 3 and set(e) <= {0, 1, 2} for e in drawn)


def test_distributed_sampler_shards_are_disjoint_and_padded_by_wrapping():
    shards = [_epochs(_slices(sampler=ds.DistributedSampler(3, s, shuffle=False)), 1)[0] for s in range(3)]
    assert shards == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]
    ds.config.set_seed(7)
    shuffled = [_epochs(_slices(sampler=ds.DistributedSampler(4, s)))for s in range(4)]
    for epoch in range(2):
        rows = [r for shard in shuffled for r in shard[epoch][:2]]  # ceil(10 / 4) = 3; the first 2 never pad
        assert len(set(rows)) == 8
        assert set(r for shard in shuffled for r in shard[epoch]) == set(range(10))
    assert shuffled[0][0] != shuffled[0][1]
    limited = _slices(sampler=ds.DistributedSampler(3, 1, shuffle=False, num_samples=2))
    assert limited.get_dataset_size() == 2 and _epochs(limited, 1) == [[1, 4]]


def test_distributed_sampler_matches_shuffle_false_sharding():
    plain = _epochs(_slices(n=11, shuffle=False, num_shards=4, shard_id=3), 1)
    assert _epochs(_slices(n=11, sampler=ds.DistributedSampler(4, 3, shuffle=False)), 1) == plain


def test_subset_samplers_read_the_given_indices():
    data = _slices(sampler=ds.SubsetSampler([7, 2, 2, 9], num_samples=3))
    assert data.get_dataset_size() == 3 and _epochs(data) == [[7, 2, 2]] * 2
    ds.config.set_seed(3)
    rand = _epochs(_slices(sampler=ds.SubsetRandomSampler([1, 3, 5, 7, 9, 0])), 3)
    assert all(sorted(e) == [0, 1, 3, 5, 7, 9] for e in rand)
    assert len({tuple(e) for e in rand}) > 1
    assert ds.SubsetRandomSampler(range(6), num_samples=4).get_num_samples() == 4


def test_weighted_random_sampler_draws_only_weighted_rows():
    ds.config.set_seed(2)
    data = _slices(sampler=ds.WeightedRandomSampler([0, 1, 0, 3], num_samples=20))
    assert data.get_dataset_size() == 10
    rows = _epochs(data, 2)
    assert all(set(e) <= {1, 3} for e in rows) and rows[0] != rows[1]
    no_repeat = _epochs(_slices(sampler=ds.WeightedRandomSampler([1, 1, 2, 0], num_samples=3,
                                                                 replacement=False)), 1)[0]
    assert sorted(no_repeat) == [0, 1, 2]


def test_an_index_list_is_a_subset_sampler_for_generator_dataset():
    data = ds.GeneratorDataset(_Squares(), ["i", "sq"], sampler=[4, 1, 8], num_samples=2)
    assert data.get_dataset_size() == 2
    rows = [(int(a), int(b)) for a, b in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    assert rows == [(4, 16), (1, 1)]
    assert _epochs(_slices(sampler=np.array([5, 0])), 1) == [[5, 0]]


def test_sampler_chain_samples_over_the_child():
    parent = ds.SequentialSampler(num_samples=3)
    parent.add_child(ds.SubsetSampler([9, 8, 7, 6, 5]))
    assert parent.get_num_samples() == 3 and parent.get_child() is not None
    assert _epochs(_slices(sampler=parent), 1) == [[9, 8, 7]]
    with pytest.raises(RuntimeError, match="already has one"):
        parent.add_child(ds.RandomSampler())


@pytest.mark.parametrize("make", [lambda: ds.RandomSampler(), lambda: ds.DistributedSampler(3, 1),
                                  lambda: ds.SubsetRandomSampler([2, 4, 6, 8, 9, 1]),
                                  lambda: ds.WeightedRandomSampler([1, 2, 3, 4, 5]),
                                  lambda: ds.SequentialSampler(2, 5)])
def test_whole_batch_fast_path_equals_row_by_row(monkeypatch, tmp_path, make):
    ds.config.set_seed(9)
    make_mnist(str(tmp_path), n_train=11)

    def pipeline():
        return ds.MnistDataset(str(tmp_path), usage="train", sampler=make()).batch(2)

    def read():
        it = pipeline().create_tuple_iterator(output_numpy=True, num_epochs=2)
        return [[(img.copy(), lab.copy()) for img, lab in it] for _ in range(2)]

    fast = read()
    with monkeypatch.context() as m:
        m.setattr(MappableSourceDataset, "_batch_reader", lambda self, ctx, path: None)
        slow = read()
    assert len(fast) == len(slow) == 2 and len(fast[0]) == pipeline().get_dataset_size() > 0
    for ea, eb in zip(fast, slow):
        assert len(ea) == len(eb)
        for (ia, la), (ib, lb) in zip(ea, eb):
            np.testing.assert_array_equal(ia, ib)
            np.testing.assert_array_equal(la, lb)


def test_resume_from_saved_state_with_a_random_sampler():
    ds.config.set_seed(6)
    data = _slices(n=13, sampler=ds.RandomSampler()).batch(3)
    it = data.create_tuple_iterator(output_numpy=True)
    for _ in range(2):
        next(it)
    state = it.get_state()
    expected = [r[0] for r in it] + [r[0] for r in it]
    again = data.create_tuple_iterator(output_numpy=True)
    again.set_state(state)
    got = [r[0] for r in again] + [r[0] for r in again]
    assert len(got) == len(expected) == 3 + 5
    for a, b in zip(got, expected):
        np.testing.assert_array_equal(a, b)


def test_sampler_with_shuffle_sharding_or_num_samples_raises():
    with pytest.raises(RuntimeError, match="sampler and shuffle cannot be specified at the same time"):
        _slices(sampler=ds.RandomSampler(), shuffle=False)
    with pytest.raises(RuntimeError, match="sampler and sharding cannot be specified"):
        _slices(sampler=ds.SequentialSampler(), num_shards=2, shard_id=0)
    with pytest.raises(ValueError, match="sampler and num_samples cannot be specified"):
        _slices(sampler=ds.SequentialSampler(), num_samples=3)
    with pytest.raises(TypeError, match="'sampler' must be a sampler from mindjax.dataset or an iterable"):
        _slices(sampler=1.5)
    with pytest.raises(ValueError, match="'sampler' needs a random-access source"):
        ds.GeneratorDataset(lambda: iter([1, 2]), ["x"], sampler=ds.SequentialSampler())


def test_bad_sampler_arguments_raise_naming_the_argument():
    with pytest.raises(TypeError, match="'num_samples' must be an int"):
        ds.RandomSampler(num_samples=2.0)
    with pytest.raises(ValueError, match=r"'num_samples' must be in \[0, "):
        ds.SequentialSampler(num_samples=-1)
    with pytest.raises(TypeError, match="'replacement' must be a bool"):
        ds.RandomSampler(replacement=1)
    with pytest.raises(TypeError, match="'start_index' must be an int"):
        ds.SequentialSampler(start_index="0")
    with pytest.raises(RuntimeError, match="'start_index' must be >= 0"):
        ds.SequentialSampler(start_index=-1)
    with pytest.raises(TypeError, match="'shard_id' must be an int"):
        ds.DistributedSampler(2, None)
    with pytest.raises(RuntimeError, match=r"'shard_id' must be in \[0, 2\), got 2"):
        ds.DistributedSampler(2, 2)
    with pytest.raises(RuntimeError, match="'num_shards' must be a positive int"):
        ds.DistributedSampler(0, 0)
    with pytest.raises(TypeError, match="every index must be an int, got 1.5"):
        ds.SubsetSampler([0, 1.5])
    with pytest.raises(TypeError, match="'indices' must be an iterable of int"):
        ds.SubsetRandomSampler("012")
    with pytest.raises(TypeError, match="every weight must be a number"):
        ds.WeightedRandomSampler([1, "a"])
    with pytest.raises(RuntimeError, match="must not be all zero"):
        ds.WeightedRandomSampler([0, 0])
    with pytest.raises(RuntimeError, match="must be finite and non-negative"):
        ds.WeightedRandomSampler([1, -1])
    with pytest.raises(NotImplementedError, match="'num_class' is not supported"):
        ds.PKSampler(2, num_class=3)
    with pytest.raises(TypeError, match="For 'PKSampler', 'num_val' must be an int, got 1.5"):
        ds.PKSampler(1.5)
    with pytest.raises(RuntimeError, match="'num_val' .* must be a positive int, got 0"):
        ds.PKSampler(0)
    with pytest.raises(TypeError, match="'shuffle' must be a bool"):
        ds.PKSampler(2, shuffle=1)


def test_sampler_that_does_not_fit_the_source_raises_at_use():
    with pytest.raises(RuntimeError, match="sample index 12 is out of range: the source has 10 rows"):
        _epochs(_slices(sampler=ds.SubsetSampler([1, 12])), 1)
    with pytest.raises(RuntimeError, match="'start_index' must be less than the number of rows 10, got 10"):
        _slices(sampler=ds.SequentialSampler(start_index=10)).get_dataset_size()
    with pytest.raises(RuntimeError, match="there are 12 weights but the source has only 10 rows"):
        _epochs(_slices(sampler=ds.WeightedRandomSampler([1] * 12)), 1)


class _EveryOther(ds.Sampler):
    """A user sampler: every other row, from the end."""

    def __iter__(self):
        return iter(range(self.dataset_size - 1, -1, -2))


def test_user_sampler_subclass_yields_the_rows_per_epoch():
    data = ds.NumpySlicesDataset({"x": np.arange(7)}, sampler=_EveryOther())
    assert data.get_dataset_size() == 4
    rows = [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    assert rows == [6, 4, 2, 0]
    limited = ds.NumpySlicesDataset({"x": np.arange(7)}, sampler=_EveryOther(num_samples=2)).batch(2)
    assert [r[0].tolist() for r in limited.create_tuple_iterator(output_numpy=True, num_epochs=1)] == [[6, 4]]


def test_user_sampler_errors_name_the_sampler():
    class Outside(ds.Sampler):
        def __iter__(self):
            return iter([0, 9])

    with pytest.raises(RuntimeError, match="For 'Outside', sample index 9 is out of range: the source has 3 rows"):
        list(ds.NumpySlicesDataset({"x": np.arange(3)}, sampler=Outside()).create_tuple_iterator(num_epochs=1))
    with pytest.raises(NotImplementedError, match="a Sampler must define __iter__"):
        ds.NumpySlicesDataset({"x": np.arange(3)}, sampler=ds.Sampler()).get_dataset_size()
