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
