"""FractionalMaxPool, FractionalAvgPool (NHWC, random window boundaries) and DropoutGenMask/DropoutDoMask."""
import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops


def fractional_reference(x, rows, cols, overlapping, reduce):
    """numpy: each output cell reduces the window its boundaries give (plus the end row/column when overlapping)."""
    n, h, w, c = x.shape
    out = np.zeros((n, len(rows) - 1, len(cols) - 1, c), x.dtype)
    for i in range(len(rows) - 1):
        r1 = min(rows[i + 1] + 1, h) if overlapping else rows[i + 1]
        for j in range(len(cols) - 1):
            c1 = min(cols[j + 1] + 1, w) if overlapping else cols[j + 1]
            window = x[:, rows[i]:r1, cols[j]:c1, :]
            out[:, i, j] = window.max(axis=(1, 2)) if reduce == "max" else window.mean(axis=(1, 2))
    return out


def check_sequence(seq, size, out, ratio):
    assert seq.dtype == np.int64 and seq.shape == (out + 1,)
    assert seq[0] == 0 and seq[-1] == size
    steps = np.diff(seq)
    assert (steps >= 1).all() and (steps <= int(np.ceil(ratio)) + 1).all()


@pytest.mark.parametrize("cls, reduce", [("FractionalMaxPool", "max"), ("FractionalAvgPool", "mean")])
@pytest.mark.parametrize("pseudo_random", [False, True])
@pytest.mark.parametrize("overlapping", [False, True])
def test_fractional_pool_reduces_the_windows_of_its_returned_sequences(cls, reduce, pseudo_random, overlapping):
    x = np.random.default_rng(0).standard_normal((2, 9, 7, 3)).astype(np.float32)
    op = getattr(ops, cls)([1.0, 1.5, 1.7, 1.0], pseudo_random=pseudo_random, overlapping=overlapping)
    y, rows, cols = op(ms.Tensor(x))
    assert y.shape == (2, 6, 4, 3) and y.dtype == ms.float32
    check_sequence(rows.asnumpy(), 9, 6, 1.5)
    check_sequence(cols.asnumpy(), 7, 4, 1.7)
    want = fractional_reference(x, rows.asnumpy(), cols.asnumpy(), overlapping, reduce)
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_fractional_pool_is_reproducible_when_deterministic_and_draws_anew_otherwise():
    x = ms.Tensor(np.random.default_rng(1).standard_normal((1, 20, 20, 1)).astype(np.float32))
    op = ops.FractionalMaxPool([1.0, 1.4, 1.4, 1.0], deterministic=True, seed=5, seed2=1)
    np.testing.assert_array_equal(op(x)[1].asnumpy(), op(x)[1].asnumpy())
    drawn = ops.FractionalMaxPool([1.0, 1.4, 1.4, 1.0])
    assert any((drawn(x)[1].asnumpy() != drawn(x)[1].asnumpy()).any() for _ in range(5))


def test_fractional_pool_under_jit_equals_the_reference():
    x = np.random.default_rng(2).standard_normal((1, 8, 8, 2)).astype(np.float32)
    op = ops.FractionalAvgPool([1.0, 2.0, 1.5, 1.0], deterministic=True, seed=1)
    y, rows, cols = jax.jit(lambda a: op(a))(x)
    np.testing.assert_allclose(np.asarray(y), fractional_reference(x, np.asarray(rows), np.asarray(cols), False,
                                                                   "mean"), rtol=1e-6)


def test_fractional_pool_checks_its_arguments_naming_them():
    with pytest.raises(ValueError, match=r"For 'FractionalMaxPool', the first and last elements of 'pooling_ratio' "
                                         r"must be 1.0, but got \(2.0, 1.5, 1.5, 1.0\)"):
        ops.FractionalMaxPool([2.0, 1.5, 1.5, 1.0])
    with pytest.raises(ValueError, match=r"the second and third elements of 'pooling_ratio' must be >= 1.0"):
        ops.FractionalAvgPool([1.0, 0.5, 1.5, 1.0])
    with pytest.raises(ValueError, match=r"both 'seed' and 'seed2' must be 0 if 'deterministic' is false, but got "
                                         r"seed=3, seed2=0"):
        ops.FractionalMaxPool([1.0, 1.5, 1.5, 1.0], seed=3)
    with pytest.raises(TypeError, match=r"'pooling_ratio' must be a list or tuple of 4 floats, but got 1.5"):
        ops.FractionalMaxPool(1.5)
    with pytest.raises(ValueError, match=r"'x' must be 4-D \(N, H, W, C\), but got shape \(4, 4\)"):
        ops.FractionalMaxPool([1.0, 1.5, 1.5, 1.0])(ms.Tensor(np.ones((4, 4), np.float32)))
    with pytest.raises(TypeError, match=r"'x' must be float32, float64, int32 or int64, but got float16"):
        ops.FractionalMaxPool([1.0, 1.5, 1.5, 1.0])(ms.Tensor(np.ones((1, 4, 4, 1), np.float16)))


def test_dropout_gen_mask_packs_one_bit_per_element_in_128_element_blocks():
    mask = ops.DropoutGenMask(1, 2)((100, 100), ms.Tensor(0.3, ms.float32))
    assert mask.dtype == ms.uint8 and mask.shape == (-(-10000 // 128) * 16,)
    kept = np.unpackbits(mask.asnumpy(), bitorder="little")
    assert abs(kept.mean() - 0.3) < 0.03


def test_dropout_do_mask_keeps_the_masked_elements_scaled_by_one_over_keep_prob():
    keep_prob = ms.Tensor(0.5, ms.float32)
    x = np.random.default_rng(3).standard_normal((3, 50)).astype(np.float32)
    mask = ops.DropoutGenMask()((3, 50), keep_prob)
    y = ops.DropoutDoMask()(ms.Tensor(x), mask, keep_prob).asnumpy()
    bits = np.unpackbits(mask.asnumpy(), bitorder="little")[:150].reshape(3, 50)
    np.testing.assert_allclose(y, x * bits / 0.5, rtol=1e-6)


def test_dropout_mask_ops_check_their_inputs():
    with pytest.raises(TypeError, match=r"For 'DropoutGenMask', 'shape' must be a tuple of positive ints, but got "
                                        r"\[2, 3\]"):
        ops.DropoutGenMask()([2, 3], ms.Tensor(0.5, ms.float32))
    with pytest.raises(ValueError, match=r"For 'DropoutGenMask', 'keep_prob' must be in \(0, 1\], but got 1.5"):
        ops.DropoutGenMask()((2, 3), ms.Tensor(1.5, ms.float32))
    with pytest.raises(TypeError, match=r"For 'DropoutGenMask', 'Seed0' must be an int, got float"):
        ops.DropoutGenMask(1.0)
    with pytest.raises(TypeError, match=r"For 'DropoutDoMask', 'mask' must be a 1-D uint8 Tensor"):
        ops.DropoutDoMask()(ms.Tensor(np.ones(4, np.float32)), ms.Tensor(np.ones(4, np.float32)),
                            ms.Tensor(0.5, ms.float32))
    with pytest.raises(ValueError, match=r"'mask' holds 128 bits, fewer than the 200 elements of 'input_x'"):
        ops.DropoutDoMask()(ms.Tensor(np.ones(200, np.float32)), ms.Tensor(np.zeros(16, np.uint8)),
                            ms.Tensor(0.5, ms.float32))
