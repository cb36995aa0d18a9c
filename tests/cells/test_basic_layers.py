"""Dense, Flatten, Unflatten, Dropout, Identity and Embedding: shapes, defaults, modes, errors."""
import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


class _Net(nn.Cell):
    def __init__(self, p=0.5):
        super().__init__()
        self.fc1 = nn.Dense(4, 3, activation="relu")
        self.drop = nn.Dropout(p=p)

    def construct(self, x):
        return self.drop(self.fc1(x))


def test_dense_weight_is_out_by_in_and_named_like_mindspore():
    fc = nn.Dense(4, 3)
    assert fc.weight.shape == (3, 4) and fc.bias.shape == (3,)
    assert [p.name for p in fc.get_parameters()] == ["weight", "bias"]
    assert [p.name for p in _Net().get_parameters()] == ["fc1.weight", "fc1.bias"]
    assert nn.Dense(4, 3, has_bias=False).bias is None


def test_dense_default_initializers_are_bounded_by_one_over_sqrt_fan_in():
    fc = nn.Dense(100, 200)
    bound = 1 / math.sqrt(100)
    for p in (fc.weight, fc.bias):
        values = p.asnumpy()
        assert np.abs(values).max() <= bound and np.abs(values).max() > 0.8 * bound


def test_dense_forward_is_x_times_weight_transposed_plus_bias(mode):
    fc = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")
    fc.bias.set_data(jnp.array([1.0, 2.0, 3.0]))
    x = jnp.arange(24.0).reshape(2, 3, 4)
    out = fc(x)
    assert out.shape == (2, 3, 3)
    np.testing.assert_allclose(out, x.sum(-1, keepdims=True) + jnp.array([1.0, 2.0, 3.0]))


def test_dense_applies_string_or_cell_activation(mode):
    x = jnp.array([[-1.0, 2.0]])
    by_name = nn.Dense(2, 2, weight_init=np.eye(2, dtype=np.float32), bias_init="zeros",
                       activation="relu")
    by_cell = nn.Dense(2, 2, weight_init=np.eye(2, dtype=np.float32), bias_init="zeros",
                       activation=nn.Tanh())
    np.testing.assert_allclose(by_name(x), [[0.0, 2.0]])
    np.testing.assert_allclose(by_cell(x), np.tanh([[-1.0, 2.0]]), rtol=1e-6)


def test_dense_rejects_wrong_input_width_naming_the_cell():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(400, 10)

        def construct(self, x):
            return self.fc1(x)

    with pytest.raises(ValueError, match=r"For 'Dense' at 'fc1', expected input of last dimension "
                                         r"400, got \(32, 256\)"):
        Net()(jnp.ones((32, 256)))


def test_dense_rejects_bad_constructor_arguments_naming_them():
    with pytest.raises(ValueError, match="'in_channels'"):
        nn.Dense(-1, 3)
    with pytest.raises(ValueError, match="'out_channels'"):
        nn.Dense(3, 0)
    with pytest.raises(ValueError, match="'activation'"):
        nn.Dense(3, 3, activation="nope")
    with pytest.raises(ValueError, match="'weight_init' must have shape"):
        nn.Dense(3, 2, weight_init=jnp.ones((3, 2)))
    with pytest.raises(TypeError, match="'activation'"):
        nn.Dense(3, 3, activation=5)


def test_dense_repr_names_channels_bias_and_activation():
    assert nn.Dense(3, 4).extend_repr() == "input_channels=3, output_channels=4, has_bias=True"
    assert "activation=ReLU" in nn.Dense(3, 4, activation="relu", has_bias=False).extend_repr()


def test_flatten_and_unflatten_shapes(mode):
    x = jnp.zeros((2, 3, 4, 5))
    assert nn.Flatten()(x).shape == (2, 60)
    assert nn.Flatten(0, 1)(x).shape == (6, 4, 5)
    assert nn.Flatten(-2)(x).shape == (2, 3, 20)
    assert nn.Flatten(0)(jnp.zeros(())).shape == (1,)
    assert nn.Unflatten(1, (3, 1))(x).shape == (2, 3, 1, 4, 5)
    assert nn.Unflatten(-1, [5, 1])(x).shape == (2, 3, 4, 5, 1)


def test_flatten_and_unflatten_reject_bad_dims_naming_the_cell():
    with pytest.raises(ValueError, match=r"For 'Flatten', 'start_dim' must be in \[-1, 0\]"):
        nn.Flatten()(jnp.zeros((3,)))
    with pytest.raises(ValueError, match="'start_dim' .* must not come after 'end_dim'"):
        nn.Flatten(2, 1)(jnp.zeros((2, 3, 4)))
    with pytest.raises(ValueError, match="product of 'unflattened_size'"):
        nn.Unflatten(1, (2, 2))(jnp.zeros((2, 6)))
    with pytest.raises(TypeError, match="'unflattened_size'"):
        nn.Unflatten(1, 6)


def test_identity_returns_its_input_whatever_it_was_built_with(mode):
    x = jnp.arange(3)
    np.testing.assert_array_equal(nn.Identity(1, 2, key="v")(x), x)


def test_dropout_is_identity_when_not_training(mode):
    x = jnp.ones((4, 5))
    np.testing.assert_array_equal(nn.Dropout(p=0.9)(x), x)
    drop = nn.Dropout(p=0.0).set_train()
    np.testing.assert_array_equal(drop(x), x)


def test_dropout_in_training_zeroes_about_p_and_scales_the_rest(mode):
    drop = nn.Dropout(p=0.25).set_train()
    out = np.asarray(drop(jnp.ones((100, 100))))
    np.testing.assert_allclose(np.unique(out), [0.0, 1 / 0.75], rtol=1e-6)
    assert abs((out == 0).mean() - 0.25) < 0.03
    old_style = np.asarray(nn.Dropout(keep_prob=0.8).set_train()(jnp.ones((100, 100))))
    assert abs((old_style == 0).mean() - 0.2) < 0.03


def test_dropout_draws_a_new_mask_each_call():
    drop = nn.Dropout(p=0.5).set_train()
    x = jnp.ones((32, 32))
    assert not np.array_equal(drop(x), drop(x))


def test_dropout_mask_is_the_same_in_graph_and_pynative_for_one_seed():
    net = _Net().set_train()
    x = jnp.ones((16, 4))
    ms.set_seed(5)
    eager = [np.asarray(net(x)) for _ in range(2)]
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(5)
    graph = [np.asarray(net(x)) for _ in range(2)]
    np.testing.assert_array_equal(eager[0], graph[0])
    np.testing.assert_array_equal(eager[1], graph[1])
    assert not np.array_equal(graph[0], graph[1])


def test_dropout_gradient_flows_only_through_kept_elements():
    drop = nn.Dropout(p=0.5).set_train()
    ms.set_seed(1)
    out = drop(jnp.ones((8, 8)))
    ms.set_seed(1)
    grad = jax.grad(lambda v: jnp.sum(drop(v)))(jnp.ones((8, 8)))
    np.testing.assert_array_equal(np.asarray(grad) != 0, np.asarray(out) != 0)


def test_dropout_rejects_out_of_range_probabilities_naming_them():
    with pytest.raises(ValueError, match=r"'p' must be in range \[0, 1\), got 1.0"):
        nn.Dropout(p=1.0)
    with pytest.raises(ValueError, match="'keep_prob' must be in range"):
        nn.Dropout(keep_prob=0.0)
    with pytest.raises(TypeError, match="'p'"):
        nn.Dropout(p="0.1")


def test_dropout_repr_matches_mindspore_text():
    assert nn.Dropout(p=0.3).extend_repr() == "p=0.3"
    assert nn.Dropout().extend_repr() == "keep_prob=0.5"


def test_embedding_table_name_shape_and_default_normal_init():
    emb = nn.Embedding(50, 8)
    assert [(p.name, p.shape) for p in emb.get_parameters()] == [("embedding_table", (50, 8))]
    assert 0.006 < emb.embedding_table.asnumpy().std() < 0.014


def test_embedding_looks_up_rows_with_gather_or_one_hot(mode):
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    ids = jnp.array([[0, 3], [2, 2]], jnp.int32)
    for one_hot in (False, True):
        emb = nn.Embedding(4, 3, use_one_hot=one_hot, embedding_table=jnp.asarray(table))
        out = emb(ids)
        assert out.shape == (2, 2, 3)
        np.testing.assert_allclose(out, table[np.asarray(ids)])


def test_embedding_padding_row_starts_at_zero():
    emb = nn.Embedding(6, 3, embedding_table="ones", padding_idx=4)
    assert not emb.embedding_table.asnumpy()[4].any()
    assert emb.embedding_table.asnumpy()[3].all()


def test_embedding_rejects_bad_arguments_naming_them():
    with pytest.raises(ValueError, match=r"'padding_idx' must be in range \[0, 5\)"):
        nn.Embedding(5, 2, padding_idx=5)
    with pytest.raises(ValueError, match="'vocab_size'"):
        nn.Embedding(0, 2)
    with pytest.raises(TypeError, match="'embedding_size'"):
        nn.Embedding(3, 2.0)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(5, 2)

        def construct(self, x):
            return self.emb(x)

    with pytest.raises(TypeError, match="For 'Embedding' at 'emb', 'ids' must be an integer"):
        Net()(jnp.zeros((2,), jnp.float32))


def test_embedding_repr_matches_mindspore_text():
    text = nn.Embedding(10, 4, padding_idx=2).extend_repr()
    assert text == ("vocab_size=10, embedding_size=4, use_one_hot=False, embedding_table="
                    "Parameter (name=embedding_table, shape=(10, 4), dtype=Float32, "
                    "requires_grad=True), dtype=Float32, padding_idx=2")


def test_matmul_cell_transposes_broadcasts_and_dots_vectors():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = nn.MatMul(transpose_x2=True)(ms.Tensor(a), ms.Tensor(b))
    np.testing.assert_allclose(out.asnumpy(), a @ b.T)
    v = np.array([1.0, 2.0, 3.0], np.float32)
    assert float(nn.MatMul()(ms.Tensor(v), ms.Tensor(v))) == 14.0
    assert nn.MatMul()(ms.Tensor(np.ones((2, 1, 2, 3), np.float32)),
                       ms.Tensor(np.ones((5, 3, 4), np.float32))).shape == (2, 5, 2, 4)


def test_matmul_cell_rejects_mismatched_inner_dims_and_bad_flags():
    with pytest.raises(ValueError, match=r"MatMul.*\(2, 3\) and \(2, 3\)"):
        nn.MatMul()(ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((2, 3), np.float32)))
    with pytest.raises(TypeError, match="'transpose_x1' must be a bool"):
        nn.MatMul(transpose_x1=1)
