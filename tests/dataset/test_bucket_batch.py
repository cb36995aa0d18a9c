"""padded_batch and bucket_batch_by_length against hand-built batches."""
import numpy as np
import pytest

import mindjax.dataset as ds


def _lengths(*ns):
    data = ds.NumpySlicesDataset({"n": np.array(ns)}, shuffle=False)
    return data.map(lambda n: (np.arange(1, int(n) + 1, dtype=np.int32), n), input_columns="n",
                    output_columns=["seq", "n"])


def _batches(data):
    return [(r["seq"].tolist(), r["n"].tolist()) for r in data.create_dict_iterator(output_numpy=True, num_epochs=1)]


def test_padded_batch_pads_to_the_longest_or_the_given_shape():
    got = _batches(_lengths(1, 3, 2).padded_batch(2))
    assert got == [([[1, 0, 0], [1, 2, 3]], [1, 3]), ([[1, 2]], [2])]
    got = _batches(_lengths(1, 2).padded_batch(2, pad_info={"seq": ([4], -1)}))
    assert got == [([[1, -1, -1, -1], [1, 2, -1, -1]], [1, 2])]
    with pytest.raises(RuntimeError, match="larger than the padded shape"):
        _batches(_lengths(5).padded_batch(1, pad_info={"seq": ([2], 0)}))
    with pytest.raises(ValueError, match="pad_info column 'zz' is not in"):
        _lengths(1).padded_batch(1, pad_info={"zz": (None, 0)})


def test_bucket_batch_by_length_groups_and_pads_per_bucket():
    data = _lengths(1, 4, 2, 5, 1, 6).bucket_batch_by_length(["seq"], [3], [2, 2], pad_info={})
    got = _batches(data)
    # bucket 0: lengths < 3, bucket 1: >= 3; each emits at 2 rows, leftovers at the end
    assert got == [([[1, 0], [1, 2]], [1, 2]), ([[1, 2, 3, 4, 0], [1, 2, 3, 4, 5]], [4, 5]),
                   ([[1]], [1]), ([[1, 2, 3, 4, 5, 6]], [6])]
    dropped = _batches(_lengths(1, 4, 2, 5, 1, 6).bucket_batch_by_length(["seq"], [3], [2, 2], pad_info={},
                                                                          drop_remainder=True))
    assert len(dropped) == 2
    boundary = _batches(_lengths(1, 2).bucket_batch_by_length(["seq"], [4], [2, 2], pad_info={},
                                                               pad_to_bucket_boundary=True))
    assert boundary[0][0] == [[1, 0, 0], [1, 2, 0]]
    by_fn = _batches(_lengths(1, 4, 2).bucket_batch_by_length(["n"], [3], [3, 3], lambda n: int(n), pad_info={}))
    assert [b[1] for b in by_fn] == [[1, 2], [4]]
    assert _lengths(1, 4, 2).bucket_batch_by_length(["seq"], [3], [2, 2], pad_info={}).get_dataset_size() == 2


def test_bucket_batch_by_length_argument_errors():
    data = _lengths(1)
    with pytest.raises(ValueError, match="must have one more element"):
        data.bucket_batch_by_length(["seq"], [3], [2])
    with pytest.raises(ValueError, match="strictly increasing"):
        data.bucket_batch_by_length(["seq"], [3, 3], [1, 1, 1])
    with pytest.raises(ValueError, match="column 'x' is not in"):
        data.bucket_batch_by_length(["x"], [3], [1, 1])



def test_sync_wait_releases_one_batch_per_sync_update_and_calls_back():
    seen = []

    class Augment:
        def __init__(self):
            self.loss = 0

        def update(self, data):
            self.loss = data["loss"]

        def preprocess(self, x):
            seen.append(self.loss)
            return x

    aug = Augment()
    data = ds.NumpySlicesDataset({"input": np.arange(8)}, shuffle=False)
    data = data.sync_wait(condition_name="policy", callback=aug.update)
    data = data.map(operations=[aug.preprocess], input_columns=["input"]).batch(4)
    count = 0
    for row in data.create_dict_iterator(num_epochs=1, output_numpy=True):
        assert row["input"][0] == count
        count += 4
        data.sync_update(condition_name="policy", data={"loss": count})
    assert count == 8
    # the second batch's rows were mapped after the first update
    assert seen[:4] == [0, 0, 0, 0] and seen[4:] == [4, 4, 4, 4]
    with pytest.raises(RuntimeError, match="no sync_wait named 'other'"):
        data.sync_update("other")


def test_sync_wait_times_out_without_updates():
    ds.config.set_data_timeout(1)
    data = ds.NumpySlicesDataset({"x": np.arange(4)}, shuffle=False).sync_wait("c").batch(2)
    with pytest.raises(RuntimeError, match="waited 1.0 s for sync_update"):
        list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))
    with pytest.raises(ValueError, match="'num_batch' must be a positive int"):
        ds.NumpySlicesDataset({"x": [1]}).sync_wait("c", num_batch=0)
