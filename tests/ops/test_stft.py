"""ops.stft against numpy's FFT of the framed signal, and its errors."""
import numpy as np
import pytest

import mindjax
from mindjax import ops


def test_stft_is_the_fft_of_windowed_frames():
    x = np.random.default_rng(4).standard_normal(16).astype(np.float32)
    window = np.hanning(8).astype(np.float32)
    out = ops.stft(x, 8, 4, window=window, center=False, return_complex=True).asnumpy()
    frames = np.stack([x[i:i + 8] * window for i in range(0, 9, 4)])
    np.testing.assert_allclose(out, np.fft.rfft(frames, axis=-1).T, rtol=1e-5, atol=1e-5)


def test_stft_complex_input_is_two_sided_and_complex_by_default():
    x = (np.arange(12) + 1j * np.arange(12)[::-1]).astype(np.complex64)
    out = ops.stft(x, 4, center=False)
    assert out.dtype == mindjax.complex64 and out.shape == (4, 9)


def test_stft_jits():
    x = np.random.default_rng(5).standard_normal((1, 32)).astype(np.float32)
    eager = ops.stft(x, 8).asnumpy()
    np.testing.assert_allclose(np.asarray(mindjax.jit(lambda a: ops.stft(a, 8))(x)), eager, rtol=1e-6)


def test_stft_errors_name_the_op_and_argument():
    x = np.ones(16, np.float32)
    with pytest.raises(ValueError, match=r"For 'stft', 'win_length' \(10\) must be at most 'n_fft' \(8\)"):
        ops.stft(x, 8, win_length=10)
    with pytest.raises(ValueError, match=r"For 'stft', 'window' must have shape \(8,\) \(win_length\), got \(4,\)"):
        ops.stft(x, 8, window=np.ones(4, np.float32))
    with pytest.raises(ValueError, match="For 'stft', 'pad_mode' must be 'REFLECT' or 'CONSTANT', got 'edge'"):
        ops.stft(x, 8, pad_mode="edge")
    with pytest.raises(ValueError, match="For 'stft', 'x' must be 1-D or 2-D, got shape"):
        ops.stft(np.ones((1, 1, 16), np.float32), 8)
    with pytest.raises(ValueError, match="For 'stft', 'onesided' must be False for a complex input"):
        ops.stft(x.astype(np.complex64), 8, onesided=True)
    with pytest.raises(ValueError, match=r"For 'STFT', 'hop_length' must be a positive int, but got 0"):
        ops.STFT(8, 0, 8, False, True, True)
