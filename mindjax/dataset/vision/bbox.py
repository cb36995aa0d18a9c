"""Transforms of an image with its bounding boxes (``...WithBBox``, ``BoundingBoxAugment``).

A bounding-box column is an (N, 4 or more) float array whose first four values are
``[x_min, y_min, width, height]`` in pixels (further values, such as a class, pass
through). Each transform takes ``(image, bboxes)`` and returns both. Boxes that
leave a crop entirely are dropped; the others are clipped to it.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from mindjax.dataset._validate import check_prob, check_size, check_type, check_value
from mindjax.dataset.transforms.base import RandomTransform, Transform, call_transform
from mindjax.dataset.vision._image import to_array
from mindjax.dataset.vision.geometry import _check_inter, _random_crop_box, _scale_ratio
from mindjax.dataset.vision.transforms import RandomCrop, Resize, _pad, _resize
from mindjax.dataset.vision.utils import Inter

__all__ = ["RandomHorizontalFlipWithBBox", "RandomVerticalFlipWithBBox", "ResizeWithBBox", "RandomResizeWithBBox",
           "RandomCropWithBBox", "RandomResizedCropWithBBox", "BoundingBoxAugment"]


def _boxes(bboxes: Any, image: np.ndarray, who: str) -> np.ndarray:
    boxes = np.array(bboxes, dtype=np.float32 if np.asarray(bboxes).dtype.kind != "f" else None, copy=True)
    if boxes.ndim != 2 or boxes.shape[1] < 4:
        raise ValueError(f"For '{who}', bounding boxes must be of shape (N, 4+) as [x, y, width, height, ...], "
                         f"got {boxes.shape}")
    h, w = image.shape[:2]
    if len(boxes) and ((boxes[:, :4] < 0).any() or (boxes[:, 0] + boxes[:, 2] > w + 1e-3).any()
                       or (boxes[:, 1] + boxes[:, 3] > h + 1e-3).any()):
        raise ValueError(f"For '{who}', a bounding box lies outside the image of size {(h, w)}: {boxes[:, :4]}")
    return boxes


def _crop_boxes(boxes: np.ndarray, top: int, left: int, height: int, width: int) -> np.ndarray:
    x0 = np.clip(boxes[:, 0] - left, 0, width)
    y0 = np.clip(boxes[:, 1] - top, 0, height)
    x1 = np.clip(boxes[:, 0] + boxes[:, 2] - left, 0, width)
    y1 = np.clip(boxes[:, 1] + boxes[:, 3] - top, 0, height)
    keep = (x1 > x0) & (y1 > y0)
    out = boxes[keep].copy()
    out[:, 0], out[:, 1], out[:, 2], out[:, 3] = x0[keep], y0[keep], (x1 - x0)[keep], (y1 - y0)[keep]
    return out


def _scale_boxes(boxes: np.ndarray, sy: float, sx: float) -> np.ndarray:
    out = boxes.copy()
    out[:, [0, 2]] *= sx
    out[:, [1, 3]] *= sy
    return out


class RandomHorizontalFlipWithBBox(RandomTransform):
    """Mirror the image left-right with probability ``prob``, and its boxes with it."""

    def __init__(self, prob: float = 0.5) -> None:
        self.prob = check_prob(prob)

    def _apply(self, img: Any, bboxes: Any, rng: np.random.Generator | None = None) -> tuple[np.ndarray, ...]:
        image = to_array(img, "RandomHorizontalFlipWithBBox")
        boxes = _boxes(bboxes, image, "RandomHorizontalFlipWithBBox")
        if rng.random() >= self.prob:
            return image, boxes
        boxes[:, 0] = image.shape[1] - boxes[:, 0] - boxes[:, 2]
        return np.ascontiguousarray(image[:, ::-1]), boxes


class RandomVerticalFlipWithBBox(RandomTransform):
    """Mirror the image top-bottom with probability ``prob``, and its boxes with it."""

    def __init__(self, prob: float = 0.5) -> None:
        self.prob = check_prob(prob)

    def _apply(self, img: Any, bboxes: Any, rng: np.random.Generator | None = None) -> tuple[np.ndarray, ...]:
        image = to_array(img, "RandomVerticalFlipWithBBox")
        boxes = _boxes(bboxes, image, "RandomVerticalFlipWithBBox")
        if rng.random() >= self.prob:
            return image, boxes
        boxes[:, 1] = image.shape[0] - boxes[:, 1] - boxes[:, 3]
        return np.ascontiguousarray(image[::-1]), boxes


def _resize_with_boxes(image: np.ndarray, boxes: np.ndarray, size: Any, inter: Inter) -> tuple[np.ndarray, ...]:
    out = Resize(size, inter)._apply(image)
    return out, _scale_boxes(boxes, out.shape[0] / image.shape[0], out.shape[1] / image.shape[1])


class ResizeWithBBox(Transform):
    """:class:`Resize` the image and scale its boxes by the same factors."""

    def __init__(self, size: Any, interpolation: Inter = Inter.BILINEAR) -> None:
        Resize(size, interpolation)  # checks the arguments
        self.size, self.interpolation = size, _check_inter(interpolation)

    def _apply(self, img: Any, bboxes: Any, rng: Any = None) -> tuple[np.ndarray, ...]:
        image = to_array(img, "ResizeWithBBox")
        return _resize_with_boxes(image, _boxes(bboxes, image, "ResizeWithBBox"), self.size, self.interpolation)


class RandomResizeWithBBox(RandomTransform):
    """:class:`ResizeWithBBox` with an interpolation picked at random (nearest, bilinear, bicubic, area)."""

    def __init__(self, size: Any) -> None:
        Resize(size)
        self.size = size

    def _apply(self, img: Any, bboxes: Any, rng: np.random.Generator | None = None) -> tuple[np.ndarray, ...]:
        image = to_array(img, "RandomResizeWithBBox")
        inter = (Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC, Inter.AREA)[int(rng.integers(4))]
        return _resize_with_boxes(image, _boxes(bboxes, image, "RandomResizeWithBBox"), self.size, inter)


class RandomCropWithBBox(RandomCrop):
    """:class:`RandomCrop` (same arguments) of the image, with its boxes shifted, clipped or dropped."""

    def _apply(self, img: Any, bboxes: Any, rng: np.random.Generator | None = None) -> tuple[np.ndarray, ...]:
        image = to_array(img, "RandomCropWithBBox")
        boxes = _boxes(bboxes, image, "RandomCropWithBBox")
        if self.padding is not None:
            left, top, right, bottom = self.padding
            image = _pad(image, top, bottom, left, right, self.fill_value, self.padding_mode)
            boxes[:, 0] += left
            boxes[:, 1] += top
        ch, cw = self.size
        h, w = image.shape[:2]
        if self.pad_if_needed and (h < ch or w < cw):
            ph, pw = max(ch - h, 0), max(cw - w, 0)
            image = _pad(image, ph // 2, ph - ph // 2, pw // 2, pw - pw // 2, self.fill_value, self.padding_mode)
            boxes[:, 0] += pw // 2
            boxes[:, 1] += ph // 2
            h, w = image.shape[:2]
        if h < ch or w < cw:
            raise ValueError(f"For 'RandomCropWithBBox', crop size {self.size} is larger than the image {(h, w)}; "
                             "set pad_if_needed=True or padding")
        top, left = int(rng.integers(0, h - ch + 1)), int(rng.integers(0, w - cw + 1))
        return np.ascontiguousarray(image[top:top + ch, left:left + cw]), _crop_boxes(boxes, top, left, ch, cw)


class RandomResizedCropWithBBox(RandomTransform):
    """:class:`RandomResizedCrop` (same arguments) of the image, with its boxes cropped and scaled."""

    def __init__(self, size: Any, scale: Sequence[float] = (0.08, 1.0), ratio: Sequence[float] = (3. / 4., 4. / 3.),
                 interpolation: Inter = Inter.BILINEAR, max_attempts: int = 10) -> None:
        self.size = check_size(size)
        self.scale, self.ratio, self.max_attempts = _scale_ratio(scale, ratio, max_attempts)
        self.interpolation = _check_inter(interpolation)

    def _apply(self, img: Any, bboxes: Any, rng: np.random.Generator | None = None) -> tuple[np.ndarray, ...]:
        image = to_array(img, "RandomResizedCropWithBBox")
        boxes = _boxes(bboxes, image, "RandomResizedCropWithBBox")
        top, left, ch, cw = _random_crop_box(image.shape[0], image.shape[1], self.scale, self.ratio,
                                             self.max_attempts, rng)
        out = _resize(image[top:top + ch, left:left + cw], *self.size, self.interpolation)
        return out, _scale_boxes(_crop_boxes(boxes, top, left, ch, cw), self.size[0] / ch, self.size[1] / cw)


class BoundingBoxAugment(RandomTransform):
    """Apply ``transform`` to the image inside each box, chosen with probability ``ratio``; boxes unchanged.

    Arguments:
        transform: an image transform; its output is resized back to the box if its size changed.
        ratio: the fraction of boxes to augment, in [0, 1].
    """

    def __init__(self, transform: Any, ratio: float = 0.3) -> None:
        if not callable(transform):
            raise TypeError(f"For 'BoundingBoxAugment', 'transform' must be callable, got {type(transform).__name__}")
        check_type(ratio, (int, float), "ratio")
        check_value(ratio, 0.0, 1.0, "ratio")
        self.transform, self.ratio = transform, float(ratio)

    def _apply(self, img: Any, bboxes: Any, rng: np.random.Generator | None = None) -> tuple[np.ndarray, ...]:
        image = to_array(img, "BoundingBoxAugment").copy()
        boxes = _boxes(bboxes, image, "BoundingBoxAugment")
        count = int(len(boxes) * self.ratio)
        for k in rng.permutation(len(boxes))[:count]:
            x, y, w, h = (int(v) for v in boxes[k, :4])
            if w <= 0 or h <= 0:
                continue
            patch = np.asarray(call_transform(self.transform, (image[y:y + h, x:x + w].copy(),), rng))
            if patch.shape[:2] != (h, w):
                patch = _resize(patch, h, w, Inter.BILINEAR)
            image[y:y + h, x:x + w] = patch.reshape(image[y:y + h, x:x + w].shape).astype(image.dtype)
        return image, boxes


