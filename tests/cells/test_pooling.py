"""Pooling layers: MindSpore's window arithmetic, divisors, adaptive bins and errors.

Expected values marked "measured" were produced by mindspore 2.10 on the 5x5
input ``arange(25)`` (see tests/parity for the live comparison).
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn

GRID = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5)


def _x(shape, seed=0):
    return ms.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def _run(cell, x=GRID):
    return np.asarray(cell(ms.Tensor(x)))


@pytest.mark.parametrize("kwargs,expected_hw", [
    (dict(kernel_size=2, stride=2), (3, 4)),
    (dict(kernel_size=3, stride=2, pad_mode="same"), (4, 4)),
    (dict(kernel_size=(2, 3), stride=(1, 2), pad_mode="same"), (7, 4)),
    (dict(kernel_size=3, stride=2, pad_mode="pad", padding=1), (4, 4)),
    (dict(kernel_size=2, stride=2, pad_mode="pad", padding=1, ceil_mode=True), (4, 5)),
    (dict(kernel_size=2, stride=1, pad_mode="pad", dilation=2), (5, 6)),
])
def test_maxpool2d_output_shapes(mode, kwargs, expected_hw):
    assert nn.MaxPool2d(**kwargs)(_x((2, 3, 7, 8))).shape == (2, 3) + expected_hw


def test_maxpool2d_defaults_are_kernel_1_stride_1_valid():
    pool = nn.MaxPool2d()
    assert (pool.kernel_size, pool.stride, pool.pad_mode) == (1, 1, "VALID")
    np.testing.assert_array_equal(_run(pool), GRID)


def test_maxpool2d_same_pads_with_minus_infinity():
    # measured: MaxPool2d(2, 2, 'same') on -arange(25)
    out = _run(nn.MaxPool2d(2, 2, pad_mode="same"), -GRID)
    np.testing.assert_array_equal(out[0, 0], [[0, -2, -4], [-10, -12, -14], [-20, -22, -24]])


def test_maxpool2d_return_indices_are_flat_plane_positions(mode):
    values, index = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, return_indices=True)(ms.Tensor(-GRID))
    np.testing.assert_array_equal(np.asarray(index)[0, 0], [[0, 1, 3], [5, 6, 8], [15, 16, 18]])
    np.testing.assert_array_equal(np.asarray(values), -np.asarray(index).astype(np.float32))


def test_maxpool_accepts_unbatched_input():
    assert nn.MaxPool2d(2, 2)(_x((3, 6, 6))).shape == (3, 3, 3)
    assert nn.MaxPool1d(2, 2)(_x((3, 6))).shape == (3, 3)


@pytest.mark.parametrize("kwargs,expected", [
    (dict(pad_mode="same"), [[3, 4.5, 6], [10.5, 12, 13.5], [18, 19.5, 21]]),
    (dict(pad_mode="pad", padding=1), [[4 / 3, 3, 8 / 3], [7, 12, 9], [8, 13, 28 / 3]]),
    (dict(pad_mode="pad", padding=1, count_include_pad=False), [[3, 4.5, 6], [10.5, 12, 13.5], [18, 19.5, 21]]),
    (dict(pad_mode="same", ceil_mode=True), [[4 / 3, 3, 8 / 3], [7, 12, 9], [8, 13, 28 / 3]]),
    (dict(pad_mode="same", divisor_override=2), [[6, 13.5, 12], [31.5, 54, 40.5], [36, 58.5, 42]]),
])
def test_avgpool2d_divisors_follow_mindspore(mode, kwargs, expected):
    # measured on mindspore 2.10: plain 'same' never counts padding; the extended
    # kernel ('pad', ceil_mode, ...) counts it unless count_include_pad=False
    out = _run(nn.AvgPool2d(kernel_size=3, stride=2, **kwargs))
    np.testing.assert_allclose(out[0, 0], expected, rtol=1e-6)


def test_avgpool2d_ceil_mode_never_counts_the_overhang():
    out = _run(nn.AvgPool2d(2, 2, ceil_mode=True))
    np.testing.assert_allclose(out[0, 0], [[3, 5, 6.5], [13, 15, 16.5], [20.5, 22.5, 24]])


def test_avgpool1d_modes():
    x = np.arange(10, dtype=np.float32).reshape(1, 2, 5)
    np.testing.assert_allclose(_run(nn.AvgPool1d(3, 2, pad_mode="same"), x)[0, 0], [0.5, 2, 3.5])
    np.testing.assert_allclose(_run(nn.AvgPool1d(3, 2, pad_mode="pad", padding=1), x)[0, 0],
                               [1 / 3, 2, 7 / 3], rtol=1e-6)
    np.testing.assert_allclose(_run(nn.AvgPool1d(4, 3), x)[0, :, 0], [1.5, 6.5])
    assert nn.AvgPool1d(2, 2).kernel_size == (1, 2)


def _adaptive_reference(x, out_hw, reduce):
    h, w = x.shape[-2:]
    rows = [(i * h // out_hw[0], -(-(i + 1) * h // out_hw[0])) for i in range(out_hw[0])]
    cols = [(j * w // out_hw[1], -(-(j + 1) * w // out_hw[1])) for j in range(out_hw[1])]
    return np.stack([np.stack([reduce(x[..., r0:r1, c0:c1], axis=(-2, -1)) for c0, c1 in cols], -1)
                     for r0, r1 in rows], -2)


@pytest.mark.parametrize("out_hw", [(1, 1), (3, 4), (7, 10), (2, 5)])
def test_adaptive_pools_use_floor_ceil_bins(mode, out_hw):
    x = _x((2, 3, 7, 10))
    np.testing.assert_allclose(np.asarray(nn.AdaptiveAvgPool2d(out_hw)(x)),
                               _adaptive_reference(np.asarray(x), out_hw, np.mean), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(np.asarray(nn.AdaptiveMaxPool2d(out_hw)(x)),
                                  _adaptive_reference(np.asarray(x), out_hw, np.max))


def test_adaptive_avg_pool_2d_of_one_is_global_average_and_none_keeps_a_dim():
    x = _x((2, 3, 5, 6))
    np.testing.assert_allclose(np.asarray(nn.AdaptiveAvgPool2d(1)(x))[..., 0, 0],
                               np.asarray(x).mean((2, 3)), rtol=1e-5, atol=1e-6)
    assert nn.AdaptiveAvgPool2d((2, None))(x).shape == (2, 3, 2, 6)


def test_adaptive_max_pool_2d_returns_flat_indices(mode):
    x = _x((1, 2, 5, 7))
    values, index = nn.AdaptiveMaxPool2d((2, 3), return_indices=True)(x)
    flat = np.asarray(x).reshape(1, 2, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, np.asarray(index).reshape(1, 2, -1), -1),
                                  np.asarray(values).reshape(1, 2, -1))


def test_adaptive_1d_pools_need_a_multiple_of_output_size(mode):
    x = _x((2, 3, 8))
    np.testing.assert_allclose(np.asarray(nn.AdaptiveAvgPool1d(4)(x)),
                               np.asarray(x).reshape(2, 3, 4, 2).mean(-1), rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(nn.AdaptiveMaxPool1d(2)(x)),
                                  np.asarray(x).reshape(2, 3, 2, 4).max(-1))
    with pytest.raises(ValueError, match=r"For 'AdaptiveAvgPool1d', the input's last dim must be a "
                                         r"multiple of output_size 3"):
        nn.AdaptiveAvgPool1d(3)(x)


def test_pool_extend_repr_uses_mindspore_text():
    assert nn.MaxPool2d(2, 2).extend_repr() == "kernel_size=2, stride=2, pad_mode=VALID"
    assert nn.MaxPool1d(3).extend_repr() == "kernel_size=(1, 3), stride=(1, 1), pad_mode=VALID"
    assert nn.AvgPool2d(2, pad_mode="pad", padding=1).extend_repr() == \
        "kernel_size=2, stride=1, pad_mode=PAD"


@pytest.mark.parametrize("factory,match", [
    (lambda: nn.MaxPool2d(2, pad_mode="full"), "'pad_mode' must be one of"),
    (lambda: nn.MaxPool2d(2, padding=1), "must keep their defaults unless pad_mode is 'pad'"),
    (lambda: nn.MaxPool2d(2, pad_mode="pad", padding=2), "'padding' must be at most half"),
    (lambda: nn.AvgPool2d(2, padding=1), "'padding' must be 0 when pad_mode is not 'pad'"),
    (lambda: nn.AvgPool2d(3, pad_mode="pad", padding=2), "must sum to at most 'kernel_size'"),
    (lambda: nn.AvgPool2d(2, divisor_override=0), "'divisor_override' must be a positive int"),
    (lambda: nn.MaxPool2d(0), "'kernel_size' must be a positive int"),
    (lambda: nn.AdaptiveAvgPool2d((0, 2)), "'output_size' must hold positive ints or None"),
    (lambda: nn.AdaptiveAvgPool1d(0), "'output_size' must be a positive int"),
])
def test_pools_reject_bad_arguments(factory, match):
    with pytest.raises(ValueError, match=match):
        factory()


def test_pools_reject_wrong_rank_naming_the_cell_path(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.pool = nn.MaxPool2d(2, 2)

        def construct(self, x):
            return self.pool(x)

    with pytest.raises(ValueError, match=r"For 'MaxPool2d' at 'pool', expected input of rank 3 or 4 "
                                         r".*got shape \(2, 4\)"):
        Net()(_x((2, 4)))


@pytest.mark.parametrize("pool", [nn.MaxPool2d(kernel_size=2, stride=2), nn.AvgPool2d(kernel_size=2, stride=2),
                                  nn.MaxPool2d(kernel_size=3, stride=1, pad_mode="same")])
def test_pooling_is_differentiable_under_jit(pool):
    x = jnp.arange(16.0).reshape(1, 1, 4, 4)
    g = jax.jit(jax.grad(lambda v: pool(v).sum()))(x)
    assert g.shape == x.shape and float(g.sum()) > 0
