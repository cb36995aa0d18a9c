"""MindSpore's ``mindspore.ops.operations.image_ops``: image Primitives (cropping, colour, resizing, NMS).

Example:
    >>> import numpy as np
    >>> from mindjax.ops import operations as P
    >>> P.RGBToHSV()(np.array([[[1.0, 0.0, 0.0]]], np.float32)).tolist()
    [[[0.0, 1.0, 1.0]]]
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import as_array
from mindjax.ops.function import image_func as I
from mindjax.ops.functional_array import _eager
from mindjax.ops.operations._base import Primitive, check_bool, record


class CropAndResize(Primitive):
    """Crops of NHWC ``x`` at normalised ``boxes`` (``y1, x1, y2, x2``) resized to ``crop_size``.

    Arguments:
        method: ``'bilinear'`` (default), ``'nearest'`` or ``'bilinear_v2'``.
        extrapolation_value: the value outside the image. Default: ``0.0``.

    Call: ``CropAndResize()(x, boxes, box_index, crop_size)`` -> float32 ``(num_boxes, h, w, C)``.
    """

    _strategy_inputs = 3

    def __init__(self, method: str = "bilinear", extrapolation_value: float = 0.0) -> None:
        super().__init__()
        if method not in ("bilinear", "nearest", "bilinear_v2"):
            raise ValueError(f"For '{self.name}', 'method' must be 'bilinear', 'nearest' or 'bilinear_v2', but got "
                             f"{method!r}.")
        record(self, method=method, extrapolation_value=float(extrapolation_value))

    def __call__(self, x: Any, boxes: Any, box_index: Any, crop_size: Any) -> jax.Array:
        return I.crop_and_resize(x, boxes, box_index, tuple(crop_size), self.method, self.extrapolation_value)


def _rgb_to_hsv(rgb: jax.Array) -> jax.Array:
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    value = jnp.max(rgb, axis=-1)
    spread = value - jnp.min(rgb, axis=-1)
    safe = jnp.where(spread > 0, spread, 1)
    saturation = jnp.where(value > 0, spread / jnp.where(value > 0, value, 1), 0)
    hue = jnp.where(value == r, (g - b) / safe, jnp.where(value == g, 2 + (b - r) / safe, 4 + (r - g) / safe))
    hue = jnp.where(spread > 0, (hue / 6) % 1.0, 0)
    return jnp.stack([hue, saturation, value], axis=-1)


def _hsv_to_rgb(hsv: jax.Array) -> jax.Array:
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    sector = (h % 1.0) * 6

    def channel(n: float) -> jax.Array:
        k = (n + sector) % 6
        return v - v * s * jnp.clip(jnp.minimum(k, 4 - k), 0, 1)

    return jnp.stack([channel(5.0), channel(3.0), channel(1.0)], axis=-1)


def _image(prim: str, name: str, value: Any) -> jax.Array:
    a = as_array(value)
    if a.ndim < 1 or a.shape[-1] != 3:
        raise ValueError(f"For '{prim}', the last dimension of '{name}' must be 3, but got shape {a.shape}.")
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"For '{prim}', '{name}' must be float16, float32 or float64, but got {a.dtype}.")
    return a


class RGBToHSV(Primitive):
    """RGB images (last axis 3, values in [0, 1]) to HSV (hue in [0, 1)). Call: ``RGBToHSV()(images)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, images: Any) -> jax.Array:
        return _rgb_to_hsv(_image(self.name, "images", images))


class HSVToRGB(Primitive):
    """HSV images (last axis 3) to RGB. Call: ``HSVToRGB()(x)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any) -> jax.Array:
        return _hsv_to_rgb(_image(self.name, "x", x))


class AdjustHue(Primitive):
    """RGB images with their hue rotated by ``delta`` (a fraction of the colour wheel).
    Call: ``AdjustHue()(image, delta)``."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, image: Any, delta: Any) -> jax.Array:
        a = _image(self.name, "image", image)
        hsv = _rgb_to_hsv(a.astype(jnp.float32))
        hsv = hsv.at[..., 0].set((hsv[..., 0] + as_array(delta).astype(jnp.float32)) % 1.0)
        return _hsv_to_rgb(hsv).astype(a.dtype)


class AdjustSaturation(Primitive):
    """RGB images with their saturation multiplied by ``scale`` (clipped to [0, 1]).
    Call: ``AdjustSaturation()(image, scale)``."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, image: Any, scale: Any) -> jax.Array:
        a = _image(self.name, "image", image)
        hsv = _rgb_to_hsv(a.astype(jnp.float32))
        hsv = hsv.at[..., 1].set(jnp.clip(hsv[..., 1] * as_array(scale).astype(jnp.float32), 0, 1))
        return _hsv_to_rgb(hsv).astype(a.dtype)


def _iou_matrix(b: np.ndarray) -> np.ndarray:
    """Pairwise IoU of boxes ``(N, 4)`` given as ``y1, x1, y2, x2`` in any corner order (0 where the union is 0)."""
    y1, y2 = np.minimum(b[:, 0], b[:, 2]), np.maximum(b[:, 0], b[:, 2])
    x1, x2 = np.minimum(b[:, 1], b[:, 3]), np.maximum(b[:, 1], b[:, 3])
    area = (y2 - y1) * (x2 - x1)
    inter = (np.clip(np.minimum(y2[:, None], y2[None]) - np.maximum(y1[:, None], y1[None]), 0, None)
             * np.clip(np.minimum(x2[:, None], x2[None]) - np.maximum(x1[:, None], x1[None]), 0, None))
    union = area[:, None] + area[None] - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def _greedy_nms(scores: np.ndarray, overlaps: np.ndarray, limit: int, overlap_threshold: float,
                score_threshold: float) -> list[int]:
    """Greedy NMS: indices by descending score (stable), skipping scores at most ``score_threshold`` and
    boxes overlapping a kept one by more than ``overlap_threshold``, at most ``limit`` of them."""
    keep: list[int] = []
    for i in np.argsort(-scores, kind="stable"):
        if len(keep) >= limit or scores[i] <= score_threshold:
            break
        if all(overlaps[i, j] <= overlap_threshold for j in keep):
            keep.append(int(i))
    return keep


def _scalar(prim: str, name: str, value: Any, kind: str) -> float:
    a = np.asarray(as_array(value))
    if a.ndim != 0:
        raise ValueError(f"For '{prim}', '{name}' must be a 0-D tensor or a number, but got shape {a.shape}.")
    if kind == "int" and not np.issubdtype(a.dtype, np.integer):
        raise TypeError(f"For '{prim}', '{name}' must be an int32 scalar, but got {a.dtype}.")
    return int(a) if kind == "int" else float(a)


class NonMaxSuppressionV3(Primitive):
    """Greedy non-maximum suppression: the indices of up to ``max_output_size`` boxes (``y1, x1, y2, x2``, any
    corner order) by descending score, dropping those overlapping a kept box by more than ``iou_threshold`` or
    scoring at most ``score_threshold``. Eager only (the output length depends on the values).

    Call: ``NonMaxSuppressionV3()(boxes, scores, max_output_size, iou_threshold, score_threshold)`` -> int32.
    """

    _strategy_inputs = None

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any,
                 score_threshold: Any) -> jax.Array:
        _eager(self.name, boxes, scores, max_output_size)
        b, s = np.asarray(as_array(boxes), np.float64), np.asarray(as_array(scores), np.float64)
        if b.ndim != 2 or b.shape[1] != 4 or s.shape != b.shape[:1]:
            raise ValueError(f"For '{self.name}', 'boxes' must be (N, 4) and 'scores' (N,), but got shapes {b.shape} "
                             f"and {s.shape}.")
        limit = int(np.asarray(as_array(max_output_size)))
        if limit < 0:
            raise ValueError(f"For '{self.name}', 'max_output_size' must be >= 0, but got {limit}.")
        iou_t = float(np.asarray(as_array(iou_threshold)))
        score_t = float(np.asarray(as_array(score_threshold)))
        keep = _greedy_nms(s, _iou_matrix(b), limit, iou_t, score_t)
        return jnp.asarray(keep, jnp.int32)


def _area_matrix(out: int, size: int, align_corners: bool) -> np.ndarray:
    """The ``(out, size)`` weights of TensorFlow's (and MindSpore's) area resize along one axis: each output
    cell averages the input cells it covers, partly covered ones by their covered share."""
    scale = (size - 1) / (out - 1) if align_corners and out > 1 else size / out
    matrix = np.zeros((out, size))
    for o in range(out):
        lo, hi = o * scale, (o + 1) * scale
        for i in range(int(np.floor(lo)), int(np.ceil(hi))):
            matrix[o, min(i, size - 1)] += min(i + 1, hi) - max(i, lo)
    return matrix / scale


class ResizeArea(Primitive):
    """Resize ``(N, H, W, C)`` images to the call's ``size`` by area averaging (float32 out).

    Arguments:
        align_corners: map the corner pixels onto each other. Default: ``False``.

    Call: ``ResizeArea(align_corners)(images, size)`` with ``size`` two positive ints (a list, tuple or int32
    Tensor) -> ``(N, new_height, new_width, C)`` float32.
    """

    def __init__(self, align_corners: bool = False) -> None:
        super().__init__()
        record(self, align_corners=check_bool(self.name, "align_corners", align_corners))

    def __call__(self, images: Any, size: Any) -> jax.Array:
        x = as_array(images)
        if x.ndim != 4:
            raise ValueError(f"For '{self.name}', 'images' must be 4-D (N, H, W, C), but got shape "
                             f"{tuple(x.shape)}.")
        out = [int(v) for v in np.asarray(as_array(size) if hasattr(size, "shape") else size).reshape(-1)]
        if len(out) != 2 or min(out) <= 0:
            raise ValueError(f"For '{self.name}', 'size' must be two positive ints, but got {out}.")
        rows = jnp.asarray(_area_matrix(out[0], x.shape[1], self.align_corners), jnp.float32)
        cols = jnp.asarray(_area_matrix(out[1], x.shape[2], self.align_corners), jnp.float32)
        return jnp.einsum("oh,nhwc,pw->nopc", rows, x.astype(jnp.float32), cols,
                          precision=jax.lax.Precision.HIGHEST)


class NonMaxSuppressionWithOverlaps(Primitive):
    """Greedy non-maximum suppression over a given overlap matrix: the indices of up to ``max_output_size``
    boxes by descending score, dropping those overlapping a kept box by more than ``overlap_threshold`` or
    scoring at most ``score_threshold``. Eager only (the output length depends on the values).

    Call: ``NonMaxSuppressionWithOverlaps()(overlaps, scores, max_output_size, overlap_threshold,
    score_threshold)`` -> int32 indices.
    """

    _strategy_inputs = None

    def __call__(self, overlaps: Any, scores: Any, max_output_size: Any, overlap_threshold: Any,
                 score_threshold: Any) -> jax.Array:
        name = self.name
        _eager(name, overlaps, scores, max_output_size)
        o, s = as_array(overlaps), as_array(scores)
        if not jnp.issubdtype(o.dtype, jnp.floating):
            raise TypeError(f"For '{name}', 'overlaps' must be a float16, float32 or float64 tensor, but got "
                            f"{o.dtype}.")
        if o.ndim != 2 or o.shape[0] != o.shape[1] or s.shape != o.shape[:1]:
            raise ValueError(f"For '{name}', 'overlaps' must be (N, N) and 'scores' (N,), but got shapes {o.shape} "
                             f"and {s.shape}.")
        limit = _scalar(name, "max_output_size", max_output_size, "int")
        if limit < 0:
            raise ValueError(f"For '{name}', 'max_output_size' must be >= 0, but got {limit}.")
        keep = _greedy_nms(np.asarray(s, np.float64), np.asarray(o, np.float64), limit,
                           _scalar(name, "overlap_threshold", overlap_threshold, "float"),
                           _scalar(name, "score_threshold", score_threshold, "float"))
        return jnp.asarray(keep, jnp.int32)


class CombinedNonMaxSuppression(Primitive):
    """Per-class greedy NMS over a batch, then the best ``max_total_size`` detections of all classes.

    Arguments:
        pad_per_class: the detections per image are ``min(max_output_size_per_class * num_classes,
            max_total_size)`` rather than ``max_total_size``. Default: ``False``.
        clip_boxes: clip the output coordinates to ``[0, 1]``. Default: ``True``.

    Call: ``CombinedNonMaxSuppression()(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold,
    score_threshold)``: ``boxes`` float32 ``(batch, num_boxes, q, 4)`` with ``q`` 1 (shared) or ``num_classes``,
    ``scores`` float32 ``(batch, num_boxes, num_classes)`` -> ``(nmsed_boxes, nmsed_scores, nmsed_classes,
    valid_detections)``, zero-padded past ``valid_detections`` (int32). Eager only.
    """

    _strategy_inputs = None

    def __init__(self, pad_per_class: bool = False, clip_boxes: bool = True) -> None:
        super().__init__()
        record(self, pad_per_class=check_bool(self.name, "pad_per_class", pad_per_class),
               clip_boxes=check_bool(self.name, "clip_boxes", clip_boxes))

    def __call__(self, boxes: Any, scores: Any, max_output_size_per_class: Any, max_total_size: Any,
                 iou_threshold: Any, score_threshold: Any) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
        name = self.name
        _eager(name, boxes, scores, max_output_size_per_class, max_total_size)
        b, s = as_array(boxes), as_array(scores)
        for arg, a in (("boxes", b), ("scores", s)):
            if a.dtype != jnp.float32:
                raise TypeError(f"For '{name}', '{arg}' must be a float32 tensor, but got {a.dtype}.")
        if b.ndim != 4 or b.shape[-1] != 4:
            raise ValueError(f"For '{name}', 'boxes' must be 4-D (batch, num_boxes, q, 4), but got {b.shape}.")
        if s.ndim != 3 or s.shape[:2] != b.shape[:2] or b.shape[2] not in (1, s.shape[2]):
            raise ValueError(f"For '{name}', 'scores' must be (batch, num_boxes, num_classes) matching 'boxes' "
                             f"{b.shape} (q = 1 or num_classes), but got {s.shape}.")
        per_class = _scalar(name, "max_output_size_per_class", max_output_size_per_class, "int")
        total = _scalar(name, "max_total_size", max_total_size, "int")
        if per_class < 0 or total < 0:
            raise ValueError(f"For '{name}', 'max_output_size_per_class' and 'max_total_size' must be >= 0, but got "
                             f"{per_class} and {total}.")
        iou_t = _scalar(name, "iou_threshold", iou_threshold, "float")
        if not 0 <= iou_t <= 1:
            raise ValueError(f"For '{name}', 'iou_threshold' must be in [0, 1], but got {iou_t}.")
        score_t = _scalar(name, "score_threshold", score_threshold, "float")
        bn, sn = np.asarray(b, np.float64), np.asarray(s, np.float64)
        batch, _, num_classes = sn.shape
        count = min(per_class * num_classes, total) if self.pad_per_class else total
        out_boxes = np.zeros((batch, count, 4), np.float32)
        out_scores = np.zeros((batch, count), np.float32)
        out_classes = np.zeros((batch, count), np.float32)
        valid = np.zeros((batch,), np.int32)
        for n in range(batch):
            found = []  # (score, class, box index) in class order, then stably sorted by score
            for c in range(num_classes):
                cb = bn[n, :, 0 if bn.shape[2] == 1 else c]
                for i in _greedy_nms(sn[n, :, c], _iou_matrix(cb), per_class, iou_t, score_t):
                    found.append((sn[n, i, c], c, cb[i]))
            found.sort(key=lambda item: -item[0])
            found = found[:count]
            valid[n] = len(found)
            for k, (score, c, box) in enumerate(found):
                out_boxes[n, k] = np.clip(box, 0.0, 1.0) if self.clip_boxes else box
                out_scores[n, k], out_classes[n, k] = score, c
        return jnp.asarray(out_boxes), jnp.asarray(out_scores), jnp.asarray(out_classes), jnp.asarray(valid)


def _lanczos(radius: float):  # type: ignore[no-untyped-def]
    def kernel(x: np.ndarray) -> np.ndarray:
        safe = np.where(x <= 1e-3, 1.0, x)
        value = radius * np.sin(np.pi * safe) * np.sin(np.pi * safe / radius) / (np.pi * np.pi * safe * safe)
        return np.where(x > radius, 0.0, np.where(x <= 1e-3, 1.0, value))
    return kernel, radius


def _cubic(a: np.ndarray, coeffs_near: tuple, coeffs_far: tuple) -> np.ndarray:
    near = np.polyval(coeffs_near, a)
    far = np.polyval(coeffs_far, a)
    return np.where(a >= 2, 0.0, np.where(a >= 1, far, near))


#: TensorFlow's resampling kernels (as ScaleAndTranslate uses them): the function of |x| and its radius.
_SCALE_KERNELS = {
    "lanczos1": _lanczos(1.0), "lanczos3": _lanczos(3.0), "lanczos5": _lanczos(5.0),
    "gaussian": (lambda x: np.where(x < 1.5, np.exp(-x * x / (2 * 0.5 ** 2)), 0.0), 1.5),  # sigma 0.5, radius 3 sigma
    "box": (lambda x: np.where(x < 0.5, 1.0, np.where(x == 0.5, 0.5, 0.0)), 1.0),
    "triangle": (lambda x: np.maximum(0.0, 1.0 - x), 1.0),
    "keyscubic": (lambda x: _cubic(x, (1.5, -2.5, 0.0, 1.0), (-0.5, 2.5, -4.0, 2.0)), 2.0),
    "mitchellcubic": (lambda x: _cubic(x, (7 / 6, -2.0, 0.0, 8 / 9), (-7 / 18, 2.0, -10 / 3, 16 / 9)), 2.0),
}


def _scale_matrix(kernel_type: str, out: int, size: int, scale: float, translate: float,
                  antialias: bool) -> np.ndarray:
    """The ``(out, size)`` weights of TensorFlow's scale-and-translate along one axis: output pixel ``x`` samples
    the input at ``(x + 0.5 - translate) / scale`` with the kernel widened by ``1 / scale`` when shrinking
    with ``antialias``; samples outside the input give 0, and each row's weights are normalised."""
    fn, radius = _SCALE_KERNELS[kernel_type]
    f32 = np.float32  # in float32 as TensorFlow's kernel computes, so that ties (the box's 0.5) fall alike
    inv = f32(1.0) / f32(scale)
    kscale = max(inv, f32(1.0)) if antialias else f32(1.0)
    matrix = np.zeros((out, size))
    for x in range(out):
        sample = f32(x + 0.5) * inv + (-inv * f32(translate))
        if sample < 0 or sample > size:
            continue
        lo = int(np.clip(np.ceil(sample - f32(radius) * kscale - f32(0.5)), 0, size - 1))
        hi = int(np.clip(np.floor(sample + f32(radius) * kscale - f32(0.5)), 0, size - 1)) + 1
        src = np.arange(lo, hi).astype(f32)
        w = fn(np.abs((src + f32(0.5) - sample) / kscale)).astype(f32)
        total = w.sum(dtype=f32)
        if abs(total) >= 1000.0 * np.finfo(np.float32).tiny:
            w = w / total
        matrix[x, lo:hi] = w
    return matrix


class ScaleAndTranslate(Primitive):
    """Resample NHWC images by a scale and a translation with one of TensorFlow's kernels (deprecated in
    MindSpore 2.8).

    Arguments:
        kernel_type: ``'lanczos1'``, ``'lanczos3'``, ``'lanczos5'``, ``'gaussian'``, ``'box'``, ``'triangle'``,
            ``'keyscubic'`` or ``'mitchellcubic'``. Default: ``'lanczos3'``.
        antialias: widen the kernel when shrinking. Default: ``True``.

    Call: ``ScaleAndTranslate(kernel_type, antialias)(images, size, scale, translation)``: ``size`` int32 (2,),
    ``scale`` and ``translation`` float32 (2,) for (height, width) -> float32 ``(batch, size[0], size[1],
    channel)``. ``size``, ``scale`` and ``translation`` must be concrete (they build the weights).
    """

    _strategy_inputs = 4

    def __init__(self, kernel_type: str = "lanczos3", antialias: bool = True) -> None:
        super().__init__()
        if not isinstance(kernel_type, str):
            raise TypeError(f"For '{self.name}', 'kernel_type' must be a str, but got {type(kernel_type).__name__}.")
        if kernel_type not in _SCALE_KERNELS:
            raise ValueError(f"For '{self.name}', 'kernel_type' must be one of {list(_SCALE_KERNELS)}, but got "
                             f"'{kernel_type}'.")
        record(self, kernel_type=kernel_type, antialias=check_bool(self.name, "antialias", antialias))

    def __call__(self, images: Any, size: Any, scale: Any, translation: Any) -> jax.Array:
        name = self.name
        x = as_array(images)
        if x.ndim != 4:
            raise ValueError(f"For '{name}', 'images' must be 4-D (batch, height, width, channel), but got shape "
                             f"{x.shape}.")
        _eager(name, size, scale, translation)
        values = {}
        for arg, v, kind in (("size", size, np.int32), ("scale", scale, np.float32),
                             ("translation", translation, np.float32)):
            a = np.asarray(as_array(v))
            if a.dtype != kind:
                raise TypeError(f"For '{name}', '{arg}' must be a {np.dtype(kind)} tensor, but got {a.dtype}.")
            if a.shape != (2,):
                raise ValueError(f"For '{name}', '{arg}' must have shape (2,), but got {a.shape}.")
            values[arg] = a
        if (values["size"] <= 0).any() or (values["scale"] <= 0).any():
            raise ValueError(f"For '{name}', 'size' and 'scale' must be positive, but got {values['size'].tolist()} "
                             f"and {values['scale'].tolist()}.")
        rows, cols = (jnp.asarray(_scale_matrix(self.kernel_type, int(values["size"][i]), x.shape[1 + i],
                                                float(values["scale"][i]), float(values["translation"][i]),
                                                self.antialias), jnp.float32) for i in (0, 1))
        return jnp.einsum("oh,nhwc,pw->nopc", rows, x.astype(jnp.float32), cols, precision=jax.lax.Precision.HIGHEST)
