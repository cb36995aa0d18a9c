"""Convolution layers: MindSpore's shapes, padding arithmetic, weights, errors, both modes."""
import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


def _x(shape, seed=0):
    return ms.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def _conv_out(size, k, s, d, mode, lo=0, hi=0):
    if mode == "same":
        return math.ceil(size / s)
    return (size + lo + hi - d * (k - 1) - 1) // s + 1


def _naive_conv2d(x, w, stride, pads):
    """Cross-correlation by loops: the reference for the padding split."""
    xp = np.pad(x, ((0, 0), (0, 0), pads[0], pads[1]))
    n, _, h, wd = xp.shape
    o, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, o, oh, ow), np.float64)
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            out[:, :, i, j] = np.einsum("nchw,ochw->no", patch, w)
    return out


@pytest.mark.parametrize("pad_mode,padding,stride,dilation,group", [
    ("same", 0, 1, 1, 1), ("same", 0, 2, 1, 1), ("same", 0, 3, 2, 2), ("valid", 0, 1, 1, 1),
    ("valid", 0, 2, 2, 4), ("pad", 1, 1, 1, 1), ("pad", (0, 2, 1, 3), 2, 1, 2), ("pad", 2, 2, 2, 1),
])
def test_conv2d_output_shape_follows_mindspore_formulas(mode, pad_mode, padding, stride, dilation,
                                                        group):
    conv = nn.Conv2d(4, 8, 3, stride=stride, pad_mode=pad_mode, padding=padding,
                     dilation=dilation, group=group)
    out = conv(_x((2, 4, 9, 10)))
    pads = (padding,) * 4 if isinstance(padding, int) else padding
    expected = (2, 8, _conv_out(9, 3, stride, dilation, pad_mode, pads[0], pads[1]),
                _conv_out(10, 3, stride, dilation, pad_mode, pads[2], pads[3]))
    assert out.shape == expected


def test_conv2d_same_padding_puts_the_odd_element_at_bottom_right():
    conv = nn.Conv2d(2, 3, 4, stride=2, has_bias=False)
    x = _x((1, 2, 7, 6))
    # TF SAME: out 4x3; total pad 4+... rows: (4-1)*2+4-7=3 -> (1, 2); cols: (3-1)*2+4-6=2 -> (1, 1)
    expected = _naive_conv2d(np.asarray(x), np.asarray(conv.weight), 2, ((1, 2), (1, 1)))
    np.testing.assert_allclose(np.asarray(conv(x)), expected, rtol=1e-5, atol=1e-5)


def test_conv2d_grouped_equals_separate_convolutions_per_group(mode):
    conv = nn.Conv2d(4, 6, 3, group=2, has_bias=True, pad_mode="valid")
    x = _x((1, 4, 5, 5))
    w, b = np.asarray(conv.weight), np.asarray(conv.bias)
    halves = [_naive_conv2d(np.asarray(x)[:, 2 * g:2 * g + 2], w[3 * g:3 * g + 3], 1, ((0, 0), (0, 0)))
              for g in range(2)]
    expected = np.concatenate(halves, axis=1) + b[None, :, None, None]
    np.testing.assert_allclose(np.asarray(conv(x)), expected, rtol=1e-5, atol=1e-5)


def test_conv2d_weight_bias_shapes_names_and_default_initializers():
    conv = nn.Conv2d(4, 6, (3, 2), group=2, has_bias=True)
    assert [(p.name, p.shape) for p in conv.get_parameters()] == [("weight", (6, 2, 3, 2)), ("bias", (6,))]
    fan_in = 2 * 3 * 2
    # HeUniform(negative_slope=sqrt(5)): bound = sqrt(6 / ((1 + 5) * fan_in)) = 1 / sqrt(fan_in)
    assert np.abs(np.asarray(conv.weight)).max() <= 1 / math.sqrt(fan_in) + 1e-7
    assert np.abs(np.asarray(conv.bias)).max() <= 1 / math.sqrt(fan_in) + 1e-7
    assert nn.Conv2d(4, 6, 3).bias is None


def test_conv2d_extend_repr_uses_mindspore_text():
    text = nn.Conv2d(2, 4, 3).extend_repr()
    assert text.startswith("input_channels=2, output_channels=4, kernel_size=(3, 3), stride=(1, 1), "
                           "pad_mode=same, padding=0, dilation=(1, 1), group=1, has_bias=False, "
                           "weight_init=HeUniform(")
    assert text.endswith("bias_init=None, format=NCHW")


def test_conv2d_nhwc_equals_nchw_with_transposed_layouts():
    nchw = nn.Conv2d(3, 4, 3, stride=2, has_bias=True)
    nhwc = nn.Conv2d(3, 4, 3, stride=2, has_bias=True, data_format="NHWC")
    nhwc.weight.set_data(jnp.transpose(nchw.weight._value, (0, 2, 3, 1)))
    nhwc.bias.set_data(nchw.bias._value)
    x = _x((2, 3, 7, 6))
    out = nhwc(jnp.transpose(x, (0, 2, 3, 1)))
    np.testing.assert_allclose(np.asarray(out), np.asarray(jnp.transpose(nchw(x), (0, 2, 3, 1))),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("pad_mode,padding,stride,dilation", [
    ("same", 0, 1, 1), ("same", 0, 2, 2), ("valid", 0, 2, 1), ("pad", 1, 2, 1), ("pad", 3, 1, 2)])
def test_conv1d_shape_and_4d_weight_like_mindspore(mode, pad_mode, padding, stride, dilation):
    conv = nn.Conv1d(4, 6, 3, stride=stride, pad_mode=pad_mode, padding=padding, dilation=dilation,
                     has_bias=True)
    assert conv.weight.shape == (6, 4, 1, 3)
    assert conv.padding == (0, 0, padding, padding)
    out = conv(_x((2, 4, 11)))
    assert out.shape == (2, 6, _conv_out(11, 3, stride, dilation, pad_mode, padding, padding))


def test_conv1d_equals_conv2d_on_a_height_one_input():
    c1 = nn.Conv1d(3, 5, 3, stride=2, has_bias=True)
    c2 = nn.Conv2d(3, 5, (1, 3), stride=(1, 2), has_bias=True)
    c2.weight.set_data(c1.weight._value)
    c2.bias.set_data(c1.bias._value)
    x = _x((2, 3, 9))
    np.testing.assert_allclose(np.asarray(c1(x)), np.asarray(c2(x[:, :, None, :]))[:, :, 0],
                               rtol=1e-6, atol=1e-6)


def test_conv1d_accepts_a_3d_tensor_weight_init():
    w = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    conv = nn.Conv1d(3, 2, 4, weight_init=ms.Tensor(w))
    np.testing.assert_array_equal(np.asarray(conv.weight), w[:, :, None, :])


def test_conv3d_shapes_with_groups_and_explicit_padding(mode):
    conv = nn.Conv3d(4, 6, (2, 3, 3), stride=(1, 2, 2), pad_mode="pad", padding=(1, 0, 1, 1, 0, 2),
                     group=2, has_bias=True)
    assert conv.weight.shape == (6, 2, 2, 3, 3)
    assert conv(_x((1, 4, 5, 6, 7))).shape == (1, 6, 5, 3, 4)
    assert nn.Conv3d(2, 2, 3, stride=2)(_x((1, 2, 5, 6, 7))).shape == (1, 2, 3, 3, 4)


@pytest.mark.parametrize("kwargs,expected_hw", [
    (dict(kernel_size=3), (5, 6)),
    (dict(kernel_size=3, stride=2), (10, 12)),
    (dict(kernel_size=3, stride=2, pad_mode="valid"), (11, 13)),
    (dict(kernel_size=2, stride=3, pad_mode="valid"), (15, 18)),
    (dict(kernel_size=3, stride=2, pad_mode="pad", padding=(1, 2, 0, 1)), (8, 12)),
    (dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, output_padding=1), (10, 12)),
    (dict(kernel_size=3, stride=2, dilation=2, group=2), (10, 12)),
])
def test_conv2d_transpose_output_shape_matches_mindspore(mode, kwargs, expected_hw):
    conv = nn.Conv2dTranspose(4, 6, **kwargs)
    assert conv.weight.shape == (4, 6 // kwargs.get("group", 1)) + conv.kernel_size
    assert conv(_x((2, 4, 5, 6))).shape == (2, 6) + expected_hw


def test_conv2d_transpose_is_the_input_gradient_of_conv2d():
    tconv = nn.Conv2dTranspose(4, 6, 3, stride=2, pad_mode="pad", padding=1, group=2)
    fconv = nn.Conv2d(6, 4, 3, stride=2, pad_mode="pad", padding=1, group=2)
    # forward weight (out=4, in/g=3): regroup the transposed weight (in=4, out/g=3)
    fconv.weight.set_data(tconv.weight._value)
    y = _x((1, 4, 4, 5))
    x_shape = (1, 6, 7, 9)
    _, vjp = jax.vjp(lambda x: fconv(x), jnp.zeros(x_shape, jnp.float32))
    np.testing.assert_allclose(np.asarray(tconv(y)), np.asarray(vjp(jnp.asarray(y))[0]), rtol=1e-5, atol=1e-5)


def test_conv1d_transpose_shapes_and_weight(mode):
    conv = nn.Conv1dTranspose(4, 6, 3, stride=2, pad_mode="pad", padding=1, has_bias=True)
    assert conv.weight.shape == (4, 6, 1, 3)
    assert conv(_x((2, 4, 5))).shape == (2, 6, 9)
    assert nn.Conv1dTranspose(4, 6, 3, stride=2)(_x((2, 4, 5))).shape == (2, 6, 10)
    assert nn.Conv1dTranspose(4, 6, 3, stride=2, pad_mode="valid")(_x((2, 4, 5))).shape == (2, 6, 11)


def test_conv_inside_a_compiled_net_is_differentiable(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(2, 3, 3, has_bias=True)

        def construct(self, x):
            return self.conv1(x).sum()

    net = Net()
    x = _x((1, 2, 4, 4))
    grad = jax.grad(lambda inp: net(inp).value())(x)
    assert grad.shape == x.shape and float(jnp.abs(grad).sum()) > 0


@pytest.mark.parametrize("kwargs,match", [
    (dict(in_channels=-1), "'in_channels' must be a positive int"),
    (dict(out_channels=0), "'out_channels' must be a positive int"),
    (dict(pad_mode="full"), "'pad_mode' must be one of"),
    (dict(padding=1), "'padding' must be 0 when 'pad_mode' is not 'pad'"),
    (dict(pad_mode="pad", padding=(1, 2)), "'padding' must be an int or a tuple of 4"),
    (dict(pad_mode="pad", padding=-1), "'padding' must be non-negative"),
    (dict(group=3), "must be divisible by 'group'"),
    (dict(stride=0), "'stride' must be a positive int"),
    (dict(kernel_size=(3, 3, 3)), "'kernel_size' must be a positive int or a tuple of 2"),
])
def test_conv2d_rejects_bad_arguments_naming_them(kwargs, match):
    args = dict(in_channels=4, out_channels=6, kernel_size=3)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        nn.Conv2d(**args)


def test_conv_transpose_rejects_output_padding_outside_pad_mode_or_range():
    with pytest.raises(ValueError, match="'output_padding' must be 0 when 'pad_mode' is not 'pad'"):
        nn.Conv2dTranspose(4, 6, 3, stride=2, output_padding=1)
    with pytest.raises(ValueError, match=r"'output_padding' must be in \[0, max\(stride, dilation\)\)"):
        nn.Conv2dTranspose(4, 6, 3, stride=2, pad_mode="pad", output_padding=2)


def test_conv_rejects_wrong_input_naming_the_cell_path_and_shapes(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(4, 6, 3)

        def construct(self, x):
            return self.conv1(x)

    net = Net()
    with pytest.raises(ValueError, match=r"For 'Conv2d' at 'conv1', expected input of shape "
                                         r"\(N, 4, H, W\), got \(1, 3, 5, 5\)"):
        net(_x((1, 3, 5, 5)))
    with pytest.raises(ValueError, match=r"For 'Conv2d' at 'conv1', expected .* got \(4, 5, 5\)"):
        net(_x((4, 5, 5)))
    with pytest.raises(ValueError, match=r"For 'Conv1d', expected input of shape \(N, 4, L\)"):
        nn.Conv1d(4, 2, 3)(_x((1, 4, 5, 5)))
