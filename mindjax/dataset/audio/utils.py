"""Audio enums and filter banks (``mindspore.dataset.audio.utils``), in numpy.

The formulas are those MindSpore's audio transforms follow (torchaudio's):
HTK or Slaney mel scales, triangular filter banks, the DCT-II matrix.
"""
from __future__ import annotations

import enum
import math

import numpy as np

__all__ = ["BorderType", "FadeShape", "GainType", "MelType", "NormMode", "NormType", "ScaleType", "WindowType",
           "create_dct", "linear_fbanks", "melscale_fbanks"]


class BorderType(str, enum.Enum):
    """Padding modes."""

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class FadeShape(str, enum.Enum):
    """Fade curves of ``Fade``."""

    QUARTER_SINE = "quarter_sine"
    HALF_SINE = "half_sine"
    LINEAR = "linear"
    LOGARITHMIC = "logarithmic"
    EXPONENTIAL = "exponential"


class GainType(str, enum.Enum):
    """How ``Vol`` reads its gain."""

    AMPLITUDE = "amplitude"
    POWER = "power"
    DB = "db"


class MelType(str, enum.Enum):
    """Mel scales."""

    HTK = "htk"
    SLANEY = "slaney"


class NormMode(str, enum.Enum):
    """DCT normalization."""

    ORTHO = "ortho"
    NONE = "none"


class NormType(str, enum.Enum):
    """Mel filter normalization (``SLANEY``: divide each triangle by its band width)."""

    SLANEY = "slaney"
    NONE = "none"


class ScaleType(str, enum.Enum):
    """Whether a spectrogram holds power or magnitude."""

    POWER = "power"
    MAGNITUDE = "magnitude"


class WindowType(str, enum.Enum):
    """STFT windows (periodic, as torch's window functions)."""

    BARTLETT = "bartlett"
    BLACKMAN = "blackman"
    HAMMING = "hamming"
    HANN = "hann"
    KAISER = "kaiser"


def window(kind: WindowType, length: int) -> np.ndarray:
    """The periodic window ``kind`` of ``length`` samples (float64)."""
    n = np.arange(length, dtype=np.float64)
    if length == 1:
        return np.ones(1)
    kind = WindowType(kind)
    if kind == WindowType.HANN:
        return 0.5 - 0.5 * np.cos(2 * np.pi * n / length)
    if kind == WindowType.HAMMING:
        return 0.54 - 0.46 * np.cos(2 * np.pi * n / length)
    if kind == WindowType.BLACKMAN:
        return 0.42 - 0.5 * np.cos(2 * np.pi * n / length) + 0.08 * np.cos(4 * np.pi * n / length)
    if kind == WindowType.BARTLETT:
        return 1.0 - np.abs(2.0 * n / length - 1.0)
    return np.kaiser(length + 1, 12.0)[:-1]


def _hz_to_mel(freq: np.ndarray, mel_type: MelType) -> np.ndarray:
    freq = np.asarray(freq, dtype=np.float64)
    if MelType(mel_type) == MelType.HTK:
        return 2595.0 * np.log10(1.0 + freq / 700.0)
    f_sp, min_log_hz = 200.0 / 3, 1000.0
    min_log_mel, logstep = min_log_hz / f_sp, math.log(6.4) / 27.0
    mels = freq / f_sp
    return np.where(freq >= min_log_hz, min_log_mel + np.log(np.maximum(freq, 1e-30) / min_log_hz) / logstep, mels)


def _mel_to_hz(mels: np.ndarray, mel_type: MelType) -> np.ndarray:
    mels = np.asarray(mels, dtype=np.float64)
    if MelType(mel_type) == MelType.HTK:
        return 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    f_sp, min_log_hz = 200.0 / 3, 1000.0
    min_log_mel, logstep = min_log_hz / f_sp, math.log(6.4) / 27.0
    return np.where(mels >= min_log_mel, min_log_hz * np.exp(logstep * (mels - min_log_mel)), f_sp * mels)


def _triangles(all_freqs: np.ndarray, f_pts: np.ndarray) -> np.ndarray:
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return np.maximum(0.0, np.minimum(down, up))


def _check_bank(who: str, n_freqs: int, f_min: float, f_max: float, n_bands: int, sample_rate: int) -> None:
    for arg, value in (("n_freqs", n_freqs), ("n_bands", n_bands), ("sample_rate", sample_rate)):
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ValueError(f"For '{who}', '{arg}' must be a positive int, got {value!r}")
    if not 0 <= f_min < f_max:
        raise ValueError(f"For '{who}', need 0 <= f_min < f_max, got f_min={f_min}, f_max={f_max}")


def melscale_fbanks(n_freqs: int, f_min: float, f_max: float, n_mels: int, sample_rate: int,
                    norm: NormType = NormType.NONE, mel_type: MelType = MelType.HTK) -> np.ndarray:
    """Triangular mel filters, shape ``(n_freqs, n_mels)`` (float32).

    Arguments:
        n_freqs: STFT bins (``n_fft // 2 + 1``).
        f_min: lowest frequency (Hz).
        f_max: highest frequency (Hz).
        n_mels: filters.
        sample_rate: the signal's sample rate.
        norm: ``NormType.SLANEY`` divides each filter by its band width.
        mel_type: ``MelType.HTK`` or ``MelType.SLANEY`` scale.
    """
    _check_bank("melscale_fbanks", n_freqs, f_min, f_max, n_mels, sample_rate)
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m_pts = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    f_pts = _mel_to_hz(m_pts, mel_type)
    fb = _triangles(all_freqs, f_pts)
    if NormType(norm) == NormType.SLANEY:
        fb *= (2.0 / (f_pts[2:n_mels + 2] - f_pts[:n_mels]))[None, :]
    return fb.astype(np.float32)


def linear_fbanks(n_freqs: int, f_min: float, f_max: float, n_filter: int, sample_rate: int) -> np.ndarray:
    """Triangular filters equally spaced in Hz, shape ``(n_freqs, n_filter)`` (float32)."""
    _check_bank("linear_fbanks", n_freqs, f_min, f_max, n_filter, sample_rate)
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    return _triangles(all_freqs, np.linspace(f_min, f_max, n_filter + 2)).astype(np.float32)


def create_dct(n_mfcc: int, n_mels: int, norm: NormMode = NormMode.NONE) -> np.ndarray:
    """The DCT-II matrix, shape ``(n_mels, n_mfcc)`` (float32), orthonormal with ``NormMode.ORTHO``."""
    for arg, value in (("n_mfcc", n_mfcc), ("n_mels", n_mels)):
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ValueError(f"For 'create_dct', '{arg}' must be a positive int, got {value!r}")
    n = np.arange(n_mels, dtype=np.float64)
    k = np.arange(n_mfcc, dtype=np.float64)[:, None]
    dct = np.cos(np.pi / n_mels * (n + 0.5) * k)
    if NormMode(norm) == NormMode.NONE:
        dct *= 2.0
    else:
        dct[0] *= 1.0 / math.sqrt(2.0)
        dct *= math.sqrt(2.0 / n_mels)
    return dct.T.astype(np.float32)
