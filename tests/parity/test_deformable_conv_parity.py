"""deformable_conv2d and DeformableOffsets against mindspore 2.10 on CPU."""
import mindspore
import numpy as np
import pytest

import mindjax

RNG = np.random.default_rng(0)

# (C_in, C_out, groups, deformable_groups, kernel, strides, padding, dilations)
SETUPS = [
    (2, 3, 1, 1, (3, 3), (1, 1, 1, 1), (0, 0, 0, 0), (1, 1, 1, 1)),
    (4, 4, 2, 2, (2, 3), (1, 1, 2, 1), (1, 0, 1, 2), (1, 1, 1, 2)),
    (3, 2, 1, 3, (1, 1), (1, 1, 1, 2), (0, 0, 0, 0), (1, 1, 1, 1)),
]


def _case(c, o, g, dg, k, st, pad, dil):
    x = RNG.standard_normal((2, c, 5, 6)).astype(np.float32)
    w = RNG.standard_normal((o, c // g) + k).astype(np.float32)
    h = (5 + pad[0] + pad[1] - (k[0] - 1) * dil[2] - 1) // st[2] + 1
    wd = (6 + pad[2] + pad[3] - (k[1] - 1) * dil[3] - 1) // st[3] + 1
    off = (RNG.standard_normal((2, 3 * dg * k[0] * k[1], h, wd)) * 1.5).astype(np.float32)  # some go outside
    return x, w, off, RNG.standard_normal(o).astype(np.float32)


@pytest.mark.parametrize("setup", SETUPS)
def test_deformable_conv2d_matches_mindspore(setup):
    c, o, g, dg, k, st, pad, dil = setup
    x, w, off, b = _case(*setup)
    expected, got = (mod.ops.deformable_conv2d(mod.Tensor(x), mod.Tensor(w), mod.Tensor(off), k, st, pad,
                                               mod.Tensor(b), dil, g, dg).asnumpy() for mod in (mindspore, mindjax))
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("setup", SETUPS)
def test_deformable_offsets_matches_mindspore(setup):
    c, o, g, dg, k, st, pad, dil = setup
    x, _, off, _ = _case(*setup)
    expected, got = (mod.ops.DeformableOffsets(st, pad, k, dil, "NCHW", dg)(mod.Tensor(x), mod.Tensor(off)).asnumpy()
                     for mod in (mindspore, mindjax))
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
