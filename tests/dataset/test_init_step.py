"""Dataset.set_init_step: iterators start at a global step with that epoch's shuffle, as in MindSpore."""
import numpy as np
import pytest

import mindjax.dataset as ds


def _epochs(data, num_epochs):
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=num_epochs)
    return [[int(r[0]) for r in it] for _ in range(num_epochs)]


@pytest.mark.parametrize("source", ["mappable", "iterable"])
def test_init_step_resumes_inside_an_epoch_with_that_epochs_order(source):
    ds.config.set_seed(3)
    if source == "mappable":
        data = ds.NumpySlicesDataset({"x": np.arange(10)}, shuffle=True)
    else:
        data = ds.GeneratorDataset(lambda: iter([(np.array(i),) for i in range(10)]), ["x"]).shuffle(4)
    full = _epochs(data, 3)
    assert full[0] != full[1]
    data.set_init_step(14)
    assert data.get_init_step() == 14
    resumed = _epochs(data, 2)
    assert resumed == [full[1][4:], full[2]]


def test_init_step_is_inherited_through_operations_and_batches_count_steps():
    data = ds.NumpySlicesDataset({"x": np.arange(8)}, shuffle=False).batch(2)
    mapped = data.map(lambda x: x + 100, input_columns="x")
    data.set_init_step(5)
    assert mapped.get_init_step() == 5
    got = [r[0].tolist() for r in mapped.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    assert got == [[102, 103], [104, 105], [106, 107]]


def test_init_step_rejects_negative():
    with pytest.raises(TypeError, match="For 'set_init_step', 'init_step' must be an int >= 0, got -1"):
        ds.NumpySlicesDataset({"x": [1]}).set_init_step(-1)


def test_device_iterator_starts_at_the_init_step_and_says_where_in_the_epoch():
    data = ds.NumpySlicesDataset({"x": np.arange(10, dtype=np.int32)}, shuffle=False)
    data.set_init_step(13)
    with data.device_iterator(num_epochs=2) as it:
        assert it.initial_step_in_epoch == 3 and it.steps_per_epoch == 10
        assert [int(np.asarray(b[0])) for b in it] == list(range(3, 10)) + list(range(10))
