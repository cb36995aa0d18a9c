"""Image file helpers of dataset.vision: read/write/encode and image info."""
import os

import numpy as np
import pytest
from PIL import Image

from mindjax.dataset import vision


def test_image_size_and_channels():
    assert vision.get_image_num_channels(np.zeros((4, 5), np.uint8)) == 1
    assert vision.get_image_num_channels(np.zeros((4, 5, 3), np.uint8)) == 3
    assert vision.get_image_size(np.zeros((4, 5, 3), np.uint8)) == [4, 5]
    pil = Image.new("RGBA", (7, 3))
    assert vision.get_image_num_channels(pil) == 4 and vision.get_image_size(pil) == [3, 7]
    with pytest.raises(RuntimeError, match="at least two dimensions, but got: 1"):
        vision.get_image_num_channels(np.zeros(4))
    with pytest.raises(TypeError, match="Input image is not of type"):
        vision.get_image_size([1, 2])


def test_png_round_trip_and_read_modes(tmp_path):
    img = np.random.default_rng(0).integers(0, 256, (5, 6, 3), dtype=np.uint8)
    path = str(tmp_path / "a.png")
    vision.write_png(path, img)
    np.testing.assert_array_equal(vision.read_image(path), img)
    grey = vision.read_image(path, vision.ImageReadMode.GRAYSCALE)
    assert grey.shape == (5, 6, 1)
    np.testing.assert_array_equal(grey[..., 0], np.asarray(Image.fromarray(img).convert("L")))
    raw = vision.read_file(path)
    assert raw.dtype == np.uint8 and raw.ndim == 1 and raw.tobytes() == open(path, "rb").read()
    np.testing.assert_array_equal(vision.Decode()(vision.encode_png(img)), img)
    copy = str(tmp_path / "b.png")
    vision.write_file(copy, raw)
    assert open(copy, "rb").read() == raw.tobytes()
    Image.fromarray(img[..., 0]).save(str(tmp_path / "g.png"))
    assert vision.read_image(str(tmp_path / "g.png"), vision.ImageReadMode.COLOR).shape == (5, 6, 3)


def test_jpeg_encoding_quality(tmp_path):
    img = np.full((16, 16, 3), 120, np.uint8)
    data = vision.encode_jpeg(img, quality=90)
    assert data[:2].tolist() == [0xFF, 0xD8]
    np.testing.assert_allclose(vision.Decode()(data).astype(int), 120, atol=2)
    path = str(tmp_path / "x.jpg")
    vision.write_jpeg(path, img)
    assert os.path.getsize(path) > 0


def test_io_errors():
    with pytest.raises(TypeError, match="Input filename is not of type"):
        vision.read_file(3)
    with pytest.raises(RuntimeError, match="does not exist"):
        vision.read_image("/nonexistent/file.png")
    with pytest.raises(TypeError, match="Input mode is not of type"):
        vision.read_image("x.png", 1)
    with pytest.raises(RuntimeError, match="should be UINT8"):
        vision.encode_png(np.zeros((2, 2, 3), np.float32))
    with pytest.raises(RuntimeError, match=r"should be in range of \[1, 100\]"):
        vision.encode_jpeg(np.zeros((2, 2, 3), np.uint8), quality=0)
    with pytest.raises(RuntimeError, match="invalid dimensions"):
        vision.encode_png(np.zeros((2, 2, 4), np.uint8))


def test_video_names_raise_naming_the_alternative():
    for call in (lambda: vision.read_video("a.mp4"), lambda: vision.read_video_timestamps("a.mp4"),
                 lambda: vision.VideoDecoder("a.mp4"), vision.DecodeVideo):
        with pytest.raises(NotImplementedError, match="GeneratorDataset"):
            call()
