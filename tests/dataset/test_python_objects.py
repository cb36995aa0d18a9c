"""Python-object columns: dict values stay dicts through the pipeline, as in MindSpore 2.10."""
import numpy as np

import mindjax.dataset as ds
from mindjax.common.tensor import Tensor
from tests.dataset.conftest import rows


def _with_dicts(n=3):
    return ds.GeneratorDataset([({"id": i, "tags": ["a", "b"][: i + 1], "w": np.ones(2) * i}, np.array(i))
                                for i in range(n)], ["meta", "label"], shuffle=False)


def test_dict_column_stays_a_dict_with_its_values_converted_at_the_iterator():
    got = list(_with_dicts().create_tuple_iterator(num_epochs=1))
    meta = got[1][0]
    assert isinstance(meta, dict) and set(meta) == {"id", "tags", "w"}
    assert isinstance(meta["id"], Tensor) and int(np.asarray(meta["id"])) == 1
    assert isinstance(meta["tags"], list) and [str(t) for t in meta["tags"]] == ["a", "b"]
    np.testing.assert_array_equal(np.asarray(meta["w"]), [1.0, 1.0])


def test_dict_column_with_output_numpy_holds_numpy_values():
    meta = rows(_with_dicts())[2][0]
    assert isinstance(meta["id"], np.ndarray) and meta["id"].dtype == np.int64
    assert meta["w"].dtype == np.float64


def test_batch_of_a_dict_column_is_the_list_of_its_dicts():
    batches = rows(_with_dicts().batch(2))
    assert isinstance(batches[0][0], list) and [int(m["id"]) for m in batches[0][0]] == [0, 1]
    assert batches[0][1].tolist() == [0, 1] and len(batches[1][0]) == 1


def test_map_may_return_a_dict_and_read_one():
    data = ds.NumpySlicesDataset({"x": [1, 2]}, shuffle=False)
    data = data.map(lambda x: {"double": int(x) * 2}, input_columns="x", output_columns="d")
    data = data.map(lambda d: np.array(d["double"] + 1), input_columns="d", output_columns="e")
    assert [int(r[0]) for r in rows(data)] == [3, 5]


def test_numpy_64_bit_columns_keep_their_dtype_in_the_pipeline():
    data = ds.GeneratorDataset([(np.float64(0.5), 3, np.ones(2, np.int64))], ["f", "i", "a"], shuffle=False)
    f, i, a = rows(data)[0]
    assert (f.dtype, i.dtype, a.dtype) == (np.float64, np.int64, np.int64)
    assert data.output_types() == [np.float64, np.int64, np.int64]
