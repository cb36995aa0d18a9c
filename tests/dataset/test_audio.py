"""mindjax.dataset.audio: waveform and spectrogram transforms against their defining formulas."""
import math

import numpy as np
import pytest

from mindjax.dataset import audio

WAVE = (np.sin(np.arange(1000) / 7.0) * 0.5).astype(np.float32)


def test_spectrogram_matches_a_direct_stft_with_a_periodic_hann_window():
    n_fft, hop = 64, 16
    spec = audio.Spectrogram(n_fft=n_fft, hop_length=hop)(WAVE)
    padded = np.pad(WAVE.astype(np.float64), (n_fft // 2, n_fft // 2), mode="reflect")
    frames = (len(padded) - n_fft) // hop + 1
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n_fft) / n_fft)
    expect = np.stack([np.abs(np.fft.rfft(padded[t * hop:t * hop + n_fft] * window)) ** 2
                       for t in range(frames)], axis=1)
    assert spec.shape == (n_fft // 2 + 1, frames) and spec.dtype == np.float32
    np.testing.assert_allclose(spec, expect, rtol=1e-5, atol=1e-4)


def test_mel_scale_uses_the_htk_filter_bank_and_mfcc_has_n_mfcc_rows():
    fb = audio.melscale_fbanks(201, 0.0, 8000.0, 40, 16000)
    mel = np.linspace(0, 2595 * np.log10(1 + 8000 / 700), 42)
    edges = 700 * (10 ** (mel / 2595) - 1)
    freqs = np.linspace(0, 8000, 201)
    expect = np.array([[max(0.0, min((f - edges[m]) / (edges[m + 1] - edges[m]),
                                     (edges[m + 2] - f) / (edges[m + 2] - edges[m + 1]))) for m in range(40)]
                       for f in freqs])
    assert fb.shape == (201, 40)
    np.testing.assert_allclose(fb, expect, atol=1e-5)
    spec = audio.Spectrogram()(WAVE)
    np.testing.assert_allclose(audio.MelScale(n_mels=40)(spec), fb.T @ spec, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(audio.MelSpectrogram(n_mels=40)(WAVE), fb.T @ spec, rtol=1e-4, atol=1e-3)
    assert audio.MFCC(n_mfcc=13, melkwargs={"n_mels": 40})(WAVE).shape == (13, spec.shape[1])
    dct = audio.create_dct(4, 8, audio.NormMode.ORTHO)
    np.testing.assert_allclose(dct.T @ dct, np.eye(4), atol=1e-6)


def test_amplitude_to_db_clamps_to_top_db_and_db_to_amplitude_inverts():
    power = np.array([[1.0, 1e-3, 1e-12]], np.float32)
    db = audio.AmplitudeToDB(top_db=50.0)(power)
    np.testing.assert_allclose(db, [[0.0, -30.0, -50.0]], atol=1e-4)
    mag = audio.AmplitudeToDB(audio.ScaleType.MAGNITUDE, top_db=0.0)(np.array([[10.0]], np.float32))
    np.testing.assert_allclose(mag, [[20.0]])
    np.testing.assert_allclose(audio.DBToAmplitude(1.0, 1.0)(np.array([-30.0, 0.0])), [1e-3, 1.0], rtol=1e-6)


def test_complex_ops_gain_vol_and_mu_law():
    c = np.array([[3.0, 4.0], [0.0, -1.0]])
    np.testing.assert_allclose(audio.ComplexNorm()(c), [5.0, 1.0])
    np.testing.assert_allclose(audio.Angle()(c), [math.atan2(4, 3), -math.pi / 2])
    mag, phase = audio.Magphase(2.0)(c)
    np.testing.assert_allclose(mag, [25.0, 1.0])
    np.testing.assert_allclose(audio.Gain(20.0)(np.array([0.1])), [1.0])
    np.testing.assert_allclose(audio.Vol(2.0)(np.array([0.3, 0.8])), [0.6, 1.0])
    np.testing.assert_allclose(audio.Vol(6.0, audio.GainType.DB)(np.array([0.1])), [0.1 * 10 ** 0.3])
    encoded = audio.MuLawEncoding()(WAVE)
    assert encoded.dtype == np.int32 and 0 <= encoded.min() and encoded.max() <= 255
    np.testing.assert_allclose(audio.MuLawDecoding()(encoded), WAVE, atol=0.02)


def test_masking_sets_rows_or_columns_and_iid_masks_are_reproducible():
    spec = np.ones((2, 6, 8), np.float32)
    freq = audio.FrequencyMasking(freq_mask_param=2, mask_start=1, mask_value=-1.0)(spec)
    assert (freq[:, 1:3] == -1).all() and (freq[:, [0, 3, 4, 5]] == 1).all()
    time = audio.TimeMasking(time_mask_param=3, mask_start=4)(spec)
    assert (time[..., 4:7] == 0).all() and (time[..., :4] == 1).all()
    masked = audio.MaskAlongAxis(0, 2, 5.0, axis=2)(spec)
    assert (masked[..., :2] == 5).all()
    rng = np.random.default_rng(0)
    a = audio.MaskAlongAxisIID(4, 0.0, axis=1)._apply(spec, rng=np.random.default_rng(3))
    b = audio.MaskAlongAxisIID(4, 0.0, axis=1)._apply(spec, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(a, b)
    del rng
    with pytest.raises(ValueError, match=r"For 'FrequencyMasking', mask \[5, 8\) exceeds the axis length 6"):
        audio.FrequencyMasking(freq_mask_param=3, mask_start=5)(spec)


def test_fade_deltas_and_dc_shift():
    faded = audio.Fade(fade_in_len=3, fade_out_len=2)(np.ones(6))
    np.testing.assert_allclose(faded, [0.0, 0.5, 1.0, 1.0, 1.0, 0.0])
    ramp = np.arange(10, dtype=np.float32)[None]
    deltas = audio.ComputeDeltas(win_length=5)(ramp)
    np.testing.assert_allclose(deltas[0, 2:-2], 1.0, rtol=1e-6)
    np.testing.assert_allclose(audio.DCShift(0.5, 0.05)(np.array([0.0, -0.2])), [0.5, 0.3])


def test_biquads_match_the_cookbook_coefficients_through_lfilter():
    from scipy.signal import lfilter

    w0 = 2 * math.pi * 1000 / 16000
    alpha = math.sin(w0) / 2 / 0.707
    b = [(1 - math.cos(w0)) / 2, 1 - math.cos(w0), (1 - math.cos(w0)) / 2]
    a = [1 + alpha, -2 * math.cos(w0), 1 - alpha]
    expect = np.clip(lfilter(b, a, WAVE.astype(np.float64)), -1, 1)
    np.testing.assert_allclose(audio.LowpassBiquad(16000, 1000.0)(WAVE), expect, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(audio.Biquad(*b, *a)(WAVE), expect, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(audio.LFilter(a, b, clamp=False)(WAVE), lfilter(b, a, WAVE), rtol=1e-5, atol=1e-6)
    flat = audio.EqualizerBiquad(16000, 1000.0, 0.0)(WAVE)
    np.testing.assert_allclose(flat, WAVE, atol=1e-6)
    for op in (audio.HighpassBiquad(16000, 500.0), audio.AllpassBiquad(16000, 500.0), audio.BandBiquad(16000, 500.0),
               audio.BandpassBiquad(16000, 500.0), audio.BandrejectBiquad(16000, 500.0),
               audio.BassBiquad(16000, 3.0), audio.TrebleBiquad(16000, 3.0)):
        out = op(WAVE)
        assert out.shape == WAVE.shape and np.isfinite(out).all()
    with pytest.raises(ValueError, match=r"For 'LowpassBiquad', 'Q' must be in \(0, 1\]"):
        audio.LowpassBiquad(16000, 100.0, Q=2.0)
