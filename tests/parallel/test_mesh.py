"""The global mesh: every device, prime axes in rank order, device matrices laid row-major."""
import itertools

import jax
import numpy as np
import pytest
from jax.sharding import PartitionSpec as P

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


def test_power_of_two_device_matrices_always_use_the_global_mesh_axes():
    names = set(mesh.mesh_axis_names())
    for dims in itertools.product((1, 2, 4, 8), repeat=2):
        if dims[0] * dims[1] <= 8:
            assert {a for group in mesh.device_matrix_axes(dims) for a in group} <= names


def test_device_matrix_fitting_no_grouping_gets_a_reordered_mesh_over_the_same_devices():
    ms.set_auto_parallel_context(device_num=6)
    assert dict(mesh.get_mesh().shape) == {"d0": 2, "d1": 3}
    assert mesh.device_matrix_axes((2, 3)) == [("d0",), ("d1",)]
    assert mesh.device_matrix_axes((3, 2)) == [("d0_3x2",), ("d1_3x2",)]
    assert mesh.device_matrix_axes((3,)) == [("d0_3x2",)]   # repeated over the fastest axis
    sharding = mesh.named_sharding(P("d0_3x2", "d1_3x2"))
    assert dict(sharding.mesh.shape) == {"d0_3x2": 3, "d1_3x2": 2}
    assert [d.id for d in sharding.mesh.devices.flat] == [d.id for d in mesh.get_devices()]
    assert mesh.is_device_mesh(sharding.mesh) and not mesh.is_device_mesh(mesh.create_mesh((6,), ("x",)))
    assert mesh.named_sharding(P("d0", None)).mesh is mesh.get_mesh()
    with pytest.raises(ValueError, match=r"device matrix \(4,\).*must divide the device number 6"):
        mesh.device_matrix_axes((4,))
    with pytest.raises(ValueError, match="belong to different device orders"):
        mesh.mesh_of_axes(("d0_3x2", "d0_2x3"))


def test_create_mesh_names_axes_in_rank_order():
    m = mesh.create_mesh((2, 4), ("dp", "mp"))
    assert m.axis_names == ("dp", "mp")
    assert np.array([d.id for d in m.devices.flat]).tolist() == list(range(8))
    with pytest.raises(ValueError, match="product of 'shape'"):
        mesh.create_mesh((2, 2), ("dp", "mp"))
