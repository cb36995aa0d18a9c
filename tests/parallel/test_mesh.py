"""The global mesh: every device, prime axes in rank order, device matrices laid row-major."""
import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax.parallel import mesh


def test_mesh_covers_every_device_in_rank_order():
    m = mesh.get_mesh()
    assert mesh.get_device_num() == jax.device_count() == 8
    assert dict(m.shape) == {"d0": 2, "d1": 2, "d2": 2}
    assert [d.id for d in m.devices.flat] == [d.id for d in jax.devices()]


def test_device_num_from_context_shrinks_the_mesh():
    ms.set_auto_parallel_context(device_num=4)
    assert mesh.get_mesh().devices.size == 4
    ms.set_auto_parallel_context(device_num=16)
    with pytest.raises(ValueError, match="'device_num' must be at most the 8"):
        mesh.get_mesh()


def test_device_matrix_maps_to_consecutive_prime_axes():
    assert mesh.device_matrix_axes((2, 4)) == [("d0",), ("d1", "d2")]
    assert mesh.device_matrix_axes((2, 1, 4)) == [("d0",), (), ("d1", "d2")]
    assert mesh.device_matrix_axes((2,)) == [("d0",)]   # repeated over d1, d2
    with pytest.raises(ValueError, match=r"device matrix \(3,\).*must divide the device number 8"):
        mesh.device_matrix_axes((3,))


def test_create_mesh_names_axes_in_rank_order():
    m = mesh.create_mesh((2, 4), ("dp", "mp"))
    assert m.axis_names == ("dp", "mp")
    assert np.array([d.id for d in m.devices.flat]).tolist() == list(range(8))
    with pytest.raises(ValueError, match="product of 'shape'"):
        mesh.create_mesh((2, 2), ("dp", "mp"))
