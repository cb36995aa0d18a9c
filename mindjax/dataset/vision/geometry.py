"""Geometric transforms of ``mindspore.dataset.vision``: crops, flips, rotations, affine and perspective warps.

Warps run through Pillow (``Image.rotate`` / ``Image.transform``) as MindSpore's
Python path does: uint8 images directly, float images one channel at a time.
A numpy input gives a numpy output; a Pillow image gives what MindSpore gives:
numpy from its C++ ops (``Crop``, flips, ``ResizedCrop``, ``Rotate``, ``Affine``,
``PadToSize``, ``SlicePatches``), a Pillow image from the others.
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Sequence

import numpy as np

from mindjax.dataset._validate import (FLOAT_MAX_INTEGER, INT32_MAX, check_fill_value, check_positive, check_prob,
                                       check_range_pair, check_size, check_type, check_value, is_int, is_number)
from mindjax.dataset.image_folder import decode_image
from mindjax.dataset.transforms.base import RandomTransform, Transform
from mindjax.dataset.vision._image import numpy_input, on_array, pil_resample, to_array
from mindjax.dataset.vision.transforms import _pad, _resize
from mindjax.dataset.vision.utils import Border, Inter, SliceMode, is_pil

__all__ = ["Crop", "HorizontalFlip", "VerticalFlip", "ResizedCrop", "RandomResizedCrop", "RandomCropDecodeResize",
           "RandomResize", "Rotate", "RandomRotation", "Affine", "RandomAffine", "Perspective", "RandomPerspective",
           "FiveCrop", "TenCrop", "PadToSize", "SlicePatches"]


def _crop(arr: np.ndarray, top: int, left: int, height: int, width: int, who: str) -> np.ndarray:
    h, w = arr.shape[:2]
    if top + height > h or left + width > w:
        raise ValueError(f"For '{who}', the crop (top={top}, left={left}, height={height}, width={width}) exceeds "
                         f"the image of size {(h, w)}")
    return np.ascontiguousarray(arr[top:top + height, left:left + width])


class Crop(Transform):
    """Crop the region of ``size`` whose top-left corner is ``coordinates``.

    Arguments:
        coordinates: (top, left), non-negative.
        size: an int (a square) or (height, width).
    """

    def __init__(self, coordinates: Sequence[int], size: Any) -> None:
        check_type(coordinates, (list, tuple), "coordinates")
        if len(coordinates) != 2:
            raise TypeError("Coordinates should be a list/tuple (y, x) of length 2.")
        for i, v in enumerate(coordinates):
            check_type(v, (int,), f"coordinates[{i}]")
            check_value(v, 0, INT32_MAX, f"coordinates[{i}]")
        self.coordinates, self.size = tuple(coordinates), check_size(size)

    def _apply(self, img: Any, rng: Any = None) -> Any:
        img = numpy_input(img)
        return on_array(img, "Crop", lambda a: _crop(a, *self.coordinates, *self.size, "Crop"))


class HorizontalFlip(Transform):
    """Mirror left-right."""

    def _apply(self, img: Any, rng: Any = None) -> Any:
        img = numpy_input(img)
        return on_array(img, "HorizontalFlip", lambda a: np.ascontiguousarray(a[:, ::-1]))


class VerticalFlip(Transform):
    """Mirror top-bottom."""

    def _apply(self, img: Any, rng: Any = None) -> Any:
        img = numpy_input(img)
        return on_array(img, "VerticalFlip", lambda a: np.ascontiguousarray(a[::-1]))


def _check_inter(interpolation: Any) -> Inter:
    check_type(interpolation, (Inter,), "interpolation")
    return interpolation


class ResizedCrop(Transform):
    """Crop (top, left, height, width), then resize to ``size``.

    Arguments:
        top, left: the crop's corner, non-negative.
        height, width: the crop's size, positive.
        size: the output: an int (a square) or (height, width).
        interpolation: an :class:`Inter`.
    """

    def __init__(self, top: int, left: int, height: int, width: int, size: Any,
                 interpolation: Inter = Inter.BILINEAR) -> None:
        for name, value, low in (("top", top, 0), ("left", left, 0), ("height", height, 1), ("width", width, 1)):
            check_type(value, (int,), name)
            check_value(value, low, INT32_MAX, name)
        self.top, self.left, self.height, self.width = top, left, height, width
        self.size, self.interpolation = check_size(size), _check_inter(interpolation)

    def _apply(self, img: Any, rng: Any = None) -> Any:
        img = numpy_input(img)
        def run(a: np.ndarray) -> np.ndarray:
            crop = _crop(a, self.top, self.left, self.height, self.width, "ResizedCrop")
            return _resize(crop, *self.size, self.interpolation)

        return on_array(img, "ResizedCrop", run)


def _scale_ratio(scale: Any, ratio: Any, max_attempts: Any) -> tuple[tuple[float, float], tuple[float, float], int]:
    check_type(scale, (tuple, list), "scale")
    if len(scale) != 2:
        raise TypeError("scale should be a list/tuple of length 2.")
    check_type(ratio, (tuple, list), "ratio")
    if len(ratio) != 2:
        raise TypeError("ratio should be a list/tuple of length 2.")
    for name, pair in (("scale", scale), ("ratio", ratio)):
        for v in pair:
            check_type(v, (float, int), name)
    if scale[0] > scale[1]:
        raise ValueError("scale should be in (min,max) format. Got (max,min).")
    check_value(scale[0], 0, FLOAT_MAX_INTEGER, "scale[0]")
    check_value(scale[1], 0, FLOAT_MAX_INTEGER, "scale[1]", left_open=True)
    if ratio[0] > ratio[1]:
        raise ValueError("ratio should be in (min,max) format. Got (max,min).")
    for i, v in enumerate(ratio):
        check_value(v, 0, FLOAT_MAX_INTEGER, f"ratio[{i}]", left_open=True)
    check_type(max_attempts, (int,), "max_attempts")
    check_value(max_attempts, 1, FLOAT_MAX_INTEGER, "max_attempts")
    return (float(scale[0]), float(scale[1])), (float(ratio[0]), float(ratio[1])), int(max_attempts)


def _random_crop_box(h: int, w: int, scale: tuple[float, float], ratio: tuple[float, float], attempts: int,
                     rng: np.random.Generator) -> tuple[int, int, int, int]:
    """(top, left, height, width) of a random crop with area in ``scale`` and aspect in ``ratio``."""
    area = h * w
    log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
    for _ in range(attempts):
        crop_area = float(rng.uniform(*scale)) * area
        aspect = math.exp(float(rng.uniform(*log_ratio)))
        cw = int(round(math.sqrt(crop_area * aspect)))
        ch = int(round(cw / aspect))
        if 0 < cw <= w and 0 < ch <= h:
            return int(rng.integers(0, h - ch + 1)), int(rng.integers(0, w - cw + 1)), ch, cw
    img_ratio = w / h
    if img_ratio < ratio[0]:
        cw, ch = w, int(round(w / ratio[0]))
    elif img_ratio > ratio[1]:
        ch, cw = h, int(round(h * ratio[1]))
    else:
        cw, ch = w, h
    return int(round((h - ch) / 2.0)), int(round((w - cw) / 2.0)), ch, cw


class RandomResizedCrop(RandomTransform):
    """Crop a random area (``scale`` of the image, aspect ``ratio``) and resize it to ``size``.

    Arguments:
        size: the output: an int (a square) or (height, width).
        scale: (min, max) of the crop's area as a fraction of the image's.
        ratio: (min, max) of the crop's width / height, drawn on a log scale.
        interpolation: an :class:`Inter`.
        max_attempts: tries before falling back to a centre crop.
    """

    def __init__(self, size: Any, scale: Sequence[float] = (0.08, 1.0), ratio: Sequence[float] = (3. / 4., 4. / 3.),
                 interpolation: Inter = Inter.BILINEAR, max_attempts: int = 10) -> None:
        self.size = check_size(size)
        self.scale, self.ratio, self.max_attempts = _scale_ratio(scale, ratio, max_attempts)
        self.interpolation = _check_inter(interpolation)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        def run(a: np.ndarray) -> np.ndarray:
            top, left, ch, cw = _random_crop_box(a.shape[0], a.shape[1], self.scale, self.ratio, self.max_attempts,
                                                 rng)
            return _resize(a[top:top + ch, left:left + cw], *self.size, self.interpolation)

        return on_array(img, "RandomResizedCrop", run)


class RandomCropDecodeResize(RandomResizedCrop):
    """Decode encoded image bytes, then :class:`RandomResizedCrop` (same arguments)."""

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        raw = np.frombuffer(img, dtype=np.uint8) if isinstance(img, bytes) else np.asarray(img)
        if raw.ndim != 1 or raw.dtype != np.uint8:
            raise TypeError(f"For 'RandomCropDecodeResize', expected encoded image bytes (a 1-D uint8 array), got "
                            f"{raw.dtype} of shape {raw.shape}")
        return super()._apply(decode_image(raw, "the input"), rng=rng)


class RandomResize(RandomTransform):
    """:class:`Resize` to ``size`` with an interpolation picked at random (nearest, bilinear, bicubic, area)."""

    def __init__(self, size: Any) -> None:
        if is_int(size):
            check_value(size, 1, FLOAT_MAX_INTEGER, "size")
        else:
            check_size(size, high=INT32_MAX)
        self.size = size

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        from mindjax.dataset.vision.transforms import Resize

        inter = (Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC, Inter.AREA)[int(rng.integers(4))]
        return on_array(img, "RandomResize", lambda a: Resize(self.size, inter)._apply(a))


def _warp(img: Any, who: str, fill: Any, run: Any) -> Any:
    """``run(pil_image, fill)`` on a uint8 image, or on each channel of a float one."""
    from PIL import Image

    if is_pil(img):
        return run(img, fill)
    arr = to_array(img, who)
    if arr.dtype == np.uint8 and (arr.ndim == 2 or arr.shape[2] in (1, 3, 4)):
        squeeze = arr.ndim == 3 and arr.shape[2] == 1
        channels = 1 if arr.ndim == 2 or squeeze else arr.shape[2]
        if isinstance(fill, tuple) and channels != 3:
            raise ValueError(f"For '{who}', an (R, G, B) fill_value needs a 3-channel image, got shape {arr.shape}")
        if channels == 4 and isinstance(fill, int):
            fill = (fill,) * 4
        out = np.asarray(run(Image.fromarray(arr[..., 0] if squeeze else arr), fill))
        return out[..., None] if squeeze else out
    planes = [arr] if arr.ndim == 2 else [arr[..., c] for c in range(arr.shape[2])]
    fills = list(fill) if isinstance(fill, tuple) else [fill] * len(planes)
    if len(fills) != len(planes):
        raise ValueError(f"For '{who}', an (R, G, B) fill_value needs a 3-channel image, got shape {arr.shape}")
    outs = [np.asarray(run(Image.fromarray(p.astype(np.float32), mode="F"), float(f))) for p, f in zip(planes, fills)]
    out = outs[0] if arr.ndim == 2 else np.stack(outs, axis=-1)
    return out.astype(arr.dtype) if arr.dtype.kind == "f" else np.clip(np.rint(out), 0, None).astype(arr.dtype)


def _center_arg(center: Any) -> tuple[float, float] | None:
    if center is None:
        return None
    check_type(center, (tuple, list), "center")
    if len(center) != 2:
        raise ValueError("Value center needs to be a 2-tuple.")
    for v in center:
        check_type(v, (int, float), "center")
    return float(center[0]), float(center[1])


def _rotate(img: Any, who: str, angle: float, resample: Inter, expand: bool, center: Any, fill: Any) -> Any:
    filt = pil_resample(resample, who)
    return _warp(img, who, fill, lambda p, f: p.rotate(angle % 360.0, filt, expand, center, fillcolor=f))


class Rotate(Transform):
    """Rotate by ``degrees`` counter-clockwise (``PIL.Image.rotate``).

    Arguments:
        degrees: the angle.
        resample: ``Inter.NEAREST``, ``Inter.BILINEAR`` or ``Inter.BICUBIC``.
        expand: grow the output to hold the whole rotated image.
        center: (x, y) of the rotation's centre (default: the image's centre).
        fill_value: the colour outside the image: an int or (R, G, B) in [0, 255].
    """

    def __init__(self, degrees: float, resample: Inter = Inter.NEAREST, expand: bool = False, center: Any = None,
                 fill_value: Any = 0) -> None:
        check_type(degrees, (float, int), "degrees")
        self.degrees = float(degrees)
        self.resample = _check_inter(resample)
        check_type(expand, (bool,), "expand")
        self.expand, self.center = expand, _center_arg(center)
        self.fill_value = check_fill_value(fill_value)

    def _apply(self, img: Any, rng: Any = None) -> Any:
        img = numpy_input(img)
        return _rotate(img, "Rotate", self.degrees, self.resample, self.expand, self.center, self.fill_value)


def _degrees_arg(degrees: Any) -> tuple[float, float]:
    check_type(degrees, (float, int, list, tuple), "degrees")
    if is_number(degrees):
        check_value(degrees, 0, FLOAT_MAX_INTEGER, "degrees")
        return -float(degrees), float(degrees)
    if len(degrees) != 2:
        raise TypeError("If degrees is a sequence, the length must be 2.")
    for v in degrees:
        check_type(v, (int, float), "degrees")
    if degrees[0] > degrees[1]:
        raise ValueError("degrees should be in (min,max) format. Got (max,min).")
    return float(degrees[0]), float(degrees[1])


class RandomRotation(RandomTransform):
    """:class:`Rotate` by an angle drawn uniformly from ``degrees`` (a number ``d`` means (-d, d))."""

    def __init__(self, degrees: Any, resample: Inter = Inter.NEAREST, expand: bool = False, center: Any = None,
                 fill_value: Any = 0) -> None:
        self.degrees = _degrees_arg(degrees)
        self.resample = _check_inter(resample)
        check_type(expand, (bool,), "expand")
        self.expand, self.center = expand, _center_arg(center)
        self.fill_value = check_fill_value(fill_value)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        angle = float(rng.uniform(*self.degrees))
        return _rotate(img, "RandomRotation", angle, self.resample, self.expand, self.center, self.fill_value)


def _affine_matrix(width: int, height: int, angle: float, translate: Sequence[float], scale: float,
                   shear: Sequence[float]) -> list[float]:
    """Pillow's inverse affine coefficients: rotate, scale and shear about the centre, then translate."""
    cx, cy = width * 0.5, height * 0.5
    a = math.radians(angle)
    sx, sy = (math.radians(s) for s in shear)
    d = math.cos(a + sx) * math.cos(a + sy) + math.sin(a + sx) * math.sin(a + sy)
    m = [math.cos(a + sx), math.sin(a + sx), 0.0, -math.sin(a + sy), math.cos(a + sy), 0.0]
    m = [v / scale / d for v in m]
    tx, ty = translate
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty) + cx
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty) + cy
    return m


def _affine(img: Any, who: str, angle: float, translate: Sequence[float], scale: float, shear: Sequence[float],
            resample: Inter, fill: Any) -> Any:
    from PIL import Image

    filt = pil_resample(resample, who)

    def run(p: Any, f: Any) -> Any:
        matrix = _affine_matrix(p.size[0], p.size[1], angle, translate, scale, shear)
        return p.transform(p.size, Image.AFFINE, matrix, filt, fillcolor=f)

    return _warp(img, who, fill, run)


class Affine(Transform):
    """Rotate by ``degrees``, shift by ``translate`` pixels, zoom by ``scale`` and shear by ``shear`` degrees.

    Arguments:
        degrees: rotation in [-180, 180], clockwise for a positive angle (as MindSpore).
        translate: (dx, dy) as fractions of the width and height, in [-1, 1].
        scale: zoom factor, positive.
        shear: an angle (parallel to x) or (x angle, y angle), each in [-180, 180].
        resample: ``Inter.NEAREST``, ``Inter.BILINEAR`` or ``Inter.BICUBIC``.
        fill_value: the colour outside the image: an int or (R, G, B) in [0, 255].
    """

    def __init__(self, degrees: float, translate: Sequence[float], scale: float, shear: Any,
                 resample: Inter = Inter.NEAREST, fill_value: Any = 0) -> None:
        check_type(degrees, (float, int), "degrees")
        check_value(degrees, -180, 180, "degrees")
        check_type(translate, (list, tuple), "translate")
        if len(translate) != 2:
            raise TypeError("The length of translate should be 2.")
        for i, t in enumerate(translate):
            check_type(t, (int, float), f"translate[{i}]")
            check_value(t, -1.0, 1.0, f"translate[{i}]")
        check_type(scale, (float, int), "scale")
        check_positive(scale, "scale")
        check_type(shear, (float, int, list, tuple), "shear")
        shear_pair = (shear, 0.0) if is_number(shear) else tuple(shear)
        if len(shear_pair) != 2:
            raise TypeError("The length of shear should be 2.")
        for i, s in enumerate(shear_pair):
            check_type(s, (int, float), f"shear[{i}]")
            check_value(s, -180, 180, f"shear[{i}]")
        self.degrees, self.translate, self.scale = float(degrees), tuple(map(float, translate)), float(scale)
        self.shear = tuple(map(float, shear_pair))
        self.resample, self.fill_value = _check_inter(resample), check_fill_value(fill_value)

    def _apply(self, img: Any, rng: Any = None) -> Any:
        img = numpy_input(img)
        width, height = img.size if is_pil(img) else (np.shape(img)[1], np.shape(img)[0])
        shift = (self.translate[0] * width, self.translate[1] * height)
        return _affine(img, "Affine", self.degrees, shift, self.scale, self.shear, self.resample, self.fill_value)


class RandomAffine(RandomTransform):
    """:class:`Affine` with parameters drawn uniformly from ranges.

    Arguments:
        degrees: a number ``d`` (angle in (-d, d)) or (min, max).
        translate: (max_dx, max_dy) as fractions of the width and height in [-1, 1],
            or (min_dx, max_dx, min_dy, max_dy). Default: no shift.
        scale: (min, max) zoom. Default: 1.
        shear: a number ``s`` (x shear in (-s, s)), (min, max) for x, or
            (min_x, max_x, min_y, max_y). Default: none.
        resample: ``Inter.NEAREST``, ``Inter.BILINEAR`` or ``Inter.BICUBIC``.
        fill_value: the colour outside the image: an int or (R, G, B) in [0, 255].
    """

    def __init__(self, degrees: Any, translate: Any = None, scale: Any = None, shear: Any = None,
                 resample: Inter = Inter.NEAREST, fill_value: Any = 0) -> None:
        self.degrees = _degrees_arg(degrees)
        if translate is not None:
            check_type(translate, (list, tuple), "translate")
            if len(translate) not in (2, 4):
                raise TypeError("translate should be a list or tuple of length 2 or 4.")
            for i, t in enumerate(translate):
                check_type(t, (int, float), f"translate at {i}")
                check_value(t, -1.0, 1.0, f"translate at {i}")
            translate = ((-translate[0], translate[0], -translate[1], translate[1]) if len(translate) == 2
                         else tuple(translate))
        if scale is not None:
            check_type(scale, (tuple, list), "scale")
            if len(scale) != 2:
                raise TypeError("scale should be a list or tuple of length 2.")
            if scale[0] > scale[1]:
                raise ValueError("Input scale[1] must be equal to or greater than scale[0].")
            check_range_pair(scale, "scale", 0, FLOAT_MAX_INTEGER)
            check_positive(scale[1], "scale[1]")
        if shear is not None:
            check_type(shear, (numbers.Number, tuple, list), "shear")
            if is_number(shear):
                check_positive(shear, "shear")
                shear = (-shear, shear, 0.0, 0.0)
            elif len(shear) == 2:
                shear = (shear[0], shear[1], 0.0, 0.0)
            elif len(shear) != 4:
                raise TypeError("shear must be of length 2 or 4.")
            if shear[0] > shear[1] or shear[2] > shear[3]:
                raise ValueError("shear should be in (min,max) format. Got (max,min).")
        self.translate, self.scale, self.shear = translate, scale, shear
        self.resample, self.fill_value = _check_inter(resample), check_fill_value(fill_value)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        if is_pil(img):
            width, height = img.size
        else:
            height, width = np.shape(img)[:2]
        angle = float(rng.uniform(*self.degrees))
        if self.translate is None:
            shift = (0.0, 0.0)
        else:
            t = self.translate
            shift = (float(np.round(rng.uniform(t[0] * width, t[1] * width))),
                     float(np.round(rng.uniform(t[2] * height, t[3] * height))))
        zoom = 1.0 if self.scale is None else float(rng.uniform(*self.scale))
        shear = (0.0, 0.0) if self.shear is None else (float(rng.uniform(self.shear[0], self.shear[1])),
                                                      float(rng.uniform(self.shear[2], self.shear[3])))
        return _affine(img, "RandomAffine", angle, shift, zoom, shear, self.resample, self.fill_value)


def _perspective_coeffs(start: Sequence[Sequence[float]], end: Sequence[Sequence[float]]) -> list[float]:
    """The 8 coefficients mapping output pixels (``end``) back to input pixels (``start``)."""
    rows = []
    for (xo, yo), (xs, ys) in zip(end, start):
        rows.append([xo, yo, 1, 0, 0, 0, -xs * xo, -xs * yo])
        rows.append([0, 0, 0, xo, yo, 1, -ys * xo, -ys * yo])
    return np.linalg.lstsq(np.array(rows, dtype=float), np.array(start, dtype=float).reshape(8), rcond=None)[0].tolist()


def _perspective(img: Any, who: str, start: Any, end: Any, interpolation: Inter) -> Any:
    from PIL import Image

    filt = pil_resample(interpolation, who)
    coeffs = _perspective_coeffs(start, end)
    return _warp(img, who, 0, lambda p, f: p.transform(p.size, Image.PERSPECTIVE, coeffs, filt, fillcolor=f))


def _points(points: Any, name: str) -> list[tuple[int, int]]:
    check_type(points, (list,), name)
    if len(points) != 4:
        raise TypeError(f"{name} should be a list of 4 points (top_left, top_right, bottom_right, bottom_left).")
    for i, p in enumerate(points):
        check_type(p, (list, tuple), f"{name}[{i}]")
        if len(p) != 2:
            raise TypeError(f"{name}[{i}] should be a point [x, y].")
        for v in p:
            check_type(v, (int,), f"{name}[{i}]")
            check_value(v, -2147483648, INT32_MAX, f"{name}[{i}]")
    return [(int(p[0]), int(p[1])) for p in points]


class Perspective(Transform):
    """Warp so that ``start_points`` (4 corners [x, y]) land on ``end_points``.

    Arguments:
        start_points: [top_left, top_right, bottom_right, bottom_left] in the input.
        end_points: where they go in the output.
        interpolation: ``Inter.NEAREST``, ``Inter.BILINEAR`` or ``Inter.BICUBIC``.
    """

    def __init__(self, start_points: Sequence[Sequence[int]], end_points: Sequence[Sequence[int]],
                 interpolation: Inter = Inter.BILINEAR) -> None:
        self.start_points, self.end_points = _points(start_points, "start_points"), _points(end_points, "end_points")
        self.interpolation = _check_inter(interpolation)

    def _apply(self, img: Any, rng: Any = None) -> Any:
        return _perspective(img, "Perspective", self.start_points, self.end_points, self.interpolation)


class RandomPerspective(RandomTransform):
    """With probability ``prob``, move each corner inwards by up to ``distortion_scale`` of half the size.

    Arguments:
        distortion_scale: in [0, 1].
        prob: the probability of warping.
        interpolation: ``Inter.NEAREST``, ``Inter.BILINEAR`` or ``Inter.BICUBIC``.
    """

    def __init__(self, distortion_scale: float = 0.5, prob: float = 0.5,
                 interpolation: Inter = Inter.BICUBIC) -> None:
        check_type(distortion_scale, (float, int), "distortion_scale")
        check_value(distortion_scale, 0.0, 1.0, "distortion_scale")
        self.distortion_scale, self.prob = float(distortion_scale), check_prob(prob)
        self.interpolation = _check_inter(interpolation)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        if rng.random() >= self.prob:
            return img
        width, height = img.size if is_pil(img) else (np.shape(img)[1], np.shape(img)[0])
        dw, dh = int(width / 2 * self.distortion_scale), int(height / 2 * self.distortion_scale)

        def pick(low: int, high: int) -> int:
            return int(rng.integers(low, high + 1))

        end = [(pick(0, dw), pick(0, dh)), (pick(width - dw - 1, width - 1), pick(0, dh)),
               (pick(width - dw - 1, width - 1), pick(height - dh - 1, height - 1)),
               (pick(0, dw), pick(height - dh - 1, height - 1))]
        start = [(0, 0), (width - 1, 0), (width - 1, height - 1), (0, height - 1)]
        return _perspective(img, "RandomPerspective", start, end, self.interpolation)


def _five(img: Any, size: tuple[int, int], who: str) -> tuple[Any, ...]:
    arr = to_array(img, who)
    h, w = arr.shape[:2]
    ch, cw = size
    if ch > h or cw > w:
        raise ValueError(f"For '{who}', crop size {size} is bigger than the image size {(h, w)}")
    top, left = int(round((h - ch) / 2.0)), int(round((w - cw) / 2.0))
    boxes = [(0, 0), (0, w - cw), (h - ch, 0), (h - ch, w - cw), (top, left)]
    crops = [np.ascontiguousarray(arr[t:t + ch, l:l + cw]) for t, l in boxes]
    if is_pil(img):
        from PIL import Image

        return tuple(Image.fromarray(c) for c in crops)
    return tuple(crops)


class FiveCrop(Transform):
    """The four corner crops and the centre crop of ``size``: (top-left, top-right, bottom-left, bottom-right, centre).

    Arguments:
        size: an int (a square) or (height, width).
    """

    def __init__(self, size: Any) -> None:
        self.size = check_size(size)

    def _apply(self, img: Any, rng: Any = None) -> tuple[Any, ...]:
        return _five(img, self.size, "FiveCrop")


class TenCrop(Transform):
    """:class:`FiveCrop` of the image, then of its mirror (left-right, or top-bottom with ``use_vertical_flip``)."""

    def __init__(self, size: Any, use_vertical_flip: bool = False) -> None:
        self.size = check_size(size)
        check_type(use_vertical_flip, (bool,), "use_vertical_flip")
        self.use_vertical_flip = use_vertical_flip

    def _apply(self, img: Any, rng: Any = None) -> tuple[Any, ...]:
        arr = to_array(img, "TenCrop")
        flipped = np.ascontiguousarray(arr[::-1] if self.use_vertical_flip else arr[:, ::-1])
        if is_pil(img):
            from PIL import Image

            flipped = Image.fromarray(flipped)
        return _five(img, self.size, "TenCrop") + _five(flipped, self.size, "TenCrop")


class PadToSize(Transform):
    """Pad to ``size``, the image placed at ``offset`` (default: centred).

    Arguments:
        size: the output: an int (a square) or (height, width), at least the image's size.
        offset: pixels above and left of the image: an int for both, (top, left), or None to centre.
        fill_value: for ``Border.CONSTANT``: an int or (R, G, B) in [0, 255].
        padding_mode: a :class:`Border`.
    """

    def __init__(self, size: Any, offset: Any = None, fill_value: Any = 0,
                 padding_mode: Border = Border.CONSTANT) -> None:
        self.size = check_size(size, high=INT32_MAX)
        if offset is not None:
            check_type(offset, (int, list, tuple), "offset")
            if is_int(offset):
                check_value(offset, 0, INT32_MAX, "offset")
            else:
                if len(offset) not in (0, 2):
                    raise ValueError("The offset must be empty or a sequence of length 2.")
                for i, v in enumerate(offset):
                    check_type(v, (int,), f"offset{i}")
                    check_value(v, 0, INT32_MAX, f"offset{i}")
        self.offset = offset
        self.fill_value = check_fill_value(fill_value)
        check_type(padding_mode, (Border,), "padding_mode")
        self.padding_mode = padding_mode

    def _apply(self, img: Any, rng: Any = None) -> Any:
        img = numpy_input(img)
        def run(a: np.ndarray) -> np.ndarray:
            h, w = a.shape[:2]
            th, tw = self.size
            if th < h or tw < w:
                raise ValueError(f"For 'PadToSize', the target size {self.size} must be no less than the image size "
                                 f"{(h, w)}")
            if self.offset is None or (not is_int(self.offset) and len(self.offset) == 0):
                top, left = (th - h) // 2, (tw - w) // 2
            else:
                top, left = (self.offset, self.offset) if is_int(self.offset) else self.offset
            if top > th - h or left > tw - w:
                raise ValueError(f"For 'PadToSize', offset {(top, left)} puts the image {(h, w)} outside the target "
                                 f"size {self.size}")
            return _pad(a, top, th - h - top, left, tw - w - left, self.fill_value, self.padding_mode).astype(a.dtype)

        return on_array(img, "PadToSize", run)


class SlicePatches(Transform):
    """Cut the image into ``num_height`` x ``num_width`` patches, row by row.

    Arguments:
        num_height, num_width: patches along each axis, positive.
        slice_mode: ``SliceMode.PAD`` pads the image (with ``fill_value``) up to a multiple;
            ``SliceMode.DROP`` drops the remainder.
        fill_value: the padding, an int in [0, 255].
    """

    def __init__(self, num_height: int = 1, num_width: int = 1, slice_mode: SliceMode = SliceMode.PAD,
                 fill_value: int = 0) -> None:
        for name, value in (("num_height", num_height), ("num_width", num_width)):
            check_type(value, (int,), name)
            check_value(value, 1, INT32_MAX, name)
        check_type(slice_mode, (SliceMode,), "slice_mode")
        check_type(fill_value, (int,), "fill_value")
        check_value(fill_value, 0, 255, "fill_value")
        self.num_height, self.num_width = num_height, num_width
        self.slice_mode, self.fill_value = slice_mode, fill_value

    def _apply(self, img: Any, rng: Any = None) -> tuple[np.ndarray, ...]:
        img = numpy_input(img)
        arr = to_array(img, "SlicePatches")
        h, w = arr.shape[:2]
        if self.slice_mode == SliceMode.PAD:
            ph, pw = -(-h // self.num_height), -(-w // self.num_width)
            arr = _pad(arr, 0, ph * self.num_height - h, 0, pw * self.num_width - w, self.fill_value,
                       Border.CONSTANT).astype(arr.dtype)
        else:
            ph, pw = h // self.num_height, w // self.num_width
        return tuple(np.ascontiguousarray(arr[i * ph:(i + 1) * ph, j * pw:(j + 1) * pw])
                     for i in range(self.num_height) for j in range(self.num_width))
