"""ops.stft and the STFT Primitive against mindspore 2.10 on CPU."""
import mindspore
import numpy as np
import pytest
from mindspore import ops as ms_ops

import mindjax
from mindjax import ops as mj_ops

X = np.random.default_rng(0).standard_normal((2, 20)).astype(np.float32)
HANN6 = np.hanning(6).astype(np.float32)

CASES = [
    ("defaults", dict(n_fft=8)),
    ("window_hop_normalized_complex", dict(n_fft=8, hop_length=3, win_length=6, window=HANN6, normalized=True,
                                           return_complex=True)),
    ("no_center", dict(n_fft=8, center=False, return_complex=False)),
    ("constant_two_sided", dict(n_fft=8, pad_mode="CONSTANT", onesided=False, return_complex=True)),
    ("one_dimensional", dict(n_fft=6, hop_length=2)),
]


def _run(module, kwargs, x):
    kw = {k: module.Tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    return module.ops.stft(module.Tensor(x), **kw).asnumpy()


@pytest.mark.parametrize("name,kwargs", CASES, ids=[c[0] for c in CASES])
def test_stft_matches_mindspore(name, kwargs):
    x = X[0] if name == "one_dimensional" else X
    expected, got = _run(mindspore, kwargs, x), _run(mindjax, kwargs, x)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_stft_primitive_matches_mindspore():
    window = np.hamming(8).astype(np.float32)
    expected = ms_ops.STFT(8, 2, 8, True, True, True)(mindspore.Tensor(X), mindspore.Tensor(window)).asnumpy()
    got = mj_ops.STFT(8, 2, 8, True, True, True)(mindjax.Tensor(X), mindjax.Tensor(window)).asnumpy()
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
