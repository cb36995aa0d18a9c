"""Same seed, same order; iterator positions saved as JSON and restored exactly."""
import json

import numpy as np
import pytest

import mindjax as ms
import mindjax.dataset as ds
from mindjax.dataset import vision
from tests.dataset.conftest import rows


def _pipeline(n=40):
    data = ds.NumpySlicesDataset({"img": np.arange(n * 4, dtype=np.uint8).reshape(n, 2, 2),
                                  "label": np.arange(n)})
    data = data.map(vision.RandomHorizontalFlip(), input_columns="img").shuffle(8)
    return data.batch(3)


def _labels(iterator, count=None):
    out = []
    for r in iterator:
        out.append(r[1].tolist())
        if count is not None and len(out) == count:
            break
    return out


def test_same_dataset_seed_gives_same_order_and_augmentation():
    ds.config.set_seed(7)
    a = rows(_pipeline())
    ds.config.set_seed(7)
    b = rows(_pipeline())
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(a, b))
    ds.config.set_seed(8)
    c = rows(_pipeline())
    assert [r[1].tolist() for r in a] != [r[1].tolist() for r in c]


def test_ms_set_seed_seeds_the_dataset_too():
    ms.set_seed(3)
    a = [r[1].tolist() for r in rows(_pipeline())]
    ms.set_seed(4)
    b = [r[1].tolist() for r in rows(_pipeline())]
    ms.set_seed(3)
    assert [r[1].tolist() for r in rows(_pipeline())] == a and a != b
    ds.config.set_seed(3)
    assert ds.config.get_seed() == 3
    ms.set_seed(11)
    assert ds.config.get_seed() == 11  # the later call wins, as in MindSpore


def test_epochs_are_shuffled_differently_but_reproducibly():
    it = _pipeline().create_tuple_iterator(output_numpy=True, num_epochs=2)
    e0, e1 = _labels(it), _labels(it)
    assert e0 != e1 and sorted(sum(e0, [])) == sorted(sum(e1, []))
    again = _pipeline().create_tuple_iterator(output_numpy=True, num_epochs=2)
    assert _labels(again) == e0 and _labels(again) == e1


@pytest.mark.parametrize("cut", [2, 14, 16])
def test_tuple_iterator_resumes_exactly_from_json_state(cut):
    reference = _pipeline().create_tuple_iterator(output_numpy=True, num_epochs=3)
    expected = [_labels(reference) for _ in range(3)]
    flat = sum(expected, [])
    it = _pipeline().create_tuple_iterator(output_numpy=True, num_epochs=3)
    seen = []
    while len(seen) < cut:
        got = _labels(it, count=cut - len(seen))
        seen += got
    saved = json.loads(json.dumps(it.get_state()))
    it.stop()
    resumed = _pipeline().create_tuple_iterator(output_numpy=True, num_epochs=3)
    resumed.set_state(saved)
    rest = []
    for _ in range(4):  # a position at an epoch's end first finishes that epoch
        rest += _labels(resumed)
    assert seen + rest == flat


def test_iterable_source_resumes_by_replaying():
    def gen():
        for i in range(9):
            yield (np.array(i),)

    data = ds.GeneratorDataset(gen, ["x"]).batch(2)
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
    first = [r[0].tolist() for _, r in zip(range(3), it)]
    state = json.loads(json.dumps(it.get_state()))
    rest_expected = [r[0].tolist() for r in it] + [r[0].tolist() for r in it]
    again = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
    again.set_state(state)
    rest = [r[0].tolist() for r in again] + [r[0].tolist() for r in again]
    assert first == [[0, 1], [2, 3], [4, 5]] and rest == rest_expected
    assert rest == [[6, 7], [8], [0, 1], [2, 3], [4, 5], [6, 7], [8]]


def test_set_state_rejects_foreign_state():
    it = _pipeline().create_tuple_iterator(num_epochs=1)
    with pytest.raises(ValueError, match="expected a state from get_state"):
        it.set_state({"next_index": 3})


def test_sharding_by_process_index_is_disjoint(monkeypatch):
    import jax

    monkeypatch.setattr(jax.distributed, "is_initialized", lambda: True)
    monkeypatch.setattr(jax, "process_count", lambda: 2)
    parts = []
    for index in range(2):
        monkeypatch.setattr(jax, "process_index", lambda index=index: index)
        data = ds.NumpySlicesDataset({"x": np.arange(10)})
        assert (data.num_shards, data.shard_id) == (2, index)
        parts.append({int(r[0]) for r in rows(data)})
    assert parts[0].isdisjoint(parts[1]) and parts[0] | parts[1] == set(range(10))
