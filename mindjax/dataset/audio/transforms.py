"""Audio transforms on numpy waveforms and spectrograms (``mindspore.dataset.audio.transforms``).

Waveforms are ``(..., time)``; spectrograms ``(..., freq, time)``; complex
values are ``(..., 2)`` (real, imaginary). Float inputs keep their dtype,
other inputs become float32. The formulas are those MindSpore follows
(torchaudio's); filters run through ``scipy.signal.lfilter``.

Not here yet: the pitch, time-stretch and resampling family (``PitchShift``,
``TimeStretch``, ``PhaseVocoder``, ``Resample``, ``GriffinLim``,
``InverseMelScale``, ``InverseSpectrogram``, ``DetectPitchFrequency``,
``Vad``), the effects ``Flanger``, ``Phaser``, ``Overdrive``, ``Contrast``,
``Dither``, ``RiaaBiquad``, ``DeemphBiquad``, and ``LFCC``,
``SpectralCentroid``, ``SlidingWindowCmn``, ``Filtfilt``.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from mindjax.dataset.audio.utils import (BorderType, FadeShape, GainType, MelType, NormMode, NormType, ScaleType,
                                         WindowType, create_dct, melscale_fbanks, window)
from mindjax.dataset.transforms.base import RandomTransform, Transform

__all__ = ["AmplitudeToDB", "DBToAmplitude", "Angle", "ComplexNorm", "Magphase", "Gain", "Vol", "DCShift", "Fade",
           "MuLawEncoding", "MuLawDecoding", "ComputeDeltas", "MaskAlongAxis", "MaskAlongAxisIID",
           "FrequencyMasking", "TimeMasking", "Spectrogram", "MelScale", "MelSpectrogram", "MFCC", "LFilter",
           "Biquad", "LowpassBiquad", "HighpassBiquad", "AllpassBiquad", "BandpassBiquad", "BandrejectBiquad",
           "BandBiquad", "EqualizerBiquad", "BassBiquad", "TrebleBiquad"]


def _float(x: Any, who: str, min_ndim: int = 1) -> np.ndarray:
    arr = np.asarray(x)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"For '{who}', the input must be numeric, got dtype {arr.dtype}")
    if arr.ndim < min_ndim:
        raise ValueError(f"For '{who}', the input needs at least {min_ndim} dimension(s), got shape {arr.shape}")
    return arr if arr.dtype.kind == "f" else arr.astype(np.float32)


def _complex(x: Any, who: str) -> np.ndarray:
    arr = _float(x, who)
    if arr.shape[-1] != 2:
        raise ValueError(f"For '{who}', the input must be complex as (..., 2), got shape {arr.shape}")
    return arr


def _number(value: Any, who: str, arg: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TypeError(f"For '{who}', '{arg}' must be a number, got {value!r}")
    return float(value)


def _int(value: Any, who: str, arg: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{who}', '{arg}' must be an int, got {value!r}")
    if value < low:
        raise ValueError(f"For '{who}', '{arg}' must be >= {low}, got {value}")
    return value


def _enum(value: Any, kind: type, who: str, arg: str) -> Any:
    if not isinstance(value, kind):
        raise TypeError(f"For '{who}', '{arg}' must be an audio.{kind.__name__}, got {value!r}")
    return value


class AmplitudeToDB(Transform):
    """Power or magnitude to decibels: ``multiplier * log10(max(x, amin)) - multiplier * log10(max(ref, amin))``.

    ``multiplier`` is 10 for ``ScaleType.POWER``, 20 for ``ScaleType.MAGNITUDE``;
    values more than ``top_db`` below the maximum of each spectrogram are raised to it.
    """

    def __init__(self, stype: ScaleType = ScaleType.POWER, ref_value: float = 1.0, amin: float = 1e-10,
                 top_db: float = 80.0) -> None:
        self.stype = _enum(stype, ScaleType, "AmplitudeToDB", "stype")
        self.ref_value = _number(ref_value, "AmplitudeToDB", "ref_value")
        self.amin = _number(amin, "AmplitudeToDB", "amin")
        self.top_db = _number(top_db, "AmplitudeToDB", "top_db")
        if self.ref_value <= 0 or self.amin <= 0:
            raise ValueError(f"For 'AmplitudeToDB', 'ref_value' and 'amin' must be positive, got {ref_value}, {amin}")
        if self.top_db < 0:
            raise ValueError(f"For 'AmplitudeToDB', 'top_db' must be non-negative, got {top_db}")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = _float(x, "AmplitudeToDB")
        multiplier = 10.0 if self.stype == ScaleType.POWER else 20.0
        db = multiplier * np.log10(np.maximum(arr, self.amin))
        db = db - multiplier * math.log10(max(self.ref_value, self.amin))
        if self.top_db:
            axes = tuple(range(-min(arr.ndim, 3), 0))
            db = np.maximum(db, db.max(axis=axes, keepdims=True) - self.top_db)
        return db.astype(arr.dtype)


class DBToAmplitude(Transform):
    """Decibels back to amplitude: ``ref * (10 ** (0.1 * x)) ** power``."""

    def __init__(self, ref: float, power: float) -> None:
        self.ref, self.power = _number(ref, "DBToAmplitude", "ref"), _number(power, "DBToAmplitude", "power")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = _float(x, "DBToAmplitude", 0)
        return (self.ref * np.power(np.power(10.0, 0.1 * arr), self.power)).astype(arr.dtype)


class Angle(Transform):
    """The phase ``atan2(imag, real)`` of a complex ``(..., 2)`` input."""

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = _complex(x, "Angle")
        return np.arctan2(arr[..., 1], arr[..., 0]).astype(arr.dtype)


class ComplexNorm(Transform):
    """The norm of a complex ``(..., 2)`` input, raised to ``power``."""

    def __init__(self, power: float = 1.0) -> None:
        self.power = _number(power, "ComplexNorm", "power")
        if self.power < 0:
            raise ValueError(f"For 'ComplexNorm', 'power' must be non-negative, got {power}")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = _complex(x, "ComplexNorm")
        return np.power(arr[..., 0] ** 2 + arr[..., 1] ** 2, 0.5 * self.power).astype(arr.dtype)


class Magphase(Transform):
    """A complex ``(..., 2)`` input as (norm ** ``power``, phase)."""

    def __init__(self, power: float = 1.0) -> None:
        self.power = _number(power, "Magphase", "power")
        if self.power < 0:
            raise ValueError(f"For 'Magphase', 'power' must be non-negative, got {power}")

    def _apply(self, x: Any, rng: Any = None) -> tuple[np.ndarray, np.ndarray]:
        return ComplexNorm(self.power)._apply(x), Angle()._apply(x)


class Gain(Transform):
    """Scale a waveform by ``gain_db`` decibels."""

    def __init__(self, gain_db: float = 1.0) -> None:
        self.gain_db = _number(gain_db, "Gain", "gain_db")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = _float(x, "Gain", 0)
        return (arr * 10.0 ** (self.gain_db / 20.0)).astype(arr.dtype)


class Vol(Transform):
    """Scale a waveform by ``gain`` (an amplitude ratio, a power ratio or decibels), clipped to [-1, 1]."""

    def __init__(self, gain: float, gain_type: GainType = GainType.AMPLITUDE) -> None:
        self.gain = _number(gain, "Vol", "gain")
        self.gain_type = _enum(gain_type, GainType, "Vol", "gain_type")
        if self.gain_type in (GainType.AMPLITUDE, GainType.POWER) and self.gain < 0:
            raise ValueError(f"For 'Vol', 'gain' must be non-negative for {self.gain_type.value}, got {gain}")
        if self.gain_type == GainType.POWER and self.gain == 0:
            raise ValueError("For 'Vol', 'gain' must be positive for power")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = _float(x, "Vol", 0)
        if self.gain_type == GainType.AMPLITUDE:
            out = arr * self.gain
        else:
            db = self.gain if self.gain_type == GainType.DB else 10.0 * math.log10(self.gain)
            out = arr * 10.0 ** (db / 20.0)
        return np.clip(out, -1.0, 1.0).astype(arr.dtype)


class DCShift(Transform):
    """Shift a waveform by ``shift``, limiting peaks near +-1 with ``limiter_gain`` (default: ``shift``)."""

    def __init__(self, shift: float, limiter_gain: float | None = None) -> None:
        self.shift = _number(shift, "DCShift", "shift")
        if not -2.0 <= self.shift <= 2.0:
            raise ValueError(f"For 'DCShift', 'shift' must be in [-2.0, 2.0], got {shift}")
        self.limiter_gain = self.shift if not limiter_gain else _number(limiter_gain, "DCShift", "limiter_gain")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = _float(x, "DCShift", 0)
        shift, gain = self.shift, self.limiter_gain
        threshold = 1.0 - (abs(shift) - gain)
        plain = np.clip(arr + shift, -1.0, 1.0)
        if shift > 0 and threshold != 1.0:
            mask = arr > threshold
            limited = np.minimum((arr - threshold) * gain / (1 - threshold) + threshold + shift, threshold)
            out = np.where(mask, limited, plain)
        elif shift < 0 and threshold != 1.0:
            mask = arr < -threshold
            limited = np.maximum((arr + threshold) * gain / (1 - threshold) - threshold + shift, -threshold)
            out = np.where(mask, limited, plain)
        else:
            out = plain
        return out.astype(arr.dtype)


def _fade_in(length: int, shape: FadeShape) -> np.ndarray:
    t = np.linspace(0.0, 1.0, length)
    return {FadeShape.LINEAR: lambda: t, FadeShape.EXPONENTIAL: lambda: 2.0 ** ((t - 1) * 5),
            FadeShape.LOGARITHMIC: lambda: np.log10(0.1 + t) + 1, FadeShape.QUARTER_SINE: lambda: np.sin(t * np.pi / 2),
            FadeShape.HALF_SINE: lambda: np.sin(t * np.pi - np.pi / 2) / 2 + 0.5}[shape]()


def _fade_out(length: int, shape: FadeShape) -> np.ndarray:
    t = np.linspace(0.0, 1.0, length)
    return {FadeShape.LINEAR: lambda: 1.0 - t, FadeShape.EXPONENTIAL: lambda: 2.0 ** (-t * 5),
            FadeShape.LOGARITHMIC: lambda: np.log10(1.1 - t) + 1,
            FadeShape.QUARTER_SINE: lambda: np.sin(t * np.pi / 2 + np.pi / 2),
            FadeShape.HALF_SINE: lambda: np.sin(t * np.pi + np.pi / 2) / 2 + 0.5}[shape]()


class Fade(Transform):
    """Fade a waveform in over its first ``fade_in_len`` samples and out over its last ``fade_out_len``."""

    def __init__(self, fade_in_len: int = 0, fade_out_len: int = 0,
                 fade_shape: FadeShape = FadeShape.LINEAR) -> None:
        self.fade_in_len = _int(fade_in_len, "Fade", "fade_in_len")
        self.fade_out_len = _int(fade_out_len, "Fade", "fade_out_len")
        self.fade_shape = _enum(fade_shape, FadeShape, "Fade", "fade_shape")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = _float(x, "Fade")
        n = arr.shape[-1]
        if self.fade_in_len > n or self.fade_out_len > n:
            raise ValueError(f"For 'Fade', fade lengths ({self.fade_in_len}, {self.fade_out_len}) exceed the "
                             f"waveform length {n}")
        curve = np.ones(n)
        curve[:self.fade_in_len] *= _fade_in(self.fade_in_len, self.fade_shape)
        if self.fade_out_len:
            curve[n - self.fade_out_len:] *= _fade_out(self.fade_out_len, self.fade_shape)
        return (arr * curve).astype(arr.dtype)


class MuLawEncoding(Transform):
    """Mu-law companding of a waveform in [-1, 1] into ``quantization_channels`` integer levels (int32)."""

    def __init__(self, quantization_channels: int = 256) -> None:
        self.quantization_channels = _int(quantization_channels, "MuLawEncoding", "quantization_channels", 1)

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = _float(x, "MuLawEncoding", 0).astype(np.float64)
        mu = self.quantization_channels - 1.0
        x_mu = np.sign(arr) * np.log1p(mu * np.abs(arr)) / math.log1p(mu)
        return ((x_mu + 1) / 2 * mu + 0.5).astype(np.int32)


class MuLawDecoding(Transform):
    """The inverse of :class:`MuLawEncoding` (float32)."""

    def __init__(self, quantization_channels: int = 256) -> None:
        self.quantization_channels = _int(quantization_channels, "MuLawDecoding", "quantization_channels", 1)

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = np.asarray(x, dtype=np.float64)
        mu = self.quantization_channels - 1.0
        y = arr / mu * 2 - 1.0
        out = np.sign(y) * (np.exp(np.abs(y) * math.log1p(mu)) - 1.0) / mu
        return out.astype(np.float32)


class ComputeDeltas(Transform):
    """Delta coefficients along time: ``sum_k k * (x[t+k] - x[t-k]) / (2 * sum_k k^2)`` for ``k = 1..n``."""

    def __init__(self, win_length: int = 5, pad_mode: BorderType = BorderType.EDGE) -> None:
        self.win_length = _int(win_length, "ComputeDeltas", "win_length", 3)
        self.pad_mode = _enum(pad_mode, BorderType, "ComputeDeltas", "pad_mode")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = _float(x, "ComputeDeltas", 2)
        n = (self.win_length - 1) // 2
        denom = n * (n + 1) * (2 * n + 1) / 3
        widths = [(0, 0)] * (arr.ndim - 1) + [(n, n)]
        padded = np.pad(arr, widths, mode=self.pad_mode.value) if self.pad_mode != BorderType.CONSTANT else np.pad(
            arr, widths)
        t = arr.shape[-1]
        out = sum(k * padded[..., n + k:n + k + t] for k in range(-n, n + 1)) / denom
        return out.astype(arr.dtype)


def _axis_dim(axis: int, who: str) -> int:
    if axis not in (1, 2):
        raise ValueError(f"For '{who}', 'axis' must be 1 (frequency) or 2 (time), got {axis!r}")
    return -2 if axis == 1 else -1


def _mask(arr: np.ndarray, dim: int, start: int, width: int, value: float) -> np.ndarray:
    out = arr.copy()
    index = [slice(None)] * arr.ndim
    index[dim] = slice(start, start + width)
    out[tuple(index)] = value
    return out


class MaskAlongAxis(Transform):
    """Set ``mask_width`` rows (axis 1, frequency) or columns (axis 2, time) from ``mask_start`` to ``mask_value``."""

    def __init__(self, mask_start: int, mask_width: int, mask_value: float, axis: int) -> None:
        self.mask_start = _int(mask_start, "MaskAlongAxis", "mask_start")
        self.mask_width = _int(mask_width, "MaskAlongAxis", "mask_width", 1)
        self.mask_value = _number(mask_value, "MaskAlongAxis", "mask_value")
        self.axis = axis
        self._dim = _axis_dim(axis, "MaskAlongAxis")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = _float(x, "MaskAlongAxis", 2)
        if self.mask_start + self.mask_width > arr.shape[self._dim]:
            raise ValueError(f"For 'MaskAlongAxis', mask [{self.mask_start}, {self.mask_start + self.mask_width}) "
                             f"exceeds the axis length {arr.shape[self._dim]}")
        return _mask(arr, self._dim, self.mask_start, self.mask_width, self.mask_value)


def _random_mask(arr: np.ndarray, dim: int, param: int, value: float, rng: np.random.Generator,
                 who: str) -> np.ndarray:
    size = arr.shape[dim]
    if param > size:
        raise ValueError(f"For '{who}', the mask parameter {param} exceeds the axis length {size}")
    width = int(rng.integers(0, param + 1))
    start = int(rng.integers(0, size - width + 1))
    return _mask(arr, dim, start, width, value)


class MaskAlongAxisIID(RandomTransform):
    """A mask of random width in [0, ``mask_param``] at a random start, along axis 1 (frequency) or 2 (time)."""

    def __init__(self, mask_param: int, mask_value: float, axis: int) -> None:
        self.mask_param = _int(mask_param, "MaskAlongAxisIID", "mask_param")
        self.mask_value = _number(mask_value, "MaskAlongAxisIID", "mask_value")
        self.axis = axis
        self._dim = _axis_dim(axis, "MaskAlongAxisIID")

    def _apply(self, x: Any, rng: np.random.Generator | None = None) -> np.ndarray:
        return _random_mask(_float(x, "MaskAlongAxisIID", 2), self._dim, self.mask_param, self.mask_value, rng,
                            "MaskAlongAxisIID")


class _AxisMasking(RandomTransform):
    _who = ""
    _dim = -1

    def __init__(self, iid_masks: bool, param: int, mask_start: int, mask_value: float, arg: str) -> None:
        if not isinstance(iid_masks, bool):
            raise TypeError(f"For '{self._who}', 'iid_masks' must be a bool, got {iid_masks!r}")
        self.iid_masks = iid_masks
        self._param = _int(param, self._who, arg)
        self.mask_start = _int(mask_start, self._who, "mask_start")
        self.mask_value = _number(mask_value, self._who, "mask_value")

    def _is_random(self) -> bool:
        return self.iid_masks

    def _apply(self, x: Any, rng: np.random.Generator | None = None) -> np.ndarray:
        arr = _float(x, self._who, 2)
        if self.iid_masks:
            return _random_mask(arr, self._dim, self._param, self.mask_value, rng, self._who)
        if self.mask_start + self._param > arr.shape[self._dim]:
            raise ValueError(f"For '{self._who}', mask [{self.mask_start}, {self.mask_start + self._param}) exceeds "
                             f"the axis length {arr.shape[self._dim]}")
        return _mask(arr, self._dim, self.mask_start, self._param, self.mask_value)


class FrequencyMasking(_AxisMasking):
    """Mask rows of a ``(..., freq, time)`` spectrogram.

    With ``iid_masks`` the width is drawn from [0, ``freq_mask_param``] and the start
    at random; otherwise rows ``[mask_start, mask_start + freq_mask_param)`` are masked.
    """

    _who = "FrequencyMasking"
    _dim = -2

    def __init__(self, iid_masks: bool = False, freq_mask_param: int = 0, mask_start: int = 0,
                 mask_value: float = 0.0) -> None:
        super().__init__(iid_masks, freq_mask_param, mask_start, mask_value, "freq_mask_param")
        self.freq_mask_param = freq_mask_param


class TimeMasking(_AxisMasking):
    """Mask columns of a ``(..., freq, time)`` spectrogram (see :class:`FrequencyMasking`)."""

    _who = "TimeMasking"
    _dim = -1

    def __init__(self, iid_masks: bool = False, time_mask_param: int = 0, mask_start: int = 0,
                 mask_value: float = 0.0) -> None:
        super().__init__(iid_masks, time_mask_param, mask_start, mask_value, "time_mask_param")
        self.time_mask_param = time_mask_param


class Spectrogram(Transform):
    """The STFT magnitude of a waveform ``(..., time)`` raised to ``power``: ``(..., n_fft // 2 + 1, frames)``.

    Arguments:
        n_fft: FFT size.
        win_length: window length (default ``n_fft``), zero-padded to ``n_fft`` centred.
        hop_length: hop (default ``win_length // 2``).
        pad: zeros added on both sides first.
        window: a :class:`WindowType` (periodic).
        power: exponent of the magnitude (2: power).
        normalized: divide by the window's L2 norm.
        center: pad ``n_fft // 2`` on both sides with ``pad_mode``.
        pad_mode: a :class:`BorderType`.
        onesided: keep only the non-negative frequencies.
    """

    def __init__(self, n_fft: int = 400, win_length: int | None = None, hop_length: int | None = None, pad: int = 0,
                 window: WindowType = WindowType.HANN, power: float = 2.0, normalized: bool = False,
                 center: bool = True, pad_mode: BorderType = BorderType.REFLECT, onesided: bool = True) -> None:
        self.n_fft = _int(n_fft, "Spectrogram", "n_fft", 1)
        self.win_length = self.n_fft if win_length is None else _int(win_length, "Spectrogram", "win_length", 1)
        if self.win_length > self.n_fft:
            raise ValueError(f"For 'Spectrogram', 'win_length' {win_length} must be at most n_fft {n_fft}")
        self.hop_length = max(self.win_length // 2, 1) if hop_length is None else _int(
            hop_length, "Spectrogram", "hop_length", 1)
        self.pad = _int(pad, "Spectrogram", "pad")
        self.window = _enum(window, WindowType, "Spectrogram", "window")
        self.power = _number(power, "Spectrogram", "power")
        if self.power < 0:
            raise ValueError(f"For 'Spectrogram', 'power' must be non-negative, got {power}")
        for arg, value in (("normalized", normalized), ("center", center), ("onesided", onesided)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'Spectrogram', '{arg}' must be a bool, got {value!r}")
        self.normalized, self.center, self.onesided = normalized, center, onesided
        self.pad_mode = _enum(pad_mode, BorderType, "Spectrogram", "pad_mode")

    def _window(self) -> np.ndarray:
        w = window(self.window, self.win_length)
        left = (self.n_fft - self.win_length) // 2
        return np.pad(w, (left, self.n_fft - self.win_length - left))

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = _float(x, "Spectrogram")
        sig = arr.astype(np.float64)
        if self.pad:
            sig = np.pad(sig, [(0, 0)] * (sig.ndim - 1) + [(self.pad, self.pad)])
        if self.center:
            half = self.n_fft // 2
            mode = self.pad_mode.value
            widths = [(0, 0)] * (sig.ndim - 1) + [(half, half)]
            sig = np.pad(sig, widths) if mode == "constant" else np.pad(sig, widths, mode=mode)
        if sig.shape[-1] < self.n_fft:
            raise ValueError(f"For 'Spectrogram', the waveform of {arr.shape[-1]} samples is shorter than n_fft "
                             f"{self.n_fft} after padding")
        frames = np.lib.stride_tricks.sliding_window_view(sig, self.n_fft, axis=-1)[..., ::self.hop_length, :]
        w = self._window()
        spec = np.fft.rfft(frames * w, axis=-1) if self.onesided else np.fft.fft(frames * w, axis=-1)
        if self.normalized:
            spec = spec / math.sqrt(float(np.sum(w ** 2)))
        out = np.abs(spec) ** self.power
        return np.swapaxes(out, -1, -2).astype(arr.dtype)


class MelScale(Transform):
    """A ``(..., n_stft, time)`` spectrogram onto ``n_mels`` mel bands: ``(..., n_mels, time)``."""

    def __init__(self, n_mels: int = 128, sample_rate: int = 16000, f_min: float = 0.0, f_max: float | None = None,
                 n_stft: int = 201, norm: NormType = NormType.NONE, mel_type: MelType = MelType.HTK) -> None:
        self.n_mels = _int(n_mels, "MelScale", "n_mels", 1)
        self.sample_rate = _int(sample_rate, "MelScale", "sample_rate", 1)
        self.f_min = _number(f_min, "MelScale", "f_min")
        self.f_max = float(sample_rate // 2) if f_max is None else _number(f_max, "MelScale", "f_max")
        self.n_stft = _int(n_stft, "MelScale", "n_stft", 1)
        self.norm = _enum(norm, NormType, "MelScale", "norm")
        self.mel_type = _enum(mel_type, MelType, "MelScale", "mel_type")
        self._fb = melscale_fbanks(self.n_stft, self.f_min, self.f_max, self.n_mels, self.sample_rate, self.norm,
                                   self.mel_type)

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = _float(x, "MelScale", 2)
        if arr.shape[-2] != self.n_stft:
            raise ValueError(f"For 'MelScale', the spectrogram has {arr.shape[-2]} frequency bins, expected "
                             f"n_stft={self.n_stft}")
        out = np.einsum("...ft,fm->...mt", arr.astype(np.float64), self._fb.astype(np.float64))
        return out.astype(arr.dtype)


class MelSpectrogram(Transform):
    """:class:`Spectrogram` then :class:`MelScale` (with MindSpore's arguments of both)."""

    def __init__(self, sample_rate: int = 16000, n_fft: int = 400, win_length: int | None = None,
                 hop_length: int | None = None, f_min: float = 0.0, f_max: float | None = None, pad: int = 0,
                 n_mels: int = 128, window: WindowType = WindowType.HANN, power: float = 2.0,
                 normalized: bool = False, center: bool = True, pad_mode: BorderType = BorderType.REFLECT,
                 onesided: bool = True, norm: NormType = NormType.NONE, mel_scale: MelType = MelType.HTK) -> None:
        self._spectrogram = Spectrogram(n_fft, win_length, hop_length, pad, window, power, normalized, center,
                                        pad_mode, onesided)
        self._mel = MelScale(n_mels, sample_rate, f_min, f_max, n_fft // 2 + 1, norm, mel_scale)
        self.sample_rate, self.n_fft, self.n_mels = sample_rate, n_fft, n_mels

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        return self._mel._apply(self._spectrogram._apply(x))


class MFCC(Transform):
    """Mel-frequency cepstral coefficients: mel spectrogram, decibels (or ``log``), DCT-II: ``(..., n_mfcc, time)``."""

    def __init__(self, sample_rate: int = 16000, n_mfcc: int = 40, dct_type: int = 2,
                 norm: NormMode = NormMode.ORTHO, log_mels: bool = False, melkwargs: dict[str, Any] | None = None) -> None:
        if dct_type != 2:
            raise ValueError(f"For 'MFCC', only dct_type 2 is supported, got {dct_type!r}")
        self.norm = _enum(norm, NormMode, "MFCC", "norm")
        if not isinstance(log_mels, bool):
            raise TypeError(f"For 'MFCC', 'log_mels' must be a bool, got {log_mels!r}")
        self.sample_rate, self.n_mfcc, self.dct_type, self.log_mels = sample_rate, n_mfcc, dct_type, log_mels
        kwargs = dict(melkwargs or {})
        kwargs["sample_rate"] = sample_rate
        self._mel = MelSpectrogram(**kwargs)
        if not isinstance(n_mfcc, int) or n_mfcc <= 0 or n_mfcc > self._mel.n_mels:
            raise ValueError(f"For 'MFCC', 'n_mfcc' must be in [1, n_mels={self._mel.n_mels}], got {n_mfcc!r}")
        self._dct = create_dct(n_mfcc, self._mel.n_mels, self.norm)
        self._db = AmplitudeToDB(ScaleType.POWER, 1.0, 1e-10, 80.0)

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        mel = self._mel._apply(x)
        mel = np.log(mel + 1e-6) if self.log_mels else self._db._apply(mel)
        out = np.einsum("...mt,mk->...kt", mel.astype(np.float64), self._dct.astype(np.float64))
        return out.astype(mel.dtype)


def _coeffs(values: Any, who: str, arg: str) -> np.ndarray:
    if not isinstance(values, (list, tuple)) or not values or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        raise TypeError(f"For '{who}', '{arg}' must be a non-empty sequence of numbers, got {values!r}")
    return np.asarray(values, dtype=np.float64)


def _lfilter(arr: np.ndarray, b: np.ndarray, a: np.ndarray, clamp: bool, who: str) -> np.ndarray:
    from scipy.signal import lfilter

    if a[0] == 0:
        raise ValueError(f"For '{who}', the first denominator coefficient a0 must not be 0")
    out = lfilter(b, a, arr.astype(np.float64), axis=-1)
    if clamp:
        out = np.clip(out, -1.0, 1.0)
    return out.astype(arr.dtype)


class LFilter(Transform):
    """An IIR filter ``b_coeffs / a_coeffs`` along time (zero initial state), clipped to [-1, 1] with ``clamp``."""

    def __init__(self, a_coeffs: Any, b_coeffs: Any, clamp: bool = True) -> None:
        self.a_coeffs = _coeffs(a_coeffs, "LFilter", "a_coeffs")
        self.b_coeffs = _coeffs(b_coeffs, "LFilter", "b_coeffs")
        if len(self.a_coeffs) != len(self.b_coeffs):
            raise ValueError(f"For 'LFilter', 'a_coeffs' and 'b_coeffs' must have the same length, got "
                             f"{len(self.a_coeffs)} and {len(self.b_coeffs)}")
        if not isinstance(clamp, bool):
            raise TypeError(f"For 'LFilter', 'clamp' must be a bool, got {clamp!r}")
        self.clamp = clamp

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        return _lfilter(_float(x, "LFilter"), self.b_coeffs, self.a_coeffs, self.clamp, "LFilter")


class Biquad(Transform):
    """The second-order filter ``(b0, b1, b2) / (a0, a1, a2)`` along time."""

    def __init__(self, b0: float, b1: float, b2: float, a0: float, a1: float, a2: float) -> None:
        values = [_number(v, "Biquad", n) for v, n in ((b0, "b0"), (b1, "b1"), (b2, "b2"), (a0, "a0"), (a1, "a1"),
                                                        (a2, "a2"))]
        if values[3] == 0:
            raise ValueError("For 'Biquad', 'a0' must not be 0")
        self._b, self._a = np.asarray(values[:3]), np.asarray(values[3:])

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        return _lfilter(_float(x, type(self).__name__), self._b, self._a, True, type(self).__name__)


class _Designed(Biquad):
    """A biquad designed from the Audio EQ Cookbook (``_design`` gives b, a)."""

    def __init__(self, sample_rate: int, frequency: float, Q: float) -> None:  # noqa: N803 - MindSpore's name
        who = type(self).__name__
        if not isinstance(sample_rate, int) or isinstance(sample_rate, bool) or sample_rate == 0:
            raise ValueError(f"For '{who}', 'sample_rate' must be a non-zero int, got {sample_rate!r}")
        self.sample_rate = sample_rate
        self.Q = _number(Q, who, "Q")
        if not 0 < self.Q <= 1:
            raise ValueError(f"For '{who}', 'Q' must be in (0, 1], got {Q}")
        self._w0 = 2 * math.pi * _number(frequency, who, "frequency") / sample_rate
        self._alpha = math.sin(self._w0) / 2 / self.Q
        b, a = self._design()
        self._b, self._a = np.asarray(b, dtype=np.float64), np.asarray(a, dtype=np.float64)

    def _design(self) -> tuple[list[float], list[float]]:
        raise NotImplementedError


class LowpassBiquad(_Designed):
    """Two-pole low-pass filter at ``cutoff_freq``."""

    def __init__(self, sample_rate: int, cutoff_freq: float, Q: float = 0.707) -> None:  # noqa: N803
        self.cutoff_freq = cutoff_freq
        super().__init__(sample_rate, cutoff_freq, Q)

    def _design(self) -> tuple[list[float], list[float]]:
        c, alpha = math.cos(self._w0), self._alpha
        return [(1 - c) / 2, 1 - c, (1 - c) / 2], [1 + alpha, -2 * c, 1 - alpha]


class HighpassBiquad(_Designed):
    """Two-pole high-pass filter at ``cutoff_freq``."""

    def __init__(self, sample_rate: int, cutoff_freq: float, Q: float = 0.707) -> None:  # noqa: N803
        self.cutoff_freq = cutoff_freq
        super().__init__(sample_rate, cutoff_freq, Q)

    def _design(self) -> tuple[list[float], list[float]]:
        c, alpha = math.cos(self._w0), self._alpha
        return [(1 + c) / 2, -1 - c, (1 + c) / 2], [1 + alpha, -2 * c, 1 - alpha]


class AllpassBiquad(_Designed):
    """Two-pole all-pass filter around ``central_freq``."""

    def __init__(self, sample_rate: int, central_freq: float, Q: float = 0.707) -> None:  # noqa: N803
        self.central_freq = central_freq
        super().__init__(sample_rate, central_freq, Q)

    def _design(self) -> tuple[list[float], list[float]]:
        c, alpha = math.cos(self._w0), self._alpha
        return [1 - alpha, -2 * c, 1 + alpha], [1 + alpha, -2 * c, 1 - alpha]


class BandpassBiquad(_Designed):
    """Two-pole band-pass filter at ``central_freq`` (constant skirt gain, or constant 0 dB peak gain)."""

    def __init__(self, sample_rate: int, central_freq: float, Q: float = 0.707,  # noqa: N803
                 const_skirt_gain: bool = False) -> None:
        if not isinstance(const_skirt_gain, bool):
            raise TypeError(f"For 'BandpassBiquad', 'const_skirt_gain' must be a bool, got {const_skirt_gain!r}")
        self.central_freq, self.const_skirt_gain = central_freq, const_skirt_gain
        super().__init__(sample_rate, central_freq, Q)

    def _design(self) -> tuple[list[float], list[float]]:
        c, alpha = math.cos(self._w0), self._alpha
        temp = math.sin(self._w0) / 2 if self.const_skirt_gain else alpha
        return [temp, 0.0, -temp], [1 + alpha, -2 * c, 1 - alpha]


class BandrejectBiquad(_Designed):
    """Two-pole band-reject (notch) filter at ``central_freq``."""

    def __init__(self, sample_rate: int, central_freq: float, Q: float = 0.707) -> None:  # noqa: N803
        self.central_freq = central_freq
        super().__init__(sample_rate, central_freq, Q)

    def _design(self) -> tuple[list[float], list[float]]:
        c, alpha = math.cos(self._w0), self._alpha
        return [1.0, -2 * c, 1.0], [1 + alpha, -2 * c, 1 - alpha]


class EqualizerBiquad(_Designed):
    """Peaking equalizer: ``gain`` dB around ``center_freq``."""

    def __init__(self, sample_rate: int, center_freq: float, gain: float, Q: float = 0.707) -> None:  # noqa: N803
        self.center_freq, self.gain = center_freq, _number(gain, "EqualizerBiquad", "gain")
        super().__init__(sample_rate, center_freq, Q)

    def _design(self) -> tuple[list[float], list[float]]:
        c, alpha = math.cos(self._w0), self._alpha
        a = math.exp(self.gain / 40.0 * math.log(10))
        return [1 + alpha * a, -2 * c, 1 - alpha * a], [1 + alpha / a, -2 * c, 1 - alpha / a]


class _Shelf(_Designed):
    _sign = 1

    def __init__(self, sample_rate: int, gain: float, central_freq: float, Q: float) -> None:  # noqa: N803
        self.gain, self.central_freq = _number(gain, type(self).__name__, "gain"), central_freq
        super().__init__(sample_rate, central_freq, Q)

    def _design(self) -> tuple[list[float], list[float]]:
        a = math.exp(self.gain / 40.0 * math.log(10))
        t1, t2, t3 = 2 * math.sqrt(a) * self._alpha, (a - 1) * math.cos(self._w0), (a + 1) * math.cos(self._w0)
        s = self._sign
        return ([a * ((a + 1) - s * t2 + t1), s * 2 * a * ((a - 1) - s * t3), a * ((a + 1) - s * t2 - t1)],
                [(a + 1) + s * t2 + t1, -s * 2 * ((a - 1) + s * t3), (a + 1) + s * t2 - t1])


class BassBiquad(_Shelf):
    """Low-shelf filter: ``gain`` dB below ``central_freq``."""

    _sign = 1

    def __init__(self, sample_rate: int, gain: float, central_freq: float = 100.0, Q: float = 0.707) -> None:  # noqa: N803
        super().__init__(sample_rate, gain, central_freq, Q)


class TrebleBiquad(_Shelf):
    """High-shelf filter: ``gain`` dB above ``central_freq``."""

    _sign = -1

    def __init__(self, sample_rate: int, gain: float, central_freq: float = 3000, Q: float = 0.707) -> None:  # noqa: N803
        super().__init__(sample_rate, gain, central_freq, Q)


class BandBiquad(_Designed):
    """Two-pole band filter at ``central_freq`` (``noise``: tuned for unpitched audio)."""

    def __init__(self, sample_rate: int, central_freq: float, Q: float = 0.707, noise: bool = False) -> None:  # noqa: N803
        if not isinstance(noise, bool):
            raise TypeError(f"For 'BandBiquad', 'noise' must be a bool, got {noise!r}")
        self.central_freq, self.noise = central_freq, noise
        super().__init__(sample_rate, central_freq, Q)

    def _design(self) -> tuple[list[float], list[float]]:
        bw_hz = self.central_freq / self.Q
        a2 = math.exp(-2 * math.pi * bw_hz / self.sample_rate)
        a1 = -4 * a2 / (1 + a2) * math.cos(self._w0)
        b0 = math.sqrt(1 - a1 * a1 / (4 * a2)) * (1 - a2)
        if self.noise:
            b0 *= math.sqrt(((1 + a2) ** 2 - a1 * a1) * (1 - a2) / (1 + a2)) / b0
        return [b0, 0.0, 0.0], [1.0, a1, a2]
