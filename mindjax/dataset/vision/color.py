"""Colour transforms of ``mindspore.dataset.vision``: brightness, contrast, hue, histogram and pixel-value ops.

They run on uint8 images through Pillow (``PIL.ImageEnhance`` / ``PIL.ImageOps``),
as MindSpore's Python path does; a numpy input gives a numpy output. A Pillow
image comes back as MindSpore returns it: a Pillow image from the Pillow-based ops,
numpy from those MindSpore runs in C++ (``AdjustSharpness``, ``Posterize``,
``Solarize``, ``ConvertColor`` and the ``Random*`` versions of ``Invert``,
``Equalize``, ``AutoContrast``, ``Posterize``, ``Solarize``, ``AdjustSharpness``).
(MindSpore's C++ kernels for numpy inputs use OpenCV and may round a pixel
differently by one; its ``Equalize`` differs more, being OpenCV's.)
"""
from __future__ import annotations

import colorsys
from typing import Any, Sequence

import numpy as np

from mindjax.dataset._validate import (FLOAT_MAX_INTEGER, check_prob, check_range_pair, check_type, check_value,
                                       is_number)
from mindjax.dataset.transforms.base import RandomTransform, Transform
from mindjax.dataset.vision._image import numpy_input, on_array, on_pil, to_array
from mindjax.dataset.vision.utils import ConvertMode, is_pil

__all__ = ["AdjustBrightness", "AdjustContrast", "AdjustSaturation", "AdjustHue", "AdjustGamma", "AdjustSharpness",
           "AutoContrast", "Equalize", "Invert", "Posterize", "Solarize", "Grayscale", "RgbToHsv", "HsvToRgb",
           "ConvertColor", "RandomColorAdjust", "RandomColor", "RandomSharpness", "RandomAdjustSharpness",
           "RandomAutoContrast", "RandomEqualize", "RandomInvert", "RandomPosterize", "RandomSolarize",
           "RandomGrayscale", "RandomLighting"]


def _factor(value: Any, name: str, low: float = 0, high: float = FLOAT_MAX_INTEGER) -> float:
    check_type(value, (float, int), name)
    check_value(value, low, high, name)
    return float(value)


def _enhance(img: Any, who: str, kind: str, factor: float) -> Any:
    from PIL import ImageEnhance

    def run(pil: Any) -> Any:
        if kind != "Sharpness" and pil.mode not in ("RGB", "L", "RGBA"):
            raise ValueError(f"For '{who}', the image must be RGB or grey, got mode {pil.mode}")
        return getattr(ImageEnhance, kind)(pil).enhance(factor)

    return on_pil(img, who, run)


def _adjust_hue(img: Any, factor: float, who: str) -> Any:
    from PIL import Image

    def run(pil: Any) -> Any:
        if pil.mode in ("L", "1", "I", "F") or factor == 0:
            return pil
        rgb = pil.convert("RGB")
        h, s, v = rgb.convert("HSV").split()
        hue = np.asarray(h, dtype=np.uint8) + np.uint8(np.int64(factor * 255) % 256)
        out = Image.merge("HSV", (Image.fromarray(hue.astype(np.uint8), "L"), s, v)).convert("RGB")
        return out.convert(pil.mode) if pil.mode != "RGB" else out

    return on_pil(img, who, run)


class AdjustBrightness(Transform):
    """Scale brightness by ``brightness_factor`` (0 black, 1 unchanged), as ``PIL.ImageEnhance.Brightness``.

    Arguments:
        brightness_factor: a non-negative number.
    """

    def __init__(self, brightness_factor: float) -> None:
        self.brightness_factor = _factor(brightness_factor, "brightness_factor")

    def _apply(self, img: Any, rng: Any = None) -> Any:
        return _enhance(img, "AdjustBrightness", "Brightness", self.brightness_factor)


class AdjustContrast(Transform):
    """Blend with the mean grey level by ``contrast_factor`` (0 grey, 1 unchanged).

    Arguments:
        contrast_factor: a non-negative number.
    """

    def __init__(self, contrast_factor: float) -> None:
        self.contrast_factor = _factor(contrast_factor, "contrast_factor")

    def _apply(self, img: Any, rng: Any = None) -> Any:
        return _enhance(img, "AdjustContrast", "Contrast", self.contrast_factor)


class AdjustSaturation(Transform):
    """Blend with the greyscale image by ``saturation_factor`` (0 grey, 1 unchanged).

    Arguments:
        saturation_factor: a non-negative number.
    """

    def __init__(self, saturation_factor: float) -> None:
        self.saturation_factor = _factor(saturation_factor, "saturation_factor")

    def _apply(self, img: Any, rng: Any = None) -> Any:
        return _enhance(img, "AdjustSaturation", "Color", self.saturation_factor)


class AdjustSharpness(Transform):
    """Blend with a smoothed image by ``sharpness_factor`` (0 smooth, 1 unchanged, 2 sharper).

    Arguments:
        sharpness_factor: a non-negative number.
    """

    def __init__(self, sharpness_factor: float) -> None:
        self.sharpness_factor = _factor(sharpness_factor, "sharpness_factor")

    def _apply(self, img: Any, rng: Any = None) -> Any:
        img = numpy_input(img)
        return _enhance(img, "AdjustSharpness", "Sharpness", self.sharpness_factor)


class AdjustHue(Transform):
    """Rotate hue by ``hue_factor`` of a full turn, in HSV space.

    Arguments:
        hue_factor: in [-0.5, 0.5].
    """

    def __init__(self, hue_factor: float) -> None:
        self.hue_factor = _factor(hue_factor, "hue_factor", -0.5, 0.5)

    def _apply(self, img: Any, rng: Any = None) -> Any:
        return _adjust_hue(img, self.hue_factor, "AdjustHue")


class AdjustGamma(Transform):
    """``255 * gain * (img / 255) ** gamma`` for uint8 images (``gain * img ** gamma`` for float ones).

    Arguments:
        gamma: non-negative exponent.
        gain: multiplier. Default: 1.
    """

    def __init__(self, gamma: float, gain: float = 1) -> None:
        self.gamma = _factor(gamma, "gamma")
        check_type(gain, (float, int), "gain")
        self.gain = float(gain)

    def _apply(self, img: Any, rng: Any = None) -> Any:
        def run(arr: np.ndarray) -> np.ndarray:
            if arr.dtype == np.uint8:
                table = np.clip(np.rint(255.0 * self.gain * (np.arange(256) / 255.0) ** self.gamma), 0, 255)
                return table.astype(np.uint8)[arr]
            return (self.gain * np.power(arr.astype(np.float32), self.gamma)).astype(arr.dtype)

        return on_array(img, "AdjustGamma", run)


class AutoContrast(Transform):
    """Stretch each channel's histogram to [0, 255] after cutting ``cutoff`` percent at each end.

    Arguments:
        cutoff: percent of lightest and darkest pixels to ignore, in [0, 50).
        ignore: a background value (or values) left out of the histogram.
    """

    def __init__(self, cutoff: float = 0.0, ignore: Any = None) -> None:
        check_type(cutoff, (int, float), "cutoff")
        check_value(cutoff, 0, 50, "cutoff", right_open=True)
        if ignore is not None:
            check_type(ignore, (list, tuple, int), "ignore")
            for item in ([ignore] if isinstance(ignore, int) else ignore):
                check_type(item, (int,), "item")
                check_value(item, 0, 255, "ignore")
        self.cutoff, self.ignore = float(cutoff), ignore

    def _apply(self, img: Any, rng: Any = None) -> Any:
        from PIL import ImageOps

        return on_pil(img, "AutoContrast", lambda p: ImageOps.autocontrast(p, self.cutoff, self.ignore))


class Equalize(Transform):
    """Equalize each channel's histogram (``PIL.ImageOps.equalize``)."""

    def _apply(self, img: Any, rng: Any = None) -> Any:
        from PIL import ImageOps

        return on_pil(img, "Equalize", ImageOps.equalize)


class Invert(Transform):
    """``255 - img`` on every channel of a uint8 image."""

    def _apply(self, img: Any, rng: Any = None) -> Any:
        return on_array(img, "Invert", lambda a: (255 - a).astype(np.uint8), uint8=True)


class Posterize(Transform):
    """Keep the top ``bits`` bits of each uint8 channel.

    Arguments:
        bits: in [0, 8].
    """

    def __init__(self, bits: int) -> None:
        check_type(bits, (int,), "bits")
        check_value(bits, 0, 8, "bits")
        self.bits = int(bits)

    def _apply(self, img: Any, rng: Any = None) -> Any:
        img = numpy_input(img)
        mask = np.uint8((0xFF << (8 - self.bits)) & 0xFF)
        return on_array(img, "Posterize", lambda a: a & mask, uint8=True)


def _solarize(arr: np.ndarray, low: float, high: float) -> np.ndarray:
    hit = (arr >= low) & (arr <= high)
    return np.where(hit, 255 - arr, arr).astype(np.uint8)


class Solarize(Transform):
    """Invert pixels inside a threshold: a number ``t`` inverts those ``>= t``; ``(min, max)`` those in it.

    Arguments:
        threshold: a number or a (min, max) pair in [0, 255].
    """

    def __init__(self, threshold: Any) -> None:
        check_type(threshold, (float, int, list, tuple), "threshold")
        pair = (threshold, threshold) if is_number(threshold) else threshold
        if len(pair) != 2:
            raise TypeError("threshold must be a single number or sequence of two numbers.")
        for i, value in enumerate(pair):
            check_type(value, (float, int), "threshold")
            check_value(value, 0, 255, f"threshold[{i}]")
        if pair[1] < pair[0]:
            raise ValueError("threshold must be in order of (min, max).")
        self.threshold = threshold
        self._range = (float(pair[0]), 255.0 if pair[0] == pair[1] else float(pair[1]))

    def _apply(self, img: Any, rng: Any = None) -> Any:
        img = numpy_input(img)
        return on_array(img, "Solarize", lambda a: _solarize(a, *self._range), uint8=True)


class Grayscale(Transform):
    """Convert to grey (``L = R * 299/1000 + G * 587/1000 + B * 114/1000``), with 1 or 3 output channels.

    Arguments:
        num_output_channels: 1 or 3.
    """

    def __init__(self, num_output_channels: int = 1) -> None:
        check_type(num_output_channels, (int,), "num_output_channels")
        if num_output_channels not in (1, 3):
            raise ValueError(f"Number of channels of the output grayscale image should be either 1 or 3. "
                             f"Got {num_output_channels}.")
        self.num_output_channels = num_output_channels

    def _apply(self, img: Any, rng: Any = None) -> Any:
        if is_pil(img):
            grey = img.convert("L")
            return grey if self.num_output_channels == 1 else grey.convert("RGB")
        return on_pil(img, "Grayscale", lambda p: p.convert("L") if self.num_output_channels == 1
                      else p.convert("L").convert("RGB"))


def _hsv_convert(img: Any, is_hwc: bool, fn: Any, who: str) -> np.ndarray:
    arr = np.asarray(img)
    if arr.ndim not in (3, 4):
        raise TypeError(f"For '{who}', the image must be of shape (C, H, W), (H, W, C) or a batch of them, "
                        f"got {arr.shape}")
    axis = -1 if is_hwc else -3
    if arr.shape[axis] != 3:
        raise TypeError(f"For '{who}', the image must have 3 channels on axis {axis}, got shape {arr.shape}")
    a, b, c = (np.take(arr, k, axis=axis) for k in range(3))
    out = np.vectorize(fn)(a, b, c)
    return np.stack(out, axis=axis).astype(arr.dtype)


class RgbToHsv(Transform):
    """RGB to HSV with ``colorsys`` (values as the input's scale and dtype).

    Arguments:
        is_hwc: the image is (H, W, C) (else (C, H, W)); a leading batch axis is allowed.
    """

    def __init__(self, is_hwc: bool = False) -> None:
        check_type(is_hwc, (bool,), "is_hwc")
        self.is_hwc = is_hwc

    def _apply(self, img: Any, rng: Any = None) -> np.ndarray:
        return _hsv_convert(img, self.is_hwc, colorsys.rgb_to_hsv, "RgbToHsv")


class HsvToRgb(Transform):
    """HSV to RGB with ``colorsys``; the inverse of :class:`RgbToHsv`.

    Arguments:
        is_hwc: the image is (H, W, C) (else (C, H, W)); a leading batch axis is allowed.
    """

    def __init__(self, is_hwc: bool = False) -> None:
        check_type(is_hwc, (bool,), "is_hwc")
        self.is_hwc = is_hwc

    def _apply(self, img: Any, rng: Any = None) -> np.ndarray:
        return _hsv_convert(img, self.is_hwc, colorsys.hsv_to_rgb, "HsvToRgb")


_GREY_WEIGHTS = np.array([0.299, 0.587, 0.114])


def _grey(rgb: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(rgb[..., :3].astype(np.float64) @ _GREY_WEIGHTS), 0, 255).astype(rgb.dtype)


def _alpha(arr: np.ndarray) -> np.ndarray:
    return np.full(arr.shape[:2] + (1,), 255 if arr.dtype == np.uint8 else 1, dtype=arr.dtype)


# (channels in, function) for each ConvertMode value
_CONVERSIONS: dict[int, tuple[int, Any]] = {
    0: (3, lambda a: np.concatenate([a, _alpha(a)], -1)),
    1: (4, lambda a: a[..., :3]),
    2: (3, lambda a: np.concatenate([a[..., ::-1], _alpha(a)], -1)),
    3: (4, lambda a: a[..., 2::-1]),
    4: (3, lambda a: a[..., ::-1]),
    5: (4, lambda a: np.concatenate([a[..., 2::-1], a[..., 3:]], -1)),
    6: (3, lambda a: _grey(a[..., ::-1])[..., None]),
    7: (3, lambda a: _grey(a)[..., None]),
    8: (1, lambda a: np.repeat(a, 3, -1)),
    9: (1, lambda a: np.concatenate([np.repeat(a, 3, -1), _alpha(a)], -1)),
    10: (4, lambda a: _grey(a[..., 2::-1])[..., None]),
    11: (4, lambda a: _grey(a[..., :3])[..., None]),
}


class ConvertColor(Transform):
    """Convert between RGB, BGR, RGBA, BGRA and grey (OpenCV's conversions; grey = .299R + .587G + .114B).

    Arguments:
        convert_mode: a :class:`ConvertMode`.
    """

    def __init__(self, convert_mode: ConvertMode) -> None:
        check_type(convert_mode, (ConvertMode,), "convert_mode")
        self.convert_mode = convert_mode

    def _apply(self, img: Any, rng: Any = None) -> np.ndarray:
        img = numpy_input(img)
        arr = to_array(img, "ConvertColor")
        if arr.ndim == 2:
            arr = arr[..., None]
        channels, fn = _CONVERSIONS[int(self.convert_mode)]
        if arr.shape[2] != channels:
            raise ValueError(f"For 'ConvertColor', {self.convert_mode.name} needs an image with {channels} "
                             f"channel(s), got shape {arr.shape}")
        out = np.ascontiguousarray(fn(arr))
        return np.ascontiguousarray(out[..., 0]) if out.shape[2] == 1 else out


def _jitter_range(value: Any, name: str, center: float = 1.0, bound: tuple[float, float] = (0, FLOAT_MAX_INTEGER),
                  non_negative: bool = True) -> tuple[float, float]:
    check_type(value, (int, float, list, tuple), name)
    if is_number(value):
        if value < 0:
            raise ValueError(f"The input value of {name} cannot be negative.")
        low, high = center - value, center + value
        return (max(0.0, low) if non_negative else low), high
    if len(value) != 2:
        raise TypeError(f"If {name} is a sequence, the length must be 2.")
    if value[0] > value[1]:
        raise ValueError(f"{name} value should be in (min,max) format. Got ({value[0]}, {value[1]}).")
    for v in value:
        check_value(v, bound[0], bound[1], name)
    return float(value[0]), float(value[1])


class RandomColorAdjust(RandomTransform):
    """Random brightness, contrast, saturation and hue, applied in a random order.

    Arguments:
        brightness: a number ``b`` (factor in [max(0, 1-b), 1+b]) or a (min, max) range.
        contrast: likewise.
        saturation: likewise.
        hue: a number ``h`` in [0, 0.5] (factor in [-h, h]) or a range within [-0.5, 0.5].
    """

    def __init__(self, brightness: Any = (1, 1), contrast: Any = (1, 1), saturation: Any = (1, 1),
                 hue: Any = (0, 0)) -> None:
        self.brightness = _jitter_range(brightness, "brightness")
        self.contrast = _jitter_range(contrast, "contrast")
        self.saturation = _jitter_range(saturation, "saturation")
        if is_number(hue):
            check_value(hue, 0, 0.5, "hue")
        self.hue = _jitter_range(hue, "hue", center=0.0, bound=(-0.5, 0.5), non_negative=False)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        b, c, s = (float(rng.uniform(*r)) for r in (self.brightness, self.contrast, self.saturation))
        h = float(rng.uniform(*self.hue))
        steps = [lambda x: _enhance(x, "RandomColorAdjust", "Brightness", b),
                 lambda x: _enhance(x, "RandomColorAdjust", "Contrast", c),
                 lambda x: _enhance(x, "RandomColorAdjust", "Color", s),
                 lambda x: _adjust_hue(x, h, "RandomColorAdjust")]
        for k in rng.permutation(4):
            img = steps[k](img)
        return img


def _degrees_range(degrees: Any, name: str = "degrees") -> tuple[float, float]:
    low, high = check_range_pair(degrees, name, 0, FLOAT_MAX_INTEGER)
    return float(low), float(high)


class RandomColor(RandomTransform):
    """Saturation (``PIL.ImageEnhance.Color``) by a factor drawn uniformly from ``degrees``."""

    def __init__(self, degrees: Sequence[float] = (0.1, 1.9)) -> None:
        self.degrees = _degrees_range(degrees)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        return _enhance(img, "RandomColor", "Color", float(rng.uniform(*self.degrees)))


class RandomSharpness(RandomTransform):
    """Sharpness by a factor drawn uniformly from ``degrees``."""

    def __init__(self, degrees: Sequence[float] = (0.1, 1.9)) -> None:
        self.degrees = _degrees_range(degrees)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        return _enhance(img, "RandomSharpness", "Sharpness", float(rng.uniform(*self.degrees)))


class _WithProb(RandomTransform):
    """Apply ``self._op`` with probability ``self.prob``; a Pillow image comes back as numpy (as MindSpore's)."""

    _op: Transform
    prob: float

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        img = numpy_input(img)
        return self._op._apply(img) if rng.random() < self.prob else img


class RandomAdjustSharpness(_WithProb):
    """:class:`AdjustSharpness` by ``degree`` with probability ``prob``."""

    def __init__(self, degree: float, prob: float = 0.5) -> None:
        self.degree = _factor(degree, "degree")
        self.prob = check_prob(prob)
        self._op = AdjustSharpness(self.degree)


class RandomAutoContrast(_WithProb):
    """:class:`AutoContrast` with probability ``prob``."""

    def __init__(self, cutoff: float = 0.0, ignore: Any = None, prob: float = 0.5) -> None:
        self._op = AutoContrast(cutoff, ignore)
        self.cutoff, self.ignore, self.prob = self._op.cutoff, ignore, check_prob(prob)


class RandomEqualize(_WithProb):
    """:class:`Equalize` with probability ``prob``."""

    def __init__(self, prob: float = 0.5) -> None:
        self.prob, self._op = check_prob(prob), Equalize()


class RandomInvert(_WithProb):
    """:class:`Invert` with probability ``prob``."""

    def __init__(self, prob: float = 0.5) -> None:
        self.prob, self._op = check_prob(prob), Invert()


class RandomGrayscale(_WithProb):
    """Grey with probability ``prob``, keeping the input's channel count (1 or 3)."""

    def __init__(self, prob: float = 0.1) -> None:
        self.prob = check_prob(prob)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        if rng.random() >= self.prob:
            return img
        channels = len(img.getbands()) if is_pil(img) else (1 if np.ndim(img) == 2 else np.shape(img)[2])
        return Grayscale(3 if channels == 3 else 1)._apply(img)


class RandomPosterize(RandomTransform):
    """:class:`Posterize` with a bit count drawn uniformly (inclusive) from ``bits``.

    Arguments:
        bits: an int in [1, 8] or a (min, max) range within it.
    """

    def __init__(self, bits: Any = (8, 8)) -> None:
        check_type(bits, (list, tuple, int), "bits")
        if isinstance(bits, int):
            check_value(bits, 1, 8, "bits")
            self.bits: Any = bits
            self._range = (bits, bits)
        else:
            if len(bits) != 2:
                raise TypeError("Size of bits should be a single integer or a list/tuple (min, max) of length 2.")
            self._range = check_range_pair(bits, "bits", 1, 8, types=(int,))
            self.bits = bits

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        img = numpy_input(img)
        return Posterize(int(rng.integers(self._range[0], self._range[1] + 1)))._apply(img)


class RandomSolarize(RandomTransform):
    """Invert the pixels in [low, high], two ints drawn uniformly from the ``threshold`` range (sorted).

    Arguments:
        threshold: (min, max), ints in [0, 255].
    """

    def __init__(self, threshold: tuple[int, int] = (0, 255)) -> None:
        check_type(threshold, (tuple,), "threshold")
        if len(threshold) != 2:
            raise ValueError("threshold must be a sequence of two numbers.")
        for element in threshold:
            check_type(element, (int,), "threshold")
            check_value(element, 0, 255, "threshold")
        if threshold[1] < threshold[0]:
            raise ValueError("threshold must be in min max format numbers.")
        self.threshold = threshold

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        img = numpy_input(img)
        low, high = sorted(int(v) for v in rng.integers(self.threshold[0], self.threshold[1] + 1, size=2))
        return on_array(img, "RandomSolarize", lambda a: _solarize(a, low, high), uint8=True)


_PCA = np.array([[55.46 * -0.5675, 4.794 * 0.7192, 1.148 * 0.4009],
                 [55.46 * -0.5808, 4.794 * -0.0045, 1.148 * -0.8140],
                 [55.46 * -0.5836, 4.794 * -0.6948, 1.148 * 0.4203]])


class RandomLighting(RandomTransform):
    """AlexNet's PCA lighting noise: add ``eigvecs @ (eigvals * N(0, alpha))`` to each RGB pixel.

    Arguments:
        alpha: the standard deviation of the noise, non-negative.
    """

    def __init__(self, alpha: float = 0.05) -> None:
        self.alpha = _factor(alpha, "alpha")

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        shift = _PCA @ rng.normal(0.0, self.alpha, size=3)

        def run(arr: np.ndarray) -> np.ndarray:
            if arr.ndim != 3 or arr.shape[2] != 3:
                raise ValueError(f"For 'RandomLighting', the image must be RGB (H, W, 3), got {arr.shape}")
            out = arr.astype(np.float64) + shift
            if arr.dtype == np.uint8:
                return np.clip(out, 0, 255).astype(np.uint8)
            return out.astype(arr.dtype)

        return on_array(img, "RandomLighting", run)
