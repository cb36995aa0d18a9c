"""Activation Cells: formulas, defaults, PReLU's Parameter, get_activation, errors."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from mindjax import nn

_X = jnp.array([[-4.0, -1.0, -0.2], [0.3, 2.0, 7.0]])
_XN = np.asarray(_X, np.float64)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


EXPECTED = {
    "ReLU": lambda x: np.maximum(x, 0),
    "ReLU6": lambda x: np.clip(x, 0, 6),
    "Sigmoid": _sigmoid,
    "Tanh": np.tanh,
    "SiLU": lambda x: x * _sigmoid(x),
    "HSwish": lambda x: x * np.clip(x + 3, 0, 6) / 6,
    "HSigmoid": lambda x: np.clip(x + 3, 0, 6) / 6,
    "Mish": lambda x: x * np.tanh(np.log1p(np.exp(x))),
    "Softsign": lambda x: x / (1 + np.abs(x)),
    "Hardtanh": lambda x: np.clip(x, -1, 1),
    "ELU": lambda x: np.where(x > 0, x, np.exp(x) - 1),
    "LeakyReLU": lambda x: np.where(x > 0, x, 0.2 * x),
    "GELU": lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))),
    "Softmax": lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True),
    "LogSoftmax": lambda x: x - np.log(np.exp(x).sum(-1, keepdims=True)),
    "Softplus": lambda x: np.log1p(np.exp(x)),
    "LogSigmoid": lambda x: np.log(_sigmoid(x)),
    "Tanhshrink": lambda x: x - np.tanh(x),
    "PReLU": lambda x: np.where(x > 0, x, 0.25 * x),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_activation_computes_its_formula_with_mindspore_defaults(name, mode):
    out = getattr(nn, name)()(_X)
    assert out.shape == _X.shape and out.dtype == _X.dtype
    np.testing.assert_allclose(out, EXPECTED[name](_XN), rtol=1e-5, atol=1e-6)


def test_gelu_exact_form_when_not_approximate():
    from scipy.special import erf
    np.testing.assert_allclose(nn.GELU(approximate=False)(_X), 0.5 * _XN * (1 + erf(_XN / np.sqrt(2))),
                               rtol=1e-5, atol=1e-6)


def test_leaky_relu_with_slope_above_one_takes_the_minimum():
    np.testing.assert_allclose(nn.LeakyReLU(1.5)(_X), np.minimum(1.5 * _XN, _XN), rtol=1e-6)


def test_softmax_along_a_given_axis_sums_to_one_there():
    np.testing.assert_allclose(nn.Softmax(axis=0)(_X).sum(0), [1.0, 1.0, 1.0], rtol=1e-6)


def test_glu_and_threshold_and_shrinks():
    x = jnp.array([[1.0, -2.0, 0.5, 3.0]])
    np.testing.assert_allclose(nn.GLU()(x), np.array([[1.0, -2.0]]) * _sigmoid(np.array([[0.5, 3.0]])),
                               rtol=1e-6)
    np.testing.assert_allclose(nn.Threshold(0.7, -9.0)(x), [[1.0, -9.0, -9.0, 3.0]])
    np.testing.assert_allclose(nn.SoftShrink(0.5)(x), [[0.5, -1.5, 0.0, 2.5]])
    np.testing.assert_allclose(nn.HShrink(0.5)(x), [[1.0, -2.0, 0.0, 3.0]])


def test_prelu_keeps_one_learnable_slope_per_channel_named_a(mode):
    prelu = nn.PReLU(channel=2, w=[0.1, 0.5])
    assert [(p.name, p.shape) for p in prelu.get_parameters()] == [("a", (2,))]
    x = -jnp.ones((1, 2, 3))
    np.testing.assert_allclose(prelu(x)[0, :, 0], [-0.1, -0.5])
    grad = jax.grad(lambda w: jnp.sum(jnp.where(x > 0, x, w.reshape(1, 2, 1) * x)))(prelu.w._value)
    np.testing.assert_allclose(grad, [-3.0, -3.0])


def test_prelu_rejects_bad_arguments_naming_them():
    with pytest.raises(ValueError, match="'channel'"):
        nn.PReLU(0)
    with pytest.raises(ValueError, match="length of 'w'"):
        nn.PReLU(3, [0.1, 0.2])
    with pytest.raises(TypeError, match="'w'"):
        nn.PReLU(1, "x")


def test_constructor_errors_name_the_argument():
    with pytest.raises(ValueError, match="'min_val' must be less than 'max_val'"):
        nn.Hardtanh(1.0, 0.0)
    with pytest.raises(TypeError, match="'approximate'"):
        nn.GELU(1)
    with pytest.raises(TypeError, match="'alpha'"):
        nn.LeakyReLU("0.1")


def test_get_activation_maps_mindspore_names_to_new_cells():
    assert isinstance(nn.get_activation("relu"), nn.ReLU)
    assert isinstance(nn.get_activation("gelu"), nn.GELU)
    assert isinstance(nn.get_activation("sigmoid"), nn.Sigmoid)
    assert isinstance(nn.get_activation("leakyrelu"), nn.LeakyReLU)
    assert nn.get_activation(None) is None
    assert nn.get_activation("tanh") is not nn.get_activation("tanh")


def test_get_activation_rejects_unknown_name_as_key_and_value_error():
    with pytest.raises(KeyError):
        nn.get_activation("swishy")
    with pytest.raises(ValueError, match="For 'Dense', the 'activation' name must be one of .* got 'swishy'"):
        nn.get_activation("swishy", "Dense")


def test_softmax2d_rejects_wrong_rank_naming_the_cell():
    with pytest.raises(ValueError, match="For 'Softmax2d', the input must have 3 or 4 dims"):
        nn.Softmax2d()(jnp.zeros((2, 3)))
