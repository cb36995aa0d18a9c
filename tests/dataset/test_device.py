"""device_iterator: device batches ahead of use, sharded over a mesh, stacked for sink mode, resumable."""
import json

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

import mindjax.dataset as ds


def _data(n=40, batch=8, drop=True):
    data = ds.NumpySlicesDataset({"x": np.arange(n * 2, dtype=np.float32).reshape(n, 2),
                                  "y": np.arange(n, dtype=np.int32)})
    return data.batch(batch, drop_remainder=drop)


def test_device_iterator_yields_device_batches_across_epochs():
    data = _data()
    host = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
    expected = [r[1].tolist() for r in host] + [r[1].tolist() for r in host]
    with data.device_iterator(num_epochs=2) as it:
        assert it.steps_per_epoch == 5
        got = list(it)
    assert all(isinstance(b[0], jax.Array) and b[0].shape == (8, 2) for b in got)
    assert [b[1].tolist() for b in got] == expected


def test_device_iterator_shards_the_batch_axis_over_the_mesh():
    mesh = Mesh(np.array(jax.devices()[:8]), ("data",))
    sharding = NamedSharding(mesh, P("data"))
    with _data().device_iterator(sharding=sharding, num_epochs=1) as it:
        x, y = next(it)
    assert x.sharding.is_equivalent_to(sharding, 2) and len(x.addressable_shards) == 8
    assert x.addressable_shards[0].data.shape == (1, 2)
    with _data().device_iterator(sharding=sharding, stack=2, num_epochs=1) as it:
        xs, _ = next(it)
    assert xs.shape == (2, 8, 2) and xs.sharding.spec == P(None, "data")


def test_stacked_blocks_split_where_batch_shapes_change():
    data = _data(n=20, batch=8, drop=False)  # batches of 8, 8, 4
    with data.device_iterator(stack=4, num_epochs=2) as it:
        shapes = [b[0].shape for b in it]
    assert shapes == [(2, 8, 2), (1, 4, 2), (2, 8, 2), (1, 4, 2)]


def test_device_iterator_state_resumes_at_the_next_unread_batch():
    data = _data()
    with data.device_iterator(num_epochs=2) as it:
        head = [next(it)[1].tolist() for _ in range(3)]
        state = json.loads(json.dumps(it.get_state()))
        rest = [b[1].tolist() for b in it]
    with data.device_iterator(num_epochs=2) as again:
        again.set_state(state)
        assert [b[1].tolist() for b in again] == rest
    assert len(head) + len(rest) == 10
