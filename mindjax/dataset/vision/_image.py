"""Conversions between numpy images and Pillow images for the vision transforms.

A transform takes an (H, W) or (H, W, C) numpy array or a Pillow image; it returns
numpy for numpy, and for a Pillow image what MindSpore returns (``numpy_input``
marks the ops whose MindSpore kernel gives numpy).
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from mindjax.dataset.vision.utils import Inter, is_pil


def to_array(img: Any, who: str, dtype_uint8: bool = False) -> np.ndarray:
    """A numpy HW or HWC image; with ``dtype_uint8`` the image must be uint8."""
    arr = np.asarray(img)
    if arr.ndim not in (2, 3):
        raise ValueError(f"For '{who}', expected an image of shape <H, W> or <H, W, C>, got {arr.shape}")
    if dtype_uint8 and arr.dtype != np.uint8:
        raise TypeError(f"For '{who}', the image must be uint8, got {arr.dtype}")
    return arr


def to_pil(arr: np.ndarray, who: str) -> Any:
    """A Pillow image of a uint8 (H, W), (H, W, 1), (H, W, 3) or (H, W, 4) array."""
    from PIL import Image

    if arr.dtype != np.uint8:
        raise TypeError(f"For '{who}', the image must be uint8, got {arr.dtype}")
    if arr.ndim == 3 and arr.shape[2] == 1:
        return Image.fromarray(arr[..., 0])
    if arr.ndim == 2 or arr.shape[2] in (3, 4):
        return Image.fromarray(arr)
    raise ValueError(f"For '{who}', the image must have 1, 3 or 4 channels, got shape {arr.shape}")


def from_pil(pil: Any, like: np.ndarray) -> np.ndarray:
    """The array of ``pil``, with a trailing channel axis when ``like`` had one channel."""
    out = np.asarray(pil)
    if like.ndim == 3 and out.ndim == 2:
        out = out[..., None]
    return np.ascontiguousarray(out)


def on_pil(img: Any, who: str, fn: Callable[[Any], Any]) -> Any:
    """Run ``fn`` on ``img`` as a Pillow image; return the kind ``img`` was."""
    if is_pil(img):
        return fn(img)
    arr = to_array(img, who, dtype_uint8=True)
    return from_pil(fn(to_pil(arr, who)), arr)


def on_array(img: Any, who: str, fn: Callable[[np.ndarray], np.ndarray], uint8: bool = False) -> Any:
    """Run ``fn`` on ``img`` as a numpy array; return the kind ``img`` was."""
    if is_pil(img):
        from PIL import Image

        arr = np.asarray(img)
        out = fn(arr)
        return Image.fromarray(out[..., 0] if out.ndim == 3 and out.shape[2] == 1 else out)
    return fn(to_array(img, who, dtype_uint8=uint8))


def pil_resample(inter: Inter, who: str, allowed: tuple[Inter, ...] = (Inter.NEAREST, Inter.BILINEAR,
                                                                         Inter.BICUBIC)) -> int:
    """Pillow's resampling filter for ``inter`` (only those in ``allowed``)."""
    from PIL import Image

    if not isinstance(inter, Inter):
        raise TypeError(f"Argument interpolation with value {inter} is not of type [{Inter}], but got "
                        f"{type(inter)}.")
    if inter not in allowed:
        raise ValueError(f"For '{who}', interpolation {inter.name} is not supported; use one of "
                         f"{[i.name for i in allowed]}")
    return {Inter.NEAREST: Image.NEAREST, Inter.BILINEAR: Image.BILINEAR, Inter.BICUBIC: Image.BICUBIC,
            Inter.AREA: Image.BOX, Inter.PILCUBIC: Image.BICUBIC, Inter.ANTIALIAS: Image.LANCZOS}[inter]


def numpy_input(img: Any) -> Any:
    """A Pillow image as its numpy array (for the transforms whose MindSpore kernel returns numpy); else ``img``."""
    return np.asarray(img) if is_pil(img) else img
