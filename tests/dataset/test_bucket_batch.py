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
    with pytest.raises(NotImplementedError, match="sync_wait is not supported"):
        data.sync_wait("policy")
