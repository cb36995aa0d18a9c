"""Enums and image file helpers of ``mindspore.dataset.vision`` (``vision.utils``).

Images are numpy arrays (H, W) or (H, W, C), or Pillow images; encoded data is
a 1-D uint8 array. Decoding and encoding go through Pillow.
"""
from __future__ import annotations

import enum
import io
import os
from typing import Any

import numpy as np

__all__ = ["Inter", "Border", "ImageBatchFormat", "AutoAugmentPolicy", "ConvertMode", "ImageReadMode", "SliceMode",
           "get_image_num_channels", "get_image_size", "read_file", "read_image", "write_file", "encode_jpeg",
           "encode_png", "write_jpeg", "write_png", "read_video", "read_video_timestamps", "VideoDecoder",
           "DecodeVideo"]


class Inter(enum.IntEnum):
    """Interpolation modes (values as MindSpore's; ``LINEAR``/``CUBIC`` are aliases)."""

    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = 2
    LINEAR = 2
    BICUBIC = 3
    CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(str, enum.Enum):
    """Padding modes."""

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class ImageBatchFormat(enum.IntEnum):
    """Layout of an image batch: ``NHWC`` or ``NCHW``."""

    NHWC = 0
    NCHW = 1


class AutoAugmentPolicy(str, enum.Enum):
    """The learned policies of :class:`AutoAugment`."""

    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


class ConvertMode(enum.IntEnum):
    """Colour conversions of :class:`ConvertColor` (OpenCV's names)."""

    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = 0
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = 1
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = 2
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = 3
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = 4
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = 5
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = 8
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = 9
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11


class ImageReadMode(enum.IntEnum):
    """How :func:`read_image` decodes: as stored, as one grey channel, or as RGB."""

    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


class SliceMode(enum.IntEnum):
    """What :class:`SlicePatches` does with a remainder: pad it or drop it."""

    PAD = 0
    DROP = 1


def is_pil(img: Any) -> bool:
    """Whether ``img`` is a Pillow image."""
    return type(img).__module__.startswith("PIL.") and hasattr(img, "getbands")


def get_image_num_channels(image: Any) -> int:
    """The number of channels of an image (an (H, W) array has 1).

    Arguments:
        image: a numpy array (H, W) or (..., H, W, C), or a Pillow image.

    Returns:
        int, the channel count.
    """
    if isinstance(image, np.ndarray):
        if image.ndim < 2:
            raise RuntimeError(f"GetImageNumChannels: invalid parameter, image should have at least two dimensions, "
                               f"but got: {image.ndim}")
        return 1 if image.ndim == 2 else int(image.shape[-1])
    if is_pil(image):
        return len(image.getbands())
    raise TypeError(f"Input image is not of type {np.ndarray} or PIL.Image.Image, but got: {type(image)}.")


def get_image_size(image: Any) -> list[int]:
    """The size of an image as ``[height, width]``.

    Arguments:
        image: a numpy array (H, W) or (H, W, C), or a Pillow image.
    """
    if isinstance(image, np.ndarray):
        if image.ndim < 2:
            raise RuntimeError(f"GetImageSize: invalid parameter, image should have at least two dimensions, "
                               f"but got: {image.ndim}")
        return [int(image.shape[0]), int(image.shape[1])]
    if is_pil(image):
        return [image.size[1], image.size[0]]
    raise TypeError(f"Input image is not of type {np.ndarray} or PIL.Image.Image, but got: {type(image)}.")


def _check_filename(filename: Any) -> None:
    if not isinstance(filename, str):
        raise TypeError(f"Input filename is not of type {str}, but got: {type(filename)}.")


def read_file(filename: str) -> np.ndarray:
    """The bytes of a file as a 1-D uint8 array."""
    _check_filename(filename)
    if not os.path.isfile(filename):
        raise RuntimeError(f"ReadFile: the file does not exist or is not a regular file: {filename}")
    with open(filename, "rb") as f:
        return np.frombuffer(f.read(), dtype=np.uint8).copy()


def read_image(filename: str, mode: ImageReadMode = ImageReadMode.UNCHANGED) -> np.ndarray:
    """Decode a JPEG/PNG/BMP/TIFF file to an (H, W, C) uint8 array.

    Arguments:
        filename: the image file.
        mode: ``UNCHANGED`` keeps its channels, ``GRAYSCALE`` gives one, ``COLOR`` gives RGB.
    """
    _check_filename(filename)
    if not isinstance(mode, ImageReadMode):
        raise TypeError(f"Input mode is not of type {ImageReadMode}, but got: {type(mode)}.")
    if not os.path.isfile(filename):
        raise RuntimeError(f"ReadImage: the file does not exist or is not a regular file: {filename}")
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(filename) as img:
            img.load()
            if mode == ImageReadMode.GRAYSCALE:
                img = img.convert("L")
            elif mode == ImageReadMode.COLOR or img.mode not in ("L", "RGB", "RGBA", "LA"):
                img = img.convert("RGB")
            arr = np.asarray(img)
    except UnidentifiedImageError as err:
        raise RuntimeError(f"ReadImage: {filename} is not a supported image file (JPEG, PNG, BMP, TIFF)") from err
    return arr[..., None] if arr.ndim == 2 else arr


def write_file(filename: str, data: Any) -> None:
    """Write a 1-D uint8 array (or Tensor) to ``filename``."""
    _check_filename(filename)
    arr = _encodable(data, "data")
    if arr.dtype != np.uint8 or arr.ndim != 1:
        raise RuntimeError(f"WriteFile: the data should be a one-dimensional uint8 array, got {arr.dtype} of "
                           f"shape {arr.shape}")
    with open(filename, "wb") as f:
        f.write(arr.tobytes())


def _encodable(image: Any, name: str) -> np.ndarray:
    if isinstance(image, np.ndarray):
        return image
    if hasattr(image, "asnumpy"):
        return np.asarray(image.asnumpy())
    raise TypeError(f"Input {name} is not of type {np.ndarray} or mindspore.Tensor, but got: {type(image)}.")


def _encode(image: Any, fmt: str, who: str, **options: Any) -> np.ndarray:
    arr = _encodable(image, "image")
    if arr.dtype != np.uint8:
        raise RuntimeError(f"{who}: The type of the image data should be UINT8, but got {arr.dtype}.")
    if not (arr.ndim == 2 or (arr.ndim == 3 and arr.shape[2] in (1, 3))):
        raise RuntimeError(f"{who}: The image has invalid dimensions. It should have two or three dimensions "
                           f"(<H, W> or <H, W, 1> or <H, W, 3>), but got shape {arr.shape}.")
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(arr[..., 0] if arr.ndim == 3 and arr.shape[2] == 1 else arr).save(buf, format=fmt, **options)
    return np.frombuffer(buf.getvalue(), dtype=np.uint8).copy()


def encode_jpeg(image: Any, quality: int = 75) -> np.ndarray:
    """Encode an (H, W), (H, W, 1) or (H, W, 3) uint8 image as JPEG; returns 1-D uint8 data.

    Arguments:
        image: the image (numpy array or Tensor).
        quality: JPEG quality in [1, 100].
    """
    if not isinstance(quality, int) or isinstance(quality, bool):
        raise TypeError(f"Input quality is not of type {int}, but got: {type(quality)}.")
    if not 1 <= quality <= 100:
        raise RuntimeError(f"EncodeJpeg: Invalid quality {quality}, should be in range of [1, 100].")
    return _encode(image, "JPEG", "EncodeJpeg", quality=quality)


def encode_png(image: Any, compression_level: int = 6) -> np.ndarray:
    """Encode an (H, W), (H, W, 1) or (H, W, 3) uint8 image as PNG; returns 1-D uint8 data.

    Arguments:
        image: the image (numpy array or Tensor).
        compression_level: zlib level in [0, 9].
    """
    if not isinstance(compression_level, int) or isinstance(compression_level, bool):
        raise TypeError(f"Input compression_level is not of type {int}, but got: {type(compression_level)}.")
    if not 0 <= compression_level <= 9:
        raise RuntimeError(f"EncodePng: Invalid compression_level {compression_level}, should be in range of "
                           f"[0, 9].")
    return _encode(image, "PNG", "EncodePng", compress_level=compression_level)


def write_jpeg(filename: str, image: Any, quality: int = 75) -> None:
    """Encode ``image`` as JPEG (see :func:`encode_jpeg`) and write it to ``filename``."""
    _check_filename(filename)
    write_file(filename, encode_jpeg(image, quality))


def write_png(filename: str, image: Any, compression_level: int = 6) -> None:
    """Encode ``image`` as PNG (see :func:`encode_png`) and write it to ``filename``."""
    _check_filename(filename)
    write_file(filename, encode_png(image, compression_level))


_NO_VIDEO = ("video decoding is not supported in MindJAX (MindSpore decodes with FFmpeg in C++); decode the frames "
             "with PyAV or OpenCV in a Python source and feed them with GeneratorDataset")


def read_video(filename: str, start_pts: float = 0, end_pts: float | None = None, pts_unit: str = "pts") -> Any:
    """MindSpore's video reader; not supported.

    Raises:
        NotImplementedError: always, naming the alternative (PyAV/OpenCV frames in a ``GeneratorDataset``).
    """
    raise NotImplementedError(f"For 'read_video', {_NO_VIDEO}")


def read_video_timestamps(filename: str, pts_unit: str = "pts") -> Any:
    """MindSpore's video timestamp reader; not supported (see :func:`read_video`)."""
    raise NotImplementedError(f"For 'read_video_timestamps', {_NO_VIDEO}")


class VideoDecoder:
    """MindSpore's Ascend video decoder; not supported (see :func:`read_video`)."""

    def __init__(self, source: str, device: str = "cpu") -> None:
        raise NotImplementedError(f"For 'VideoDecoder', {_NO_VIDEO}")


class DecodeVideo:
    """MindSpore's video decoding transform; not supported (see :func:`read_video`)."""

    def __init__(self) -> None:
        raise NotImplementedError(f"For 'DecodeVideo', {_NO_VIDEO}")
