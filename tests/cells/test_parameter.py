"""Parameter: naming, set_data, clone, array behaviour, pytree."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import ParameterTuple


def test_unnamed_parameters_get_unique_default_names():
    a, b = ms.Parameter(jnp.ones(2)), ms.Parameter(jnp.ones(2))
    assert a.name.startswith("Parameter#") and a.name != b.name
    assert ms.Parameter(jnp.ones(2), name="w").name == "w"


def test_set_data_casts_to_the_parameter_dtype_and_may_change_shape():
    p = ms.Parameter(ms.Tensor(np.ones((2, 3)), ms.float32), name="q")
    p.set_data(ms.Tensor(np.full((2, 3), 2), ms.int32))
    assert p.dtype == ms.float32 and float(p.sum()) == 12
    p.set_data(ms.Tensor(np.ones((3, 3)), ms.float32))
    assert p.shape == (3, 3)


def test_parameter_behaves_as_an_array():
    p = ms.Parameter(ms.Tensor(np.arange(4.0).reshape(2, 2)), name="p")
    np.testing.assert_array_equal(p + 1, np.arange(4.0).reshape(2, 2) + 1)
    np.testing.assert_array_equal(2 * p, np.arange(4.0).reshape(2, 2) * 2)
    np.testing.assert_array_equal(jnp.dot(jnp.ones(2), p), [2.0, 4.0])
    np.testing.assert_array_equal(p @ jnp.ones(2), [1.0, 5.0])
    assert p.reshape(4).shape == (4,)
    assert p.asnumpy().shape == (2, 2) and p.value().shape == (2, 2)
    assert isinstance(p, ms.Tensor) and p.data is p
    p[0, 0] = 9.0
    assert float(p[0, 0]) == 9.0


def test_requires_grad_and_repr():
    p = ms.Parameter(ms.Tensor(np.ones(3), ms.float32), name="bias", requires_grad=False)
    assert p.requires_grad is False
    assert repr(p) == "Parameter (name=bias, shape=(3,), dtype=Float32, requires_grad=False)"


def test_clone_copies_value_and_flags_independently():
    p = ms.Parameter(ms.Tensor(np.ones(3)), name="w", requires_grad=False)
    c = p.clone()
    c.set_data(c * 5)
    assert c.name == "w" and c.requires_grad is False
    assert float(p.sum()) == 3 and float(c.sum()) == 15
    z = p.clone(init="zeros")
    assert float(z.sum()) == 0


def test_parameter_is_a_pytree_with_its_value_as_leaf():
    p = ms.Parameter(jnp.ones(3), name="w")
    leaves = jax.tree_util.tree_leaves([p])
    assert len(leaves) == 1 and leaves[0].shape == (3,)
    doubled = jax.tree_util.tree_map(lambda x: x * 2, p)
    assert isinstance(doubled, ms.Parameter) and doubled.name == "w"


def test_parameter_tuple_clone_prefixes_names_and_rejects_non_parameters():
    params = ParameterTuple([ms.Parameter(jnp.ones(2), name="a.w"), ms.Parameter(jnp.ones(2), name="b")])
    moments = params.clone(prefix="moments", init="zeros")
    assert [m.name for m in moments] == ["moments.a.w", "moments.b"]
    with pytest.raises(TypeError, match="element 1 must be a Parameter"):
        ParameterTuple([params[0], jnp.ones(2)])


def test_bad_name_is_rejected():
    with pytest.raises(ValueError, match="'name' must be a str"):
        ms.Parameter(jnp.ones(2), name=3)


def test_clone_keeps_the_layout_so_optimizer_states_follow_their_parameter():
    from jax.sharding import NamedSharding, PartitionSpec
    mesh = jax.make_mesh((8,), ("mp",))
    p = ms.Parameter(jnp.ones((8, 2)), name="table")
    p.sharding = NamedSharding(mesh, PartitionSpec("mp"))
    moments = ParameterTuple([p]).clone(prefix="moments", init="zeros")
    assert moments[0].sharding == p.sharding


def test_unnamed_parameters_of_a_parameter_tuple_attribute_are_named_parameter_dollar_n():
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.named = ms.Parameter(ms.Tensor([1.0], ms.float32), name="name_a")
            self.first = ms.ParameterTuple((ms.Parameter(ms.Tensor([2.0], ms.float32)), self.named))
            self.second = ms.ParameterTuple((ms.Parameter(ms.Tensor([3.0], ms.float32)),
                                             ms.Parameter(ms.Tensor([4.0], ms.float32))))

    net = Net()
    assert [p.name for p in net.first] == ["Parameter$1", "name_a"]
    assert [p.name for p in net.second] == ["Parameter$2", "Parameter$3"]
    assert list(net.parameters_dict()) == ["name_a", "Parameter$1", "Parameter$2", "Parameter$3"]


def test_parameter_tuple_attribute_with_two_members_of_one_name_raises():
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.pair = ms.ParameterTuple((ms.Parameter(ms.Tensor([1.0], ms.float32), name="a"),
                                           ms.Parameter(ms.Tensor([2.0], ms.float32), name="a")))

    with pytest.raises(ValueError, match="its name 'a' already exists"):
        Net()


def test_parameter_value_is_a_tensor_snapshot_for_mindspore_code():
    p = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="p")
    v = p.value()
    assert type(v) is ms.Tensor and v.asnumpy().tolist() == [1.0, 2.0]
    p.set_data(ms.Tensor(np.array([3.0, 4.0], np.float32)))
    assert p.value().asnumpy().tolist() == [3.0, 4.0]
