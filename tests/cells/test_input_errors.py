"""Bad inputs and constructor arguments are rejected naming the Cell, the argument, expected and got."""
import re

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn

FLOATS = r"must be a floating-point Tensor \(float16, bfloat16, float32 or float64\)"


def _t(shape, dtype=np.float32):
    return ms.Tensor(np.ones(shape, dtype))


@pytest.mark.parametrize("dtype", [np.int32, np.bool_, np.complex64])
@pytest.mark.parametrize("make, shape, arg", [
    (lambda: nn.Conv2d(3, 2, 3), (1, 3, 4, 4), "x"),
    (lambda: nn.Conv1d(3, 2, 3), (1, 3, 4), "x"),
    (lambda: nn.Dense(3, 2), (2, 3), "x"),
    (lambda: nn.BatchNorm2d(3), (2, 3, 4, 4), "x"),
])
def test_layers_reject_non_float_inputs_naming_cell_and_dtype(mode, make, shape, arg, dtype):
    cell = make()
    name = type(cell).__name__
    with pytest.raises(TypeError, match=rf"For '{name}', the input '{arg}' {FLOATS}, got {np.dtype(dtype).name}"):
        cell(_t(shape, dtype))


@pytest.mark.parametrize("dtype", [np.int32, np.bool_, np.complex64])
def test_multihead_attention_rejects_non_float_query(mode, dtype):
    attn = nn.MultiheadAttention(4, 2)
    with pytest.raises(TypeError, match=rf"For 'MultiheadAttention', the input 'query' {FLOATS}"):
        attn(_t((2, 1, 4), dtype), _t((2, 1, 4)), _t((2, 1, 4)))


def test_cell_path_is_named_in_the_dtype_error():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(3, 2)

        def construct(self, x):
            return self.fc1(x)

    with pytest.raises(TypeError, match=r"For 'Dense' at 'fc1', the input 'x' " + FLOATS + ", got int32"):
        Net()(_t((2, 3), np.int32))


@pytest.mark.parametrize("bad, shown", [("abc", "str 'abc'"), ([1.0, 2.0], "list"), (None, "None"),
                                        ((1.0,), "tuple")])
@pytest.mark.parametrize("make", [lambda: nn.Conv2d(3, 2, 3), lambda: nn.Dense(3, 2),
                                  lambda: nn.MaxPool2d(2), lambda: nn.BatchNorm2d(3)])
def test_non_tensor_input_is_a_type_error_naming_the_type(mode, make, bad, shown):
    cell = make()
    with pytest.raises(TypeError, match=rf"For '{type(cell).__name__}', the input 'x' must be a Tensor, "
                                        rf"got {shown}"):
        cell(bad)


@pytest.mark.parametrize("cls", [nn.MSELoss, nn.L1Loss, nn.HuberLoss])
def test_loss_shape_mismatch_names_the_loss_cell(mode, cls):
    with pytest.raises(ValueError, match=rf"For '{cls.__name__}', 'logits' and 'labels' must have the same shape "
                                         rf"or shapes that broadcast, got \(4, 3\) and \(3, 4\)"):
        cls()(_t((4, 3)), _t((3, 4)))


def test_loss_still_broadcasts_compatible_shapes():
    out = nn.MSELoss(reduction="none")(_t((4, 3)), _t((1, 3)))
    assert out.shape == (4, 3)


def test_loss_given_a_non_tensor_names_the_argument():
    with pytest.raises(TypeError, match=r"For 'SoftmaxCrossEntropyWithLogits', the input 'labels' must be a "
                                        r"Tensor, got str"):
        nn.SoftmaxCrossEntropyWithLogits()(_t((2, 3)), "abc")


@pytest.mark.parametrize("make, cls, arg", [
    (lambda eps: nn.BatchNorm2d(3, eps=eps), "BatchNorm2d", "eps"),
    (lambda eps: nn.BatchNorm1d(3, eps=eps), "BatchNorm1d", "eps"),
    (lambda eps: nn.BatchNorm3d(3, eps=eps), "BatchNorm3d", "eps"),
    (lambda eps: nn.InstanceNorm2d(3, eps=eps), "InstanceNorm2d", "eps"),
    (lambda eps: nn.GroupNorm(1, 3, eps=eps), "GroupNorm", "eps"),
    (lambda eps: nn.LayerNorm((3,), epsilon=eps), "LayerNorm", "epsilon"),
])
@pytest.mark.parametrize("eps", [-1.0, 0.0, float("nan")])
def test_normalization_rejects_a_non_positive_eps(make, cls, arg, eps):
    with pytest.raises(ValueError, match=rf"For '{cls}', '{arg}' must be a positive number"):
        make(eps)


@pytest.mark.parametrize("make, cls", [(lambda m: nn.BatchNorm2d(3, momentum=m), "BatchNorm2d"),
                                       (lambda m: nn.BatchNorm3d(3, momentum=m), "BatchNorm3d"),
                                       (lambda m: nn.InstanceNorm2d(3, momentum=m), "InstanceNorm2d")])
@pytest.mark.parametrize("momentum", [-0.1, 1.5])
def test_normalization_rejects_a_momentum_outside_0_1_naming_the_cell(make, cls, momentum):
    with pytest.raises(ValueError, match=rf"For '{cls}', 'momentum' must be a (number|float) in \[0, 1\], "
                                         rf"got {momentum}"):
        make(momentum)


@pytest.mark.parametrize("make, shape", [
    (lambda: nn.Conv2d(3, 2, 3), (1, 3, 0, 4)),
    (lambda: nn.Conv1d(3, 2, 3), (1, 3, 0)),
    (lambda: nn.AvgPool2d(2), (1, 3, 4, 0)),
    (lambda: nn.MaxPool2d(2), (1, 3, 0, 4)),
    (lambda: nn.AdaptiveAvgPool2d(2), (1, 3, 0, 4)),
])
def test_empty_spatial_input_is_an_error_not_nan(mode, make, shape):
    cell = make()
    axis = shape.index(0)
    with pytest.raises(ValueError, match=re.escape(f"For '{type(cell).__name__}', the input 'x' has an empty "
                                                   f"spatial dimension (axis {axis}) in shape {shape}")):
        cell(_t(shape))


def test_batchnorm_on_an_empty_batch_is_an_error_not_nan():
    bn = nn.BatchNorm2d(3).set_train()
    with pytest.raises(ValueError, match=r"For 'BatchNorm2d', the input 'x' has an empty batch or spatial "
                                         r"dimension \(axis 0\)"):
        bn(_t((0, 3, 2, 2)))


@pytest.mark.parametrize("dtype", [np.int32, np.bool_, np.complex64])
@pytest.mark.parametrize("make, shape, arg", [
    (lambda: nn.LayerNorm((3,)), (2, 3), "x"),
    (lambda: nn.GroupNorm(1, 3), (2, 3, 2), "x"),
    (lambda: nn.InstanceNorm2d(3), (1, 3, 2, 2), "x"),
    (lambda: nn.BatchNorm3d(3), (1, 3, 2, 2, 2), "x"),
    (lambda: nn.Softmax(), (2, 3), "input"),
    (lambda: nn.LogSoftmax(), (2, 3), "x"),
])
def test_normalization_and_softmax_reject_non_float_inputs_as_mindspore(mode, make, shape, arg, dtype):
    cell = make()
    with pytest.raises(TypeError, match=rf"For '{type(cell).__name__}', the input '{arg}' {FLOATS}, "
                                        rf"got {np.dtype(dtype).name}"):
        cell(_t(shape, dtype))


@pytest.mark.parametrize("bad, shown", [("abc", "str 'abc'"), ([1.0, 2.0], "list"), (None, "None"),
                                        ({"x": 1}, "dict")])
@pytest.mark.parametrize("make", [lambda: nn.LayerNorm((3,)), lambda: nn.GroupNorm(1, 3),
                                  lambda: nn.BatchNorm3d(3), lambda: nn.InstanceNorm2d(3)])
def test_normalization_given_a_non_tensor_names_the_type(mode, make, bad, shown):
    cell = make()
    with pytest.raises(TypeError, match=rf"For '{type(cell).__name__}', the input 'x' must be a Tensor, "
                                        rf"got {shown}"):
        cell(bad)


@pytest.mark.parametrize("make, names", [
    (lambda: nn.SoftMarginLoss(), ("logits", "labels")),
    (lambda: nn.MAELoss(), ("logits", "label")),
    (lambda: nn.RMSELoss(), ("logits", "label")),
    (lambda: nn.HingeEmbeddingLoss(), ("logits", "labels")),
    (lambda: nn.PoissonNLLLoss(), ("input", "target")),
    (lambda: nn.MultiLabelSoftMarginLoss(), ("x", "target")),
])
def test_more_losses_name_the_cell_in_shape_mismatches(mode, make, names):
    loss = make()
    with pytest.raises(ValueError, match=rf"For '{type(loss).__name__}', '{names[0]}' and '{names[1]}' must have "
                                         rf"the same shape or shapes that broadcast, got \(4, 3\) and \(3, 4\)"):
        loss(_t((4, 3)) * 0.5, _t((3, 4)) * 0.5)


@pytest.mark.parametrize("make", [lambda: nn.MaxPool2d(2), lambda: nn.AvgPool2d(2), lambda: nn.MaxPool1d(2)])
@pytest.mark.parametrize("dtype", [np.bool_, np.complex64])
def test_pooling_rejects_bool_and_complex_inputs_naming_cell_and_dtype(mode, make, dtype):
    cell = make()
    shape = (1, 2, 4) if isinstance(cell, nn.MaxPool1d) else (1, 2, 4, 4)
    with pytest.raises(TypeError, match=rf"For '{type(cell).__name__}', the input 'x' must be a real-number Tensor "
                                        rf"\(float or int\), got {np.dtype(dtype).name}"):
        cell(_t(shape, dtype))


@pytest.mark.parametrize("bad, kind", [("ab", "str"), ([0, 1], "list"), (None, "None")])
def test_embedding_rejects_non_tensor_ids_naming_the_type(mode, bad, kind):
    with pytest.raises(TypeError, match=rf"For 'Embedding', the input 'ids' must be a Tensor, got {kind}"):
        nn.Embedding(4, 2)(bad)


@pytest.mark.parametrize("make", [lambda: nn.GroupNorm(1, 3), lambda: nn.InstanceNorm2d(3)])
def test_group_and_instance_norm_reject_an_empty_spatial_axis(mode, make):
    cell = make()
    with pytest.raises(ValueError, match=rf"For '{type(cell).__name__}', the input 'x' has an empty spatial "
                                         rf"dimension \(axis 3\) in shape \(2, 3, 4, 0\)"):
        cell(_t((2, 3, 4, 0)))


@pytest.mark.parametrize("cls", [nn.MultiMarginLoss, nn.MultilabelMarginLoss])
def test_margin_losses_name_the_cell_on_a_shape_mismatch(mode, cls):
    with pytest.raises(ValueError, match=rf"For '{cls.__name__}', .*got \(4, 3\) and \(3, 4\)"):
        cls()(_t((4, 3)), ms.Tensor(np.zeros((3, 4), np.int32)))


@pytest.mark.parametrize("make, shape", [
    (lambda: nn.Conv2d(1, 1, 5, pad_mode="valid"), (1, 1, 3, 3)),
    (lambda: nn.Conv1d(1, 1, 3, pad_mode="pad", padding=0, dilation=2), (1, 1, 4)),
    (lambda: nn.Conv3d(1, 1, 3, pad_mode="valid"), (1, 1, 2, 4, 4)),
])
def test_conv_rejects_an_input_smaller_than_its_kernel_instead_of_an_empty_output(mode, make, shape):
    cell = make()
    with pytest.raises(ValueError, match=rf"For '{type(cell).__name__}', the input's spatial size .* is smaller "
                                         rf"than the \(dilated\) kernel"):
        cell(_t(shape))
