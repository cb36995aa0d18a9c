"""Image transforms on numpy arrays (HWC uint8 or float) with Pillow for decoding and resizing.

Names, arguments and defaults follow ``mindspore.dataset.vision``.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from mindjax.dataset.image_folder import decode_image
from mindjax.dataset.transforms.base import RandomTransform, Transform
from mindjax.dataset.vision.utils import Border, Inter

__all__ = ["Decode", "Resize", "CenterCrop", "RandomCrop", "RandomHorizontalFlip",
           "RandomVerticalFlip", "Normalize", "Rescale", "HWC2CHW", "ToTensor", "Pad"]


def _pil_filter(inter: Inter) -> int:
    from PIL import Image

    return {Inter.NEAREST: Image.NEAREST, Inter.BILINEAR: Image.BILINEAR, Inter.BICUBIC: Image.BICUBIC,
            Inter.AREA: Image.BOX, Inter.PILCUBIC: Image.BICUBIC, Inter.ANTIALIAS: Image.LANCZOS}[Inter(inter)]


def _image(img: Any, who: str) -> np.ndarray:
    """A numpy HW or HWC image (Pillow images are converted)."""
    arr = np.asarray(img)
    if arr.ndim not in (2, 3):
        raise ValueError(f"For '{who}', expected an image of shape (H, W) or (H, W, C), got {arr.shape}")
    return arr


def _size_pair(size: Any, who: str) -> tuple[int, int]:
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool) and size > 0:
        return int(size), int(size)
    if isinstance(size, (list, tuple)) and len(size) == 2 and all(
            isinstance(s, (int, np.integer)) and s > 0 for s in size):
        return int(size[0]), int(size[1])
    raise ValueError(f"For '{who}', 'size' must be a positive int or a (height, width) pair, got {size!r}")


def _resize(img: np.ndarray, height: int, width: int, inter: Inter) -> np.ndarray:
    from PIL import Image

    resample = _pil_filter(inter)
    if img.dtype == np.uint8 and (img.ndim == 2 or img.shape[2] in (1, 3, 4)):
        squeeze = img.ndim == 3 and img.shape[2] == 1
        src = img[..., 0] if squeeze else img
        out = np.asarray(Image.fromarray(src).resize((width, height), resample))
        return out[..., None] if squeeze else out
    channels = [img] if img.ndim == 2 else [img[..., c] for c in range(img.shape[2])]
    resized = [np.asarray(Image.fromarray(c.astype(np.float32), mode="F").resize((width, height), resample))
               for c in channels]
    out = resized[0] if img.ndim == 2 else np.stack(resized, axis=-1)
    return out.astype(img.dtype) if img.dtype.kind == "f" else np.clip(np.rint(out), 0, None).astype(img.dtype)


class Decode(Transform):
    """Decode JPEG/PNG/... bytes to an RGB (H, W, 3) uint8 array (a Pillow image when ``to_pil``)."""

    def __init__(self, to_pil: bool = False) -> None:
        self.to_pil = bool(to_pil)

    def _apply(self, data: Any, rng: Any = None) -> Any:
        if not isinstance(data, (bytes, np.ndarray)):
            raise TypeError(f"For 'Decode', expected encoded bytes as a uint8 array, got {type(data).__name__}")
        raw = np.frombuffer(data, dtype=np.uint8) if isinstance(data, bytes) else data
        if raw.ndim != 1:
            raise ValueError(f"For 'Decode', expected a 1-D array of encoded bytes, got shape {raw.shape}")
        image = decode_image(raw, "the input")
        if self.to_pil:
            from PIL import Image

            return Image.fromarray(image)
        return image


class Resize(Transform):
    """Resize to ``size``: an int sets the shorter side (keeping the aspect ratio), a pair is (height, width)."""

    def __init__(self, size: Any, interpolation: Inter = Inter.LINEAR) -> None:
        if isinstance(size, (int, np.integer)) and not isinstance(size, bool):
            if size <= 0:
                raise ValueError(f"For 'Resize', 'size' must be positive, got {size}")
        else:
            _size_pair(size, "Resize")
        self.size, self.interpolation = size, Inter(interpolation)

    def _apply(self, img: Any, rng: Any = None) -> np.ndarray:
        img = _image(img, "Resize")
        h, w = img.shape[:2]
        if isinstance(self.size, (int, np.integer)):
            s = int(self.size)
            height, width = (s, int(s * w / h)) if h <= w else (int(s * h / w), s)
        else:
            height, width = _size_pair(self.size, "Resize")
        return _resize(img, height, width, self.interpolation)


def _pad(img: np.ndarray, top: int, bottom: int, left: int, right: int, fill: Any, mode: Border) -> np.ndarray:
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (img.ndim - 2)
    if Border(mode) == Border.CONSTANT:
        if img.ndim == 3 and isinstance(fill, (tuple, list)):
            return np.stack([np.pad(img[..., c], widths[:2], constant_values=fill[c]) for c in range(img.shape[2])],
                            axis=-1)
        return np.pad(img, widths, constant_values=fill)
    return np.pad(img, widths, mode=Border(mode).value)


class CenterCrop(Transform):
    """Crop the centre to ``size`` (zero-padding an image smaller than that)."""

    def __init__(self, size: Any) -> None:
        self.size = _size_pair(size, "CenterCrop")

    def _apply(self, img: Any, rng: Any = None) -> np.ndarray:
        img = _image(img, "CenterCrop")
        ch, cw = self.size
        h, w = img.shape[:2]
        if h < ch or w < cw:
            ph, pw = max(ch - h, 0), max(cw - w, 0)
            img = _pad(img, ph // 2, ph - ph // 2, pw // 2, pw - pw // 2, 0, Border.CONSTANT)
            h, w = img.shape[:2]
        top = int(round((h - ch) / 2.0))
        left = int(round((w - cw) / 2.0))
        return np.ascontiguousarray(img[top:top + ch, left:left + cw])


def _padding4(padding: Any) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) from an int, a pair (left/right, top/bottom) or a 4-sequence."""
    if isinstance(padding, (int, np.integer)):
        p = int(padding)
        return p, p, p, p
    if isinstance(padding, (list, tuple)) and len(padding) == 2:
        return int(padding[0]), int(padding[1]), int(padding[0]), int(padding[1])
    if isinstance(padding, (list, tuple)) and len(padding) == 4:
        return tuple(int(p) for p in padding)  # type: ignore[return-value]
    raise ValueError(f"For 'RandomCrop', 'padding' must be an int or a sequence of 2 or 4 ints, got {padding!r}")


class RandomCrop(RandomTransform):
    """Crop ``size`` at a random place, after optional padding.

    Arguments:
        size: an int or (height, width).
        padding: padding added first: an int, (left/right, top/bottom) or (left, top, right, bottom).
        pad_if_needed: pad an image smaller than ``size``.
        fill_value: the constant for ``Border.CONSTANT`` (an int or an RGB triple).
        padding_mode: a :class:`Border`.
    """

    def __init__(self, size: Any, padding: Any = None, pad_if_needed: bool = False, fill_value: Any = 0,
                 padding_mode: Border = Border.CONSTANT) -> None:
        self.size = _size_pair(size, "RandomCrop")
        self.padding = None if padding is None else _padding4(padding)
        self.pad_if_needed, self.fill_value, self.padding_mode = bool(pad_if_needed), fill_value, Border(padding_mode)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> np.ndarray:
        img = _image(img, "RandomCrop")
        if self.padding is not None:
            left, top, right, bottom = self.padding
            img = _pad(img, top, bottom, left, right, self.fill_value, self.padding_mode)
        ch, cw = self.size
        h, w = img.shape[:2]
        if self.pad_if_needed and (h < ch or w < cw):
            ph, pw = max(ch - h, 0), max(cw - w, 0)
            img = _pad(img, ph // 2, ph - ph // 2, pw // 2, pw - pw // 2, self.fill_value, self.padding_mode)
            h, w = img.shape[:2]
        if h < ch or w < cw:
            raise ValueError(f"For 'RandomCrop', crop size {self.size} is larger than the image {(h, w)}; "
                             "set pad_if_needed=True or padding")
        top = int(rng.integers(0, h - ch + 1))
        left = int(rng.integers(0, w - cw + 1))
        return np.ascontiguousarray(img[top:top + ch, left:left + cw])


class RandomHorizontalFlip(RandomTransform):
    """Mirror left-right with probability ``prob``."""

    def __init__(self, prob: float = 0.5) -> None:
        if not isinstance(prob, (int, float)) or not 0.0 <= prob <= 1.0:
            raise ValueError(f"For 'RandomHorizontalFlip', 'prob' must be in [0, 1], got {prob!r}")
        self.prob = float(prob)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> np.ndarray:
        img = _image(img, "RandomHorizontalFlip")
        return np.ascontiguousarray(img[:, ::-1]) if rng.random() < self.prob else img


class RandomVerticalFlip(RandomTransform):
    """Mirror top-bottom with probability ``prob``."""

    def __init__(self, prob: float = 0.5) -> None:
        if not isinstance(prob, (int, float)) or not 0.0 <= prob <= 1.0:
            raise ValueError(f"For 'RandomVerticalFlip', 'prob' must be in [0, 1], got {prob!r}")
        self.prob = float(prob)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> np.ndarray:
        img = _image(img, "RandomVerticalFlip")
        return np.ascontiguousarray(img[::-1]) if rng.random() < self.prob else img


class Normalize(Transform):
    """``(image - mean) / std`` per channel, as float32.

    Arguments:
        mean: one value per channel (pixel scale, e.g. 0-255 for uint8 images).
        std: one positive value per channel.
        is_hwc: channels last (else channels first).
    """

    def __init__(self, mean: Sequence[float], std: Sequence[float], is_hwc: bool = True) -> None:
        mean_a = np.asarray(mean, dtype=np.float32).reshape(-1)
        std_a = np.asarray(std, dtype=np.float32).reshape(-1)
        if mean_a.size != std_a.size or mean_a.size == 0:
            raise ValueError(f"For 'Normalize', 'mean' and 'std' must have the same non-zero length, "
                             f"got {list(mean_a)} and {list(std_a)}")
        if np.any(std_a <= 0):
            raise ValueError(f"For 'Normalize', 'std' must be positive, got {list(std_a)}")
        self.mean, self.std, self.is_hwc = list(map(float, mean_a)), list(map(float, std_a)), bool(is_hwc)
        self._mean, self._inv_std = mean_a, (1.0 / std_a).astype(np.float32)

    def _apply(self, img: Any, rng: Any = None) -> np.ndarray:
        img = _image(img, "Normalize").astype(np.float32)
        channels = 1 if img.ndim == 2 else img.shape[-1 if self.is_hwc else 0]
        if self._mean.size not in (1, channels):
            raise ValueError(f"For 'Normalize', mean has {self._mean.size} values but the image has "
                             f"{channels} channels")
        shape = (-1,) if self.is_hwc or img.ndim == 2 else (-1, 1, 1)
        return (img - self._mean.reshape(shape)) * self._inv_std.reshape(shape)

    def _batchable(self) -> bool:
        return True

    def _apply_batch(self, images: np.ndarray) -> np.ndarray:
        images = np.asarray(images)
        if images.ndim not in (3, 4):
            raise ValueError(f"For 'Normalize', expected a stack of images, got {images.shape}")
        channels = 1 if images.ndim == 3 else images.shape[-1 if self.is_hwc else 1]
        if self._mean.size not in (1, channels):
            raise ValueError(f"For 'Normalize', mean has {self._mean.size} values but the images have "
                             f"{channels} channels")
        shape = (-1,) if self.is_hwc or images.ndim == 3 else (-1, 1, 1)
        return (images.astype(np.float32) - self._mean.reshape(shape)) * self._inv_std.reshape(shape)


class Rescale(Transform):
    """``image * rescale + shift``, as float32."""

    def __init__(self, rescale: float, shift: float) -> None:
        self.rescale, self.shift = float(rescale), float(shift)

    def _apply(self, img: Any, rng: Any = None) -> np.ndarray:
        return np.asarray(img).astype(np.float32) * np.float32(self.rescale) + np.float32(self.shift)

    def _batchable(self) -> bool:
        return True

    def _apply_batch(self, images: np.ndarray) -> np.ndarray:
        return self._apply(images)


class HWC2CHW(Transform):
    """(H, W, C) to (C, H, W); an (H, W) image becomes (1, H, W)."""

    def _apply(self, img: Any, rng: Any = None) -> np.ndarray:
        img = _image(img, "HWC2CHW")
        if img.ndim == 2:
            return img[None]
        return np.ascontiguousarray(img.transpose(2, 0, 1))

    def _batchable(self) -> bool:
        return True

    def _apply_batch(self, images: np.ndarray) -> np.ndarray:
        images = np.asarray(images)
        if images.ndim == 3:
            return images[:, None]
        if images.ndim != 4:
            raise ValueError(f"For 'HWC2CHW', expected a stack of images, got {images.shape}")
        return np.ascontiguousarray(images.transpose(0, 3, 1, 2))


class ToTensor(Transform):
    """HWC image (uint8 or a Pillow image) to CHW float32 in [0, 1]."""

    def __init__(self, output_type: Any = np.float32) -> None:
        self.output_type = np.dtype(output_type)

    def _apply(self, img: Any, rng: Any = None) -> np.ndarray:
        arr = _image(img, "ToTensor")
        scale = 255.0 if arr.dtype == np.uint8 else 1.0
        if arr.ndim == 2:
            arr = arr[..., None]
        return (arr.transpose(2, 0, 1).astype(np.float32) / scale).astype(self.output_type)

    def _batchable(self) -> bool:
        return True

    def _apply_batch(self, images: np.ndarray) -> np.ndarray:
        arr = np.asarray(images)
        if arr.ndim not in (3, 4):
            raise ValueError(f"For 'ToTensor', expected a stack of images, got {arr.shape}")
        scale = 255.0 if arr.dtype == np.uint8 else 1.0
        if arr.ndim == 3:
            arr = arr[..., None]
        return (arr.transpose(0, 3, 1, 2).astype(np.float32) / scale).astype(self.output_type)


def _pad_arg(padding: Any, who: str) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) from MindSpore's ``padding``, checked: non-negative ints."""
    def is_int(v: Any) -> bool:
        return isinstance(v, (int, np.integer)) and not isinstance(v, bool)

    if is_int(padding):
        values = [int(padding)] * 4
    elif isinstance(padding, (list, tuple)) and len(padding) in (2, 4) and all(is_int(p) for p in padding):
        values = [int(p) for p in padding] * (2 if len(padding) == 2 else 1)
    else:
        raise TypeError(f"For '{who}', 'padding' must be an int or a sequence of 2 or 4 ints, got {padding!r}")
    if any(v < 0 for v in values):
        raise ValueError(f"For '{who}', 'padding' values must be non-negative, got {padding!r}")
    left, top, right, bottom = values
    return left, top, right, bottom


def _fill_arg(fill_value: Any, who: str) -> int | tuple[int, int, int]:
    def is_int(v: Any) -> bool:
        return isinstance(v, (int, np.integer)) and not isinstance(v, bool)

    if is_int(fill_value):
        values = [int(fill_value)]
    elif isinstance(fill_value, tuple) and len(fill_value) == 3 and all(is_int(v) for v in fill_value):
        values = [int(v) for v in fill_value]
    else:
        raise TypeError(f"For '{who}', 'fill_value' must be an int or a 3-tuple of ints, got {fill_value!r}")
    if any(not 0 <= v <= 255 for v in values):
        raise ValueError(f"For '{who}', 'fill_value' must be in [0, 255], got {fill_value!r}")
    return values[0] if len(values) == 1 else (values[0], values[1], values[2])


class Pad(Transform):
    """Pad the borders of an (H, W) or (H, W, C) image, as ``mindspore.dataset.vision.Pad``.

    Arguments:
        padding: pixels per border: an int (all four), a pair (left and right,
            top and bottom), or (left, top, right, bottom); non-negative.
        fill_value: for ``Border.CONSTANT``: an int for every channel, or an
            (R, G, B) triple; in [0, 255].
        padding_mode: ``Border.CONSTANT`` (the fill value), ``Border.EDGE`` (repeat
            the edge pixel), ``Border.REFLECT`` (mirror without the edge pixel) or
            ``Border.SYMMETRIC`` (mirror with it).

    Returns:
        The padded image, of the input's dtype (a Pillow image for a Pillow input).

    Example:
        >>> import numpy as np
        >>> from mindjax.dataset import vision
        >>> vision.Pad([1, 2])(np.zeros((3, 3, 3), np.uint8)).shape
        (7, 5, 3)
    """

    def __init__(self, padding: Any, fill_value: Any = 0, padding_mode: Border = Border.CONSTANT) -> None:
        self.padding = _pad_arg(padding, "Pad")
        self.fill_value = _fill_arg(fill_value, "Pad")
        if not isinstance(padding_mode, Border):
            raise TypeError(f"For 'Pad', 'padding_mode' must be a vision.Border, got {padding_mode!r}")
        self.padding_mode = padding_mode

    def _apply(self, img: Any, rng: Any = None) -> Any:
        pil = type(img).__module__.startswith("PIL.")
        arr = _image(img, "Pad")
        fill = self.fill_value
        if isinstance(fill, tuple) and (arr.ndim == 2 or arr.shape[2] != 3):
            channels = 1 if arr.ndim == 2 else arr.shape[2]
            raise ValueError(f"For 'Pad', an (R, G, B) fill_value needs a 3-channel image, got {channels} "
                             f"channel(s) in shape {arr.shape}")
        left, top, right, bottom = self.padding
        out = _pad(arr, top, bottom, left, right, fill, self.padding_mode).astype(arr.dtype, copy=False)
        if pil:
            from PIL import Image

            return Image.fromarray(out)
        return out


_SIBLINGS = ("color", "geometry", "augment", "auto_augment", "bbox", "utils")


def __getattr__(name: str) -> Any:
    # MindSpore defines every vision transform in ``vision.transforms``; the newer ones live in
    # sibling modules here (which import this one), so they are looked up on first use.
    import importlib

    for sibling in _SIBLINGS:
        module = importlib.import_module(f"mindjax.dataset.vision.{sibling}")
        if name in getattr(module, "__all__", ()):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
