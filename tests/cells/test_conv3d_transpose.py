"""nn.Conv3dTranspose: MindSpore 2.10's output sizes, and the transpose of Conv3d."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


@pytest.mark.parametrize("kw, shape", [
    (dict(pad_mode="same", stride=2), (1, 6, 6, 10, 8)),
    (dict(pad_mode="valid", stride=(1, 2, 2)), (1, 6, 5, 11, 8)),
    (dict(pad_mode="pad", padding=1, stride=2, output_padding=1), (1, 6, 6, 10, 7)),
    (dict(pad_mode="pad", padding=(1, 0, 0, 1, 1, 1), stride=2, dilation=(1, 2, 2), group=2,
          output_padding=(1, 0, 1)), (1, 6, 7, 12, 8)),
])
def test_output_shapes_match_mindspore(kw, shape):
    net = nn.Conv3dTranspose(4, 6, (3, 3, 2), **kw)
    assert net.weight.shape == (4, 6 // kw.get("group", 1), 3, 3, 2)
    assert net(ms.Tensor(np.ones((1, 4, 3, 5, 4), np.float32))).shape == shape


def test_is_the_adjoint_of_conv3d():
    rs = np.random.RandomState(0)
    w = rs.randn(4, 3, 2, 3, 3).astype(np.float32)  # (in=4, out=3, k...)
    x = rs.randn(1, 4, 3, 4, 4).astype(np.float32)
    up = nn.Conv3dTranspose(4, 3, (2, 3, 3), stride=2, pad_mode="same", weight_init=ms.Tensor(w))
    y = np.asarray(up(ms.Tensor(x)))
    conv = nn.Conv3d(3, 4, (2, 3, 3), stride=2, pad_mode="same", weight_init=ms.Tensor(w))
    # <conv(z), x> == <z, conv_transpose(x)> for any z of the transposed output's shape
    z = rs.randn(*y.shape).astype(np.float32)
    lhs = float(np.sum(np.asarray(conv(ms.Tensor(z))) * x))
    assert lhs == pytest.approx(float(np.sum(z * y)), rel=1e-4)


def test_bias_and_jit():
    net = nn.Conv3dTranspose(2, 2, 1, has_bias=True, bias_init="ones", weight_init="zeros")
    out = jax.jit(lambda x: net(x))(jnp.ones((1, 2, 2, 2, 2)))
    np.testing.assert_allclose(np.asarray(out), np.ones((1, 2, 2, 2, 2)))


def test_bad_arguments():
    with pytest.raises(ValueError, match="Conv3dTranspose.*depth of 'dilation'"):
        nn.Conv3dTranspose(2, 2, 3, dilation=2)
    with pytest.raises(ValueError, match="'output_padding' must be 0 when 'pad_mode' is not 'pad'"):
        nn.Conv3dTranspose(2, 2, 3, stride=2, output_padding=1)
    with pytest.raises(ValueError, match="output_padding"):
        nn.Conv3dTranspose(2, 2, 3, pad_mode="pad", stride=2, output_padding=2)
    with pytest.raises(ValueError, match="data_format"):
        nn.Conv3dTranspose(2, 2, 3, data_format="NDHWC")
    with pytest.raises(ValueError, match="expected input of shape"):
        nn.Conv3dTranspose(2, 2, 3)(ms.Tensor(np.ones((1, 3, 2, 2, 2), np.float32)))
