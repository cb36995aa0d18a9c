"""Vision and general transforms: numpy/Pillow results with MindSpore's semantics."""
import io

import numpy as np
import pytest

import mindjax as ms
import mindjax.dataset as ds
from mindjax.dataset import transforms, vision


def _image(h=4, w=6, c=3):
    return np.arange(h * w * c, dtype=np.uint8).reshape(h, w, c)


def test_rescale_normalize_hwc2chw():
    img = _image()
    np.testing.assert_allclose(vision.Rescale(1 / 255, -0.5)(img), img.astype(np.float32) / 255 - 0.5, rtol=1e-6)
    out = vision.Normalize([1.0, 2.0, 3.0], [2.0, 4.0, 8.0])(img)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, (img - np.array([1, 2, 3])) / np.array([2, 4, 8]), rtol=1e-6)
    chw = vision.HWC2CHW()(img)
    assert chw.shape == (3, 4, 6) and chw[2, 1, 0] == img[1, 0, 2]
    with pytest.raises(ValueError, match="'std' must be positive"):
        vision.Normalize([0.0], [0.0])


def test_resize_and_center_crop_shapes():
    img = _image(8, 12)
    assert vision.Resize((4, 6))(img).shape == (4, 6, 3)
    assert vision.Resize(4)(img).shape == (4, 6, 3)  # shorter side to 4, aspect kept
    assert vision.Resize(4)(img.astype(np.float32)).dtype == np.float32
    crop = vision.CenterCrop(4)(img)
    np.testing.assert_array_equal(crop, img[2:6, 4:8])
    assert vision.CenterCrop((10, 14))(img).shape == (10, 14, 3)


def test_random_crop_and_flip_are_seeded_by_the_pipeline():
    data = ds.NumpySlicesDataset({"img": np.stack([_image(6, 6)] * 8)}, shuffle=False)
    data = data.map([vision.RandomCrop(4, padding=1), vision.RandomHorizontalFlip(0.5)], input_columns="img")
    first = [r[0] for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    second = [r[0] for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    assert all(a.shape == (4, 4, 3) for a in first)
    assert all(np.array_equal(a, b) for a, b in zip(first, second))
    assert len({a.tobytes() for a in first}) > 1
    flip = vision.RandomHorizontalFlip(1.0)(_image())
    np.testing.assert_array_equal(flip, _image()[:, ::-1])


def test_decode_png_bytes():
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (3, 2), (10, 20, 30)).save(buf, format="PNG")
    out = vision.Decode()(np.frombuffer(buf.getvalue(), np.uint8))
    assert out.shape == (2, 3, 3) and out.dtype == np.uint8 and out[0, 0].tolist() == [10, 20, 30]
    with pytest.raises(ValueError, match="For 'Decode', cannot decode"):
        vision.Decode()(np.zeros(10, np.uint8))


def test_typecast_onehot_compose():
    assert transforms.TypeCast(ms.int32)(np.array([1.7])).dtype == np.int32
    hot = transforms.OneHot(4)(np.array([0, 3]))
    np.testing.assert_array_equal(hot, [[1, 0, 0, 0], [0, 0, 0, 1]])
    assert hot.dtype == np.int64
    smooth = transforms.OneHot(4, smoothing_rate=0.2)(np.array(1))
    np.testing.assert_allclose(smooth, [0.05, 0.85, 0.05, 0.05], rtol=1e-6)
    with pytest.raises(ValueError, match=r"labels must be in \[0, 4\)"):
        transforms.OneHot(4)(np.array([4]))
    pipeline = transforms.Compose([vision.Rescale(2.0, 0.0), transforms.TypeCast(np.int16)])
    assert pipeline(np.array([[1, 2]], np.uint8)).tolist() == [[2, 4]]


def test_transform_aliases_exist():
    from mindjax.dataset.transforms import c_transforms
    from mindjax.dataset.vision import c_transforms as vc

    assert vc.Normalize is vision.Normalize and vision.transforms.Resize is vision.Resize
    assert c_transforms.OneHot is transforms.OneHot


_IMG = np.arange(12, dtype=np.uint8).reshape(2, 2, 3)


@pytest.mark.parametrize("mode, first_channel", [
    (vision.Border.CONSTANT, [[0, 0, 0, 0], [0, 0, 3, 0], [0, 6, 9, 0], [0, 0, 0, 0]]),
    (vision.Border.EDGE, [[0, 0, 3, 3], [0, 0, 3, 3], [6, 6, 9, 9], [6, 6, 9, 9]]),
    # REFLECT omits the edge pixel (OpenCV's BORDER_REFLECT_101), SYMMETRIC repeats it (BORDER_REFLECT).
    (vision.Border.REFLECT, [[9, 6, 9, 6], [3, 0, 3, 0], [9, 6, 9, 6], [3, 0, 3, 0]]),
    (vision.Border.SYMMETRIC, [[0, 0, 3, 3], [0, 0, 3, 3], [6, 6, 9, 9], [6, 6, 9, 9]]),
])
def test_pad_modes_follow_mindspore_on_hwc_images(mode, first_channel):
    out = vision.Pad(1, padding_mode=mode)(_IMG)
    assert out.shape == (4, 4, 3) and out.dtype == np.uint8
    np.testing.assert_array_equal(out[..., 0], first_channel)


def test_pad_pair_is_left_right_then_top_bottom_and_four_is_left_top_right_bottom():
    assert vision.Pad([1, 2])(_IMG).shape == (6, 4, 3)
    out = vision.Pad((1, 0, 0, 2), fill_value=(7, 8, 9))(_IMG)
    assert out.shape == (4, 3, 3)
    assert out[0, 0].tolist() == [7, 8, 9] and out[3, 2].tolist() == [7, 8, 9]
    np.testing.assert_array_equal(out[:2, 1:], _IMG)


def test_pad_keeps_grayscale_and_pillow_images():
    from PIL import Image

    gray = vision.Pad(2, fill_value=5)(np.zeros((3, 4), np.uint8))
    assert gray.shape == (7, 8) and gray[0, 0] == 5 and gray[2, 2] == 0
    pil = vision.Pad(1)(Image.fromarray(_IMG))
    assert isinstance(pil, Image.Image) and pil.size == (4, 4)


def test_pad_rejects_bad_arguments():
    with pytest.raises(ValueError, match="For 'Pad', 'padding' values must be non-negative"):
        vision.Pad(-1)
    with pytest.raises(TypeError, match="For 'Pad', 'padding' must be an int or a sequence of 2 or 4 ints"):
        vision.Pad([1, 2, 3])
    with pytest.raises(ValueError, match=r"For 'Pad', 'fill_value' must be in \[0, 255\]"):
        vision.Pad(1, fill_value=256)
    with pytest.raises(TypeError, match="'padding_mode' must be a vision.Border"):
        vision.Pad(1, padding_mode="edge")


def test_fill_keeps_shape_and_dtype():
    out = transforms.Fill(100)(np.array([1, 2, 3], np.int64))
    assert out.dtype == np.int64 and out.tolist() == [100, 100, 100]
    assert transforms.Fill(2.5)(np.zeros((2, 2), np.float32)).tolist() == [[2.5, 2.5], [2.5, 2.5]]
    assert transforms.Fill("x")(np.array(["ab", "c"])).tolist() == ["x", "x"]
    with pytest.raises(TypeError, match="For 'Fill', fill_value 'x' .* cannot fill an array of dtype int64"):
        transforms.Fill("x")(np.array([1]))
    with pytest.raises(TypeError, match="'fill_value' must be a str, bytes, int, float or bool, got list"):
        transforms.Fill([1])
    data = ds.NumpySlicesDataset({"c": [[0], [1]]}, shuffle=False).map(transforms.Fill(3), input_columns="c")
    assert [r[0].tolist() for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)] == [[3], [3]]
