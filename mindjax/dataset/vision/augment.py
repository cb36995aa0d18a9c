"""Erasing, blending, blurring and conversion transforms of ``mindspore.dataset.vision``.

``CutOut``/``Erase``/``RandomErasing`` blank regions, ``MixUpBatch``/``CutMixBatch``
mix the samples of a batch (images with one-hot labels), ``GaussianBlur`` and
``LinearTransformation`` filter, and ``ToPIL``/``ToNumpy``/``ToType``/``NormalizePad``
convert.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from mindjax.dataset._validate import (FLOAT_MAX_INTEGER, INT32_MAX, check_odd, check_positive, check_prob,
                                       check_type, check_value, is_number)
from mindjax.dataset.transforms.base import RandomTransform, Transform
from mindjax.dataset.transforms.transforms import TypeCast
from mindjax.dataset.vision._image import numpy_input, on_array, to_array, to_pil
from mindjax.dataset.vision.utils import ImageBatchFormat, is_pil

__all__ = ["Erase", "CutOut", "RandomErasing", "MixUpBatch", "MixUp", "CutMixBatch", "GaussianBlur",
           "LinearTransformation",
           "ToPIL", "ToNumpy", "ToType", "NormalizePad"]


def _erase_value(value: Any, name: str = "value") -> tuple[float, float, float]:
    check_type(value, (float, int, tuple), name)
    triple = (value,) * 3 if is_number(value) else value
    if len(triple) != 3:
        raise TypeError("value should be a single integer/float or a 3-tuple.")
    for i, v in enumerate(triple):
        check_type(v, (float, int), f"{name}[{i}]")
        check_value(v, 0, 255, f"{name}[{i}]")
    return float(triple[0]), float(triple[1]), float(triple[2])


def _fill_region(arr: np.ndarray, top: int, left: int, height: int, width: int, value: Any) -> None:
    region = arr[top:top + height, left:left + width]
    if arr.ndim == 3 and np.ndim(value) == 1 and arr.shape[2] != len(value):
        value = np.resize(np.asarray(value), arr.shape[2])
    region[...] = np.asarray(value).astype(arr.dtype) if arr.ndim == 3 else np.asarray(value).ravel()[0]


class Erase(Transform):
    """Set the (top, left, height, width) region of an HWC image to ``value``.

    Arguments:
        top, left: the region's corner, non-negative.
        height, width: its size, positive.
        value: an int/float for every channel or an (R, G, B) triple, in [0, 255].
        inplace: write into the input array.
    """

    def __init__(self, top: int, left: int, height: int, width: int, value: Any = 0.0, inplace: bool = False) -> None:
        for name, v, low in (("top", top, 0), ("left", left, 0), ("height", height, 1), ("width", width, 1)):
            check_type(v, (int,), name)
            check_value(v, low, INT32_MAX, name)
        check_type(inplace, (bool,), "inplace")
        self.top, self.left, self.height, self.width = top, left, height, width
        self.value, self.inplace = _erase_value(value), inplace

    def _apply(self, img: Any, rng: Any = None) -> Any:
        img = numpy_input(img)
        def run(a: np.ndarray) -> np.ndarray:
            out = a if self.inplace and isinstance(img, np.ndarray) else a.copy()
            _fill_region(out, self.top, self.left, self.height, self.width,
                         self.value if out.ndim == 3 else self.value[0])
            return out

        return on_array(img, "Erase", run)


class CutOut(RandomTransform):
    """Blank ``num_patches`` random ``length`` x ``length`` squares (inside the image) with zeros.

    Arguments:
        length: the side of each square, positive.
        num_patches: how many squares.
        is_hwc: the image is (H, W, C) (else (C, H, W)).
    """

    def __init__(self, length: int, num_patches: int = 1, is_hwc: bool = True) -> None:
        check_type(length, (int,), "length")
        check_type(num_patches, (int,), "num_patches")
        check_type(is_hwc, (bool,), "is_hwc")
        check_value(length, 1, FLOAT_MAX_INTEGER, "length")
        check_value(num_patches, 1, FLOAT_MAX_INTEGER, "num_patches")
        self.length, self.num_patches, self.is_hwc = length, num_patches, is_hwc

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        img = numpy_input(img)
        def run(a: np.ndarray) -> np.ndarray:
            out = a.copy() if self.is_hwc or a.ndim == 2 else np.moveaxis(a, 0, -1).copy()
            h, w = out.shape[:2]
            ph, pw = min(self.length, h), min(self.length, w)
            for _ in range(self.num_patches):
                top, left = int(rng.integers(0, h - ph + 1)), int(rng.integers(0, w - pw + 1))
                out[top:top + ph, left:left + pw] = 0
            return out if self.is_hwc or a.ndim == 2 else np.ascontiguousarray(np.moveaxis(out, -1, 0))

        return on_array(img, "CutOut", run)


class RandomErasing(RandomTransform):
    """With probability ``prob``, erase a random rectangle of a (C, H, W) array (as ``torchvision``).

    Arguments:
        prob: the probability of erasing.
        scale: (min, max) of the area erased, as a fraction of the image.
        ratio: (min, max) of its aspect ratio.
        value: an int for every channel, an (R, G, B) triple, or ``'random'`` (standard normal noise).
        inplace: write into the input array.
        max_attempts: tries to fit a rectangle before leaving the image as it is.
    """

    def __init__(self, prob: float = 0.5, scale: Sequence[float] = (0.02, 0.33), ratio: Sequence[float] = (0.3, 3.3),
                 value: Any = 0, inplace: bool = False, max_attempts: int = 10) -> None:
        self.prob = check_prob(prob)
        for name, pair in (("scale", scale), ("ratio", ratio)):
            check_type(pair, (list, tuple), name)
            if len(pair) != 2:
                raise TypeError(f"{name} should be a list or tuple of length 2.")
            for v in pair:
                check_type(v, (float, int), name)
            if pair[0] > pair[1]:
                raise ValueError(f"{name} should be in (min,max) format. Got (max,min).")
        for i, v in enumerate(scale):
            check_value(v, 0, FLOAT_MAX_INTEGER, f"scale[{i}]")
        check_positive(scale[1], "scale[1]")
        for i, v in enumerate(ratio):
            check_value(v, 0, FLOAT_MAX_INTEGER, f"ratio[{i}]", left_open=True)
        check_type(value, (int, list, tuple, str), "value")
        if isinstance(value, str) and value != "random":
            raise ValueError("The value for erasing should be either a single value, or a string 'random', or a "
                             "sequence of 3 elements for RGB respectively.")
        if isinstance(value, int):
            check_value(value, 0, 255, "value")
        if isinstance(value, (list, tuple)):
            if len(value) != 3:
                raise ValueError("The value for erasing should be either a single value, or a string 'random', or "
                                 "a sequence of 3 elements for RGB respectively.")
            for item in value:
                check_type(item, (int,), "value")
                check_value(item, 0, 255, "value")
        check_type(inplace, (bool,), "inplace")
        check_type(max_attempts, (int,), "max_attempts")
        check_value(max_attempts, 1, FLOAT_MAX_INTEGER, "max_attempts")
        self.scale, self.ratio = tuple(map(float, scale)), tuple(map(float, ratio))
        self.value, self.inplace, self.max_attempts = value, inplace, max_attempts

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> np.ndarray:
        arr = np.asarray(img)
        if arr.ndim != 3:
            raise TypeError(f"For 'RandomErasing', the image must be a (C, H, W) array, got shape {arr.shape}")
        if rng.random() >= self.prob:
            return arr
        c, h, w = arr.shape
        for _ in range(self.max_attempts):
            area = float(rng.uniform(*self.scale)) * h * w
            aspect = float(rng.uniform(*self.ratio))
            ew = int(round(math.sqrt(area * aspect)))
            eh = int(round(ew / aspect))
            if eh < h and ew < w:
                top, left = int(rng.integers(0, h - eh + 1)), int(rng.integers(0, w - ew + 1))
                if isinstance(self.value, str):
                    fill = rng.normal(0.0, 1.0, size=(c, eh, ew))
                elif isinstance(self.value, (list, tuple)):
                    fill = np.asarray(self.value, dtype=np.float64)[:, None, None]
                else:
                    fill = self.value
                out = arr if self.inplace and isinstance(img, np.ndarray) else arr.copy()
                out[:, top:top + eh, left:left + ew] = fill
                return out
        return arr


def _batch(images: Any, labels: Any, who: str, fmt: ImageBatchFormat) -> tuple[np.ndarray, np.ndarray]:
    images, labels = np.asarray(images), np.asarray(labels)
    if images.ndim != 4:
        raise ValueError(f"For '{who}', images must be a batch of shape <N, H, W, C> or <N, C, H, W>, got "
                         f"{images.shape}; batch the dataset before this transform")
    if labels.ndim not in (2, 3) or labels.shape[0] != images.shape[0]:
        raise ValueError(f"For '{who}', labels must be one-hot of shape <N, num_classes> (or <N, L, num_classes>) "
                         f"with N = {images.shape[0]}, got {labels.shape}; apply transforms.OneHot first")
    channels = images.shape[3] if fmt == ImageBatchFormat.NHWC else images.shape[1]
    if channels not in (1, 3):
        raise ValueError(f"For '{who}', images must have 1 or 3 channels in {fmt.name} layout, got shape "
                         f"{images.shape}")
    return images, labels


def _cast_like(mixed: np.ndarray, like: np.ndarray) -> np.ndarray:
    if like.dtype.kind in "iu":
        info = np.iinfo(like.dtype)
        return np.clip(np.rint(mixed), info.min, info.max).astype(like.dtype)
    return mixed.astype(like.dtype)


class MixUpBatch(RandomTransform):
    """Blend each sample of a batch with another (a random permutation): ``lam * x + (1 - lam) * x[perm]``.

    ``lam ~ Beta(alpha, alpha)`` once per batch; labels (one-hot) mix the same way
    and come back as float32; images keep their dtype (integers rounded).

    Arguments:
        alpha: the Beta distribution's parameter, positive.
    """

    def __init__(self, alpha: float = 1.0) -> None:
        check_type(alpha, (int, float), "alpha")
        check_positive(alpha, "alpha")
        self.alpha = float(alpha)

    def _apply(self, images: Any, labels: Any, rng: np.random.Generator | None = None) -> tuple[np.ndarray, ...]:
        images, labels = _batch(images, labels, "MixUpBatch", ImageBatchFormat.NHWC if np.shape(images)[-1] in (1, 3)
                                else ImageBatchFormat.NCHW)
        lam = float(rng.beta(self.alpha, self.alpha))
        perm = rng.permutation(images.shape[0])
        mixed = lam * images.astype(np.float64) + (1.0 - lam) * images[perm].astype(np.float64)
        mixed_labels = lam * labels.astype(np.float64) + (1.0 - lam) * labels[perm].astype(np.float64)
        return _cast_like(mixed, images), mixed_labels.astype(np.float32)


class MixUp(RandomTransform):
    """Per-sample mixup of a batch (NHWC images, one-hot labels) with ``lam ~ Beta(alpha, alpha)`` per sample.

    With ``is_single`` each sample mixes with the next one in the batch (cyclically);
    otherwise with the previous batch's mixed output (the first batch is kept).
    Results are float64, as MindSpore's Python MixUp.

    Arguments:
        batch_size: the batch size (the leading axis of both inputs).
        alpha: the Beta distribution's parameter, positive.
        is_single: mix within the batch (else with the previous batch).
    """

    def __init__(self, batch_size: int, alpha: float, is_single: bool = True) -> None:
        check_type(batch_size, (int,), "batch_size")
        check_value(batch_size, 1, INT32_MAX, "batch_size")
        check_type(alpha, (int, float), "alpha")
        check_positive(alpha, "alpha")
        check_type(is_single, (bool,), "is_single")
        self.batch_size, self.alpha, self.is_single = batch_size, float(alpha), is_single
        self._previous: tuple[np.ndarray, np.ndarray] | None = None

    def _apply(self, images: Any, labels: Any, rng: np.random.Generator | None = None) -> tuple[np.ndarray, ...]:
        images, labels = np.asarray(images, dtype=np.float64), np.asarray(labels, dtype=np.float64)
        if images.ndim != 4 or labels.ndim != 2 or len(images) != self.batch_size or len(labels) != self.batch_size:
            raise ValueError(f"For 'MixUp', expected batch_size={self.batch_size} images <N, H, W, C> and one-hot "
                             f"labels <N, num_classes>, got {images.shape} and {labels.shape}")
        lam = rng.beta(self.alpha, self.alpha, self.batch_size)
        if self.is_single:
            other_images, other_labels = np.roll(images, -1, axis=0), np.roll(labels, -1, axis=0)
        elif self._previous is None:
            lam, other_images, other_labels = np.ones(self.batch_size), images, labels
        else:
            other_images, other_labels = self._previous
        mixed = lam[:, None, None, None] * images + (1 - lam[:, None, None, None]) * other_images
        mixed_labels = lam[:, None] * labels + (1 - lam[:, None]) * other_labels
        if not self.is_single:
            self._previous = (mixed, mixed_labels)
        return mixed, mixed_labels


class CutMixBatch(RandomTransform):
    """Paste a random box from another sample of the batch into each sample, with probability ``prob``.

    The box covers ``1 - lam`` of the image, ``lam ~ Beta(alpha, alpha)``; labels
    (one-hot) become ``lam' * y + (1 - lam') * y[perm]`` with ``lam'`` the exact
    fraction kept, as float32.

    Arguments:
        image_batch_format: :class:`ImageBatchFormat` ``NHWC`` or ``NCHW``.
        alpha: the Beta distribution's parameter, positive.
        prob: the probability for each sample.
    """

    def __init__(self, image_batch_format: ImageBatchFormat, alpha: float = 1.0, prob: float = 1.0) -> None:
        check_type(image_batch_format, (ImageBatchFormat,), "image_batch_format")
        check_type(alpha, (int, float), "alpha")
        check_type(prob, (int, float), "prob")
        check_positive(alpha, "alpha")
        check_value(prob, 0, 1, "prob")
        self.image_batch_format, self.alpha, self.prob = image_batch_format, float(alpha), float(prob)

    def _apply(self, images: Any, labels: Any, rng: np.random.Generator | None = None) -> tuple[np.ndarray, ...]:
        images, labels = _batch(images, labels, "CutMixBatch", self.image_batch_format)
        nhwc = images if self.image_batch_format == ImageBatchFormat.NHWC else images.transpose(0, 2, 3, 1)
        out, out_labels = nhwc.copy(), labels.astype(np.float32).copy()
        n, h, w = nhwc.shape[:3]
        perm = rng.permutation(n)
        for i in range(n):
            if rng.random() >= self.prob:
                continue
            lam = float(rng.beta(self.alpha, self.alpha))
            cut = math.sqrt(1.0 - lam)
            ch, cw = int(h * cut), int(w * cut)
            cy, cx = int(rng.integers(0, h)), int(rng.integers(0, w))
            y0, y1 = max(cy - ch // 2, 0), min(cy + ch // 2, h)
            x0, x1 = max(cx - cw // 2, 0), min(cx + cw // 2, w)
            out[i, y0:y1, x0:x1] = nhwc[perm[i], y0:y1, x0:x1]
            kept = 1.0 - (y1 - y0) * (x1 - x0) / float(h * w)
            out_labels[i] = kept * labels[i] + (1.0 - kept) * labels[perm[i]]
        if self.image_batch_format == ImageBatchFormat.NCHW:
            out = np.ascontiguousarray(out.transpose(0, 3, 1, 2))
        return out, out_labels


def _gaussian_kernel(size: int, sigma: float) -> np.ndarray:
    if sigma <= 0:
        sigma = 0.3 * ((size - 1) * 0.5 - 1) + 0.8
    x = np.arange(size, dtype=np.float64) - (size - 1) / 2.0
    k = np.exp(-(x ** 2) / (2.0 * sigma ** 2))
    return k / k.sum()


def _blur_axis(arr: np.ndarray, kernel: np.ndarray, axis: int) -> np.ndarray:
    r = len(kernel) // 2
    if r == 0:
        return arr
    widths = [(0, 0)] * arr.ndim
    widths[axis] = (r, r)
    padded = np.pad(arr, widths, mode="reflect" if arr.shape[axis] > 1 else "edge")
    n = arr.shape[axis]
    out = np.zeros(arr.shape, dtype=np.float64)
    for k, weight in enumerate(kernel):
        out += weight * np.take(padded, np.arange(k, k + n), axis=axis)
    return out


class GaussianBlur(Transform):
    """Blur with a Gaussian kernel (borders reflected without repeating the edge, as OpenCV's default).

    Arguments:
        kernel_size: an odd positive int, or (width, height) of odd ints.
        sigma: a number, or (sigma_x, sigma_y); 0 or None derives it from the size as OpenCV does
            (``0.3 * ((k - 1) * 0.5 - 1) + 0.8``).
    """

    def __init__(self, kernel_size: Any, sigma: Any = None) -> None:
        check_type(kernel_size, (int, list, tuple), "kernel_size")
        sizes = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
        if len(sizes) != 2:
            raise TypeError("Kernel size should be a single integer or a list/tuple (kernel_width, kernel_height) "
                            "of length 2.")
        for i, v in enumerate(sizes):
            check_type(v, (int,), f"kernel_size[{i}]")
            check_value(v, 1, FLOAT_MAX_INTEGER, "kernel_size")
            check_odd(v, "kernel_size" if isinstance(kernel_size, int) else f"kernel_size[{i}]")
        if sigma is None:
            sigmas: tuple[float, float] = (0.0, 0.0)
        else:
            check_type(sigma, (int, float, list, tuple), "sigma")
            sigmas = (sigma, sigma) if is_number(sigma) else tuple(sigma)
            if len(sigmas) != 2:
                raise TypeError("Sigma should be a single number or a list/tuple of length 2 for width and height.")
            for v in sigmas:
                check_type(v, (int, float), "sigma")
                check_value(v, 0, FLOAT_MAX_INTEGER, "sigma")
        self.kernel_size, self.sigma = kernel_size, sigma
        self._kx, self._ky = _gaussian_kernel(sizes[0], float(sigmas[0])), _gaussian_kernel(sizes[1], float(sigmas[1]))

    def _apply(self, img: Any, rng: Any = None) -> Any:
        img = numpy_input(img)
        def run(a: np.ndarray) -> np.ndarray:
            out = _blur_axis(_blur_axis(a.astype(np.float64), self._kx, 1), self._ky, 0)
            return _cast_like(out, a)

        return on_array(img, "GaussianBlur", run)


class LinearTransformation(Transform):
    """``(x.flatten() - mean_vector) @ transformation_matrix``, reshaped to the input's shape (e.g. ZCA whitening).

    Arguments:
        transformation_matrix: a (D, D) array, D = C * H * W.
        mean_vector: a (D,) array.
    """

    def __init__(self, transformation_matrix: np.ndarray, mean_vector: np.ndarray) -> None:
        check_type(transformation_matrix, (np.ndarray,), "transformation_matrix")
        check_type(mean_vector, (np.ndarray,), "mean_vector")
        if transformation_matrix.ndim != 2 or transformation_matrix.shape[0] != transformation_matrix.shape[1]:
            raise ValueError(f"transformation_matrix should be a square matrix. Got shape "
                             f"{transformation_matrix.shape} instead.")
        if mean_vector.shape[0] != transformation_matrix.shape[0]:
            raise ValueError(f"mean_vector length {mean_vector.shape[0]} should match either one dimension of the "
                             f"square transformation_matrix {transformation_matrix.shape}.")
        self.transformation_matrix, self.mean_vector = transformation_matrix, mean_vector

    def _apply(self, img: Any, rng: Any = None) -> np.ndarray:
        arr = np.asarray(img)
        if arr.size != self.transformation_matrix.shape[0]:
            raise ValueError(f"transformation_matrix shape {self.transformation_matrix.shape} not compatible with "
                             f"Numpy image shape {arr.shape}.")
        return (np.dot(arr.reshape(1, -1) - self.mean_vector, self.transformation_matrix)).reshape(arr.shape)


class ToPIL(Transform):
    """A numpy (H, W) or (H, W, C) image (uint8, or float in [0, 1] scaled to 255) to a Pillow image."""

    def _apply(self, img: Any, rng: Any = None) -> Any:
        if is_pil(img):
            return img
        arr = to_array(img, "ToPIL")
        if arr.dtype.kind == "f":
            arr = np.clip(np.rint(arr * 255.0), 0, 255).astype(np.uint8)
        elif arr.dtype != np.uint8:
            arr = arr.astype(np.uint8)
        return to_pil(arr, "ToPIL")


class ToNumpy(Transform):
    """A Pillow image (or anything array-like) to a numpy array."""

    def _apply(self, img: Any, rng: Any = None) -> np.ndarray:
        return np.array(img)


class ToType(TypeCast):
    """Cast to ``data_type`` (a mindjax or numpy dtype); the same as ``transforms.TypeCast``."""


class NormalizePad(Transform):
    """:class:`Normalize`, then append a channel of zeros (3 channels become 4), as ``dtype``.

    Arguments:
        mean: one value per channel, in [0, 255].
        std: one value per channel, in (0, 255].
        dtype: ``'float32'`` or ``'float16'``.
        is_hwc: channels last (else channels first).
    """

    def __init__(self, mean: Sequence[float], std: Sequence[float], dtype: str = "float32",
                 is_hwc: bool = True) -> None:
        from mindjax.dataset.vision.transforms import Normalize

        check_type(mean, (list, tuple), "mean")
        check_type(std, (list, tuple), "std")
        for i, (m, s) in enumerate(zip(mean, std)):
            check_value(m, 0, 255, f"mean[{i}]")
            check_value(s, 0, 255, f"std[{i}]", left_open=True)
        check_type(dtype, (str,), "dtype")
        if dtype not in ("float32", "float16"):
            raise ValueError(f"dtype should be 'float32' or 'float16', but got {dtype}.")
        check_type(is_hwc, (bool,), "is_hwc")
        self.mean, self.std, self.dtype, self.is_hwc = mean, std, dtype, is_hwc
        self._normalize = Normalize(mean, std, is_hwc)

    def _apply(self, img: Any, rng: Any = None) -> np.ndarray:
        out = self._normalize._apply(img)
        if out.ndim == 2:
            out = out[..., None] if self.is_hwc else out[None]
        axis = -1 if self.is_hwc else 0
        pad_shape = list(out.shape)
        pad_shape[axis] = 1
        return np.concatenate([out, np.zeros(pad_shape, out.dtype)], axis=axis).astype(self.dtype)
