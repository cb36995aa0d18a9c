"""Bad arguments raise errors that name the op and the argument."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops

X = np.ones((2, 3), np.float32)
IMG = np.ones((1, 3, 5, 5), np.float32)


@pytest.mark.parametrize("call,error,match", [
    (lambda: ops.matmul(X, X), ValueError, r"For 'matmul', input.shape\[-1\] must equal other.shape\[-2\], got shapes \(2, 3\) and \(2, 3\)"),
    (lambda: ops.bmm(X, X), ValueError, r"For 'bmm', inputs must be at least 3-D"),
    (lambda: ops.mm(X, X), ValueError, r"For 'mm', input.shape\[1\] must equal mat2.shape\[0\]"),
    (lambda: ops.add(X, np.ones((4,))), ValueError, r"For 'add', "),
    (lambda: ops.softmax(X, axis=2), ValueError, r"For 'softmax', 'axis' must be in range \[-2, 2\), got 2"),
    (lambda: ops.sum(X, 5), ValueError, r"For 'sum', 'dim' must be in range"),
    (lambda: ops.mean(X, (0, 0)), ValueError, r"For 'mean', 'axis' has repeated axes"),
    (lambda: ops.max(X, 3), ValueError, r"For 'max', 'axis' must be in range"),
    (lambda: ops.argmax(X, 1.5), TypeError, r"For 'argmax', 'dim' must be an int"),
    (lambda: ops.reshape(X, (4, -1)), ValueError, r"For 'reshape', cannot reshape an input of shape \(2, 3\)"),
    (lambda: ops.transpose(X, (0, 0)), ValueError, r"For 'transpose', 'dims' must be a permutation"),
    (lambda: ops.concat((X, np.ones((2, 2))), 0), ValueError, r"For 'concat', tensors\[1\] has shape \(2, 2\)"),
    (lambda: ops.concat(X), TypeError, r"For 'concat', 'tensors' must be a non-empty tuple or list"),
    (lambda: ops.stack((X, X.T)), ValueError, r"For 'stack', all tensors must have the same shape"),
    (lambda: ops.split(X, [1, 3], axis=1), ValueError, r"For 'split', the sum of 'split_size_or_sections' must be 3"),
    (lambda: ops.expand_dims(X, 4), ValueError, r"For 'expand_dims', 'axis' must be in range \[-3, 3\)"),
    (lambda: ops.gather(X, np.array([0.5]), 0), TypeError, r"For 'gather', 'input_indices' must be an integer array"),
    (lambda: ops.broadcast_to(X, (3, 3)), ValueError, r"For 'broadcast_to', cannot broadcast shape \(2, 3\) to \(3, 3\)"),
    (lambda: ops.topk(X, 4), ValueError, r"For 'topk', 'k' must be an int in \[0, 3\]"),
    (lambda: ops.one_hot(np.array([0]), -1), ValueError, r"For 'one_hot', 'depth' must be a non-negative int"),
    (lambda: ops.clip_by_value(X), ValueError, r"For 'clip_by_value', 'clip_value_min' and 'clip_value_max' cannot both be None"),
    (lambda: ops.masked_fill(X, X, 0.0), TypeError, r"For 'masked_fill', 'mask' must be a bool array"),
    (lambda: ops.dropout(X, p=1.5), ValueError, r"For 'dropout', 'p' must be in \[0, 1\], got 1.5"),
    (lambda: ops.conv2d(IMG, np.ones((2, 3, 3, 3)), pad_mode="foo"), ValueError, r"For 'conv2d', 'pad_mode' must be one of 'valid', 'same', 'pad', got 'foo'"),
    (lambda: ops.conv2d(IMG, np.ones((2, 4, 3, 3))), ValueError, r"For 'conv2d', input channels 3 must equal weight.shape\[1\] \* groups = 4"),
    (lambda: ops.conv2d(IMG, np.ones((2, 3, 3, 3)), padding=1), ValueError, r"For 'conv2d', 'padding' must be 0 unless pad_mode is 'pad'"),
    (lambda: ops.max_pool2d(X, 2), ValueError, r"For 'max_pool2d', input must be 3-D or 4-D"),
    (lambda: ops.pad(X, (1, 1), mode="foo"), ValueError, r"For 'pad', 'mode' must be one of 'constant', 'reflect', 'replicate', 'circular', got 'foo'"),
    (lambda: ops.pad(X, (1,)), ValueError, r"For 'pad', 'padding' must have an even length"),
    (lambda: ops.interpolate(IMG, size=(2, 2), mode="cubic"), ValueError, r"For 'interpolate', 'mode' must be 'nearest', 'bilinear' or 'area'"),
    (lambda: ops.layer_norm(X, (4,)), ValueError, r"For 'layer_norm', 'normalized_shape' \(4,\) must match"),
    (lambda: ops.batch_norm(X, np.zeros(2), np.ones(2), None, None), ValueError, r"For 'batch_norm', 'running_mean' must have shape \(3,\)"),
    (lambda: ops.mse_loss(X, X, reduction="avg"), ValueError, r"For 'mse_loss', 'reduction' must be one of 'none', 'mean', 'sum', got 'avg'"),
    (lambda: ops.cross_entropy(ms.Tensor(X), ms.Tensor(np.array([0, 1, 2]))), ValueError, r"For 'cross_entropy', class-index target must have shape \(2,\)"),
    (lambda: ops.einsum("ij,jk->ik", X, X), ValueError, r"For 'einsum', equation 'ij,jk->ik' does not fit operand shapes"),
    (lambda: ops.dense(X, np.ones((4, 2))), ValueError, r"For 'dense', input's last dimension must equal weight's last dimension"),
    (lambda: ops.assign(X, X), TypeError, r"For 'assign', 'variable' must be a Parameter"),
])
def test_bad_argument_error_names_the_op_and_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_assign_rejects_a_value_that_does_not_fit_the_parameter():
    p = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="bias")
    with pytest.raises(ValueError, match=r"For 'assign', 'value' shape \(3,\) does not fit the Parameter 'bias'"):
        ops.assign(p, np.ones(3))
