"""Geometric transforms of dataset.vision against numpy slicing and Pillow warps."""
import io
import math

import numpy as np
import pytest
from PIL import Image

import mindjax.dataset as ds
from mindjax.dataset import vision


def _rgb(h=12, w=10, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


def test_crop_flips_and_resized_crop_by_slicing():
    img = _rgb()
    np.testing.assert_array_equal(vision.Crop((1, 2), (4, 5))(img), img[1:5, 2:7])
    np.testing.assert_array_equal(vision.Crop((0, 0), 3)(img), img[:3, :3])
    np.testing.assert_array_equal(vision.HorizontalFlip()(img), img[:, ::-1])
    np.testing.assert_array_equal(vision.VerticalFlip()(img), img[::-1])
    out = vision.ResizedCrop(1, 2, 6, 5, (8, 8))(img)
    want = np.asarray(Image.fromarray(img[1:7, 2:7]).resize((8, 8), Image.BILINEAR))
    np.testing.assert_array_equal(out, want)
    # a Pillow input comes back as numpy, as MindSpore's C++ kernels return it
    pil = vision.Crop((1, 2), (4, 5))(Image.fromarray(img))
    assert isinstance(pil, np.ndarray) and pil.shape == (4, 5, 3)
    with pytest.raises(ValueError, match="exceeds the image"):
        vision.Crop((10, 0), (4, 4))(img)
    with pytest.raises(ValueError, match=r"Input size\[0\] is not within the required interval of \[1, 16777216\]"):
        vision.Crop((0, 0), (0, 4))
    with pytest.raises(TypeError, match=r"Coordinates should be a list/tuple \(y, x\) of length 2"):
        vision.Crop((0, 0, 0), 2)


def test_random_resized_crop_is_a_resized_sub_window_and_seeded():
    img = np.arange(20 * 16, dtype=np.uint8).reshape(20, 16, 1).repeat(3, axis=2)
    ds.config.set_seed(0)
    a = [vision.RandomResizedCrop(6, interpolation=vision.Inter.NEAREST)(img) for _ in range(4)]
    ds.config.set_seed(0)
    b = [vision.RandomResizedCrop(6, interpolation=vision.Inter.NEAREST)(img) for _ in range(4)]
    for x, y in zip(a, b):
        assert x.shape == (6, 6, 3)
        np.testing.assert_array_equal(x, y)
        assert set(np.unique(x)) <= set(np.unique(img))
    # scale (1, 1) and ratio of the image: the whole image, resized
    full = vision.RandomResizedCrop((10, 8), scale=(1.0, 1.0), ratio=(0.8, 0.8))(img)
    np.testing.assert_array_equal(full, np.asarray(Image.fromarray(img).resize((8, 10), Image.BILINEAR)))
    with pytest.raises(ValueError, match=r"scale should be in \(min,max\) format"):
        vision.RandomResizedCrop(4, scale=(1.0, 0.5))
    with pytest.raises(TypeError, match="Argument interpolation with value 2 is not of type"):
        vision.RandomResizedCrop(4, interpolation=2)


def test_random_crop_decode_resize_decodes_then_crops():
    img = _rgb(16, 16)
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, format="PNG")
    raw = np.frombuffer(buf.getvalue(), np.uint8)
    out = vision.RandomCropDecodeResize((16, 16), scale=(1.0, 1.0), ratio=(1.0, 1.0))(raw)
    np.testing.assert_array_equal(out, img)
    with pytest.raises(TypeError, match="encoded image bytes"):
        vision.RandomCropDecodeResize(4)(img)


def test_rotate_equals_pillow_rotate_and_keeps_shape():
    img = _rgb()
    want = np.asarray(Image.fromarray(img).rotate(30.0, Image.NEAREST, False, None, fillcolor=(1, 2, 3)))
    np.testing.assert_array_equal(vision.Rotate(30.0, fill_value=(1, 2, 3))(img), want)
    np.testing.assert_array_equal(vision.Rotate(90.0)(np.arange(16, dtype=np.uint8).reshape(4, 4)),
                                  np.rot90(np.arange(16, dtype=np.uint8).reshape(4, 4)))
    assert vision.Rotate(45.0, expand=True)(img).shape[0] > 12
    f = vision.Rotate(180.0)(img.astype(np.float32))
    assert f.dtype == np.float32
    np.testing.assert_array_equal(f, img[::-1, ::-1].astype(np.float32))
    ds.config.set_seed(2)
    a = vision.RandomRotation(40)(img)
    ds.config.set_seed(2)
    np.testing.assert_array_equal(vision.RandomRotation(40)(img), a)
    np.testing.assert_array_equal(vision.RandomRotation((90, 90))(img[:10]), np.rot90(img[:10]))
    with pytest.raises(ValueError, match=r"degrees should be in \(min,max\) format"):
        vision.RandomRotation((10, -10))
    with pytest.raises(ValueError, match=r"Input fill_value is not within the required interval of \[0, 255\]"):
        vision.Rotate(10, fill_value=300)


def test_affine_translation_and_identity():
    img = np.zeros((5, 8, 3), np.uint8)
    img[:, 0] = 255
    shifted = vision.Affine(0.0, (0.25, 0.0), 1.0, 0.0)(img)
    want = np.zeros_like(img)
    want[:, 2] = 255  # 0.25 of the width = 2 pixels right
    np.testing.assert_array_equal(shifted, want)
    rgb = _rgb()
    np.testing.assert_array_equal(vision.Affine(0.0, (0.0, 0.0), 1.0, 0.0)(rgb), rgb)
    # a positive angle turns clockwise about the centre (as MindSpore's Affine)
    sq = _rgb(6, 6)
    np.testing.assert_array_equal(vision.Affine(90.0, (0, 0), 1.0, 0.0)(sq), np.rot90(sq, -1))
    np.testing.assert_array_equal(vision.RandomAffine((0, 0))(rgb), rgb)
    ds.config.set_seed(4)
    a = vision.RandomAffine(20, translate=(0.1, 0.1), scale=(0.9, 1.1), shear=5)(rgb)
    ds.config.set_seed(4)
    np.testing.assert_array_equal(vision.RandomAffine(20, translate=(0.1, 0.1), scale=(0.9, 1.1), shear=5)(rgb), a)
    with pytest.raises(ValueError, match=r"Input translate at 0 is not within the required interval of \[-1.0, 1.0\]"):
        vision.RandomAffine(0, translate=(2, 0))
    with pytest.raises(ValueError, match=r"Input scale\[1\] must be equal to or greater than scale\[0\]"):
        vision.RandomAffine(0, scale=(2, 1))


def test_perspective_identity_and_pillow_coefficients():
    img = _rgb()
    corners = [[0, 0], [9, 0], [9, 11], [0, 11]]
    np.testing.assert_array_equal(vision.Perspective(corners, corners, vision.Inter.NEAREST)(img), img)
    moved = [[1, 1], [8, 0], [9, 10], [0, 11]]
    out = vision.Perspective(corners, moved)(img)
    # the coefficients map each output corner back onto its input corner
    rows, rhs = [], []
    for (xo, yo), (xs, ys) in zip(moved, corners):
        rows += [[xo, yo, 1, 0, 0, 0, -xs * xo, -xs * yo], [0, 0, 0, xo, yo, 1, -ys * xo, -ys * yo]]
        rhs += [xs, ys]
    coeffs = np.linalg.solve(np.array(rows, float), np.array(rhs, float))
    want = np.asarray(Image.fromarray(img).transform((10, 12), Image.PERSPECTIVE, tuple(coeffs), Image.BILINEAR))
    # away from the border (where rounding of the coefficients decides in or out)
    np.testing.assert_array_equal(out[2:-2, 2:-2], want[2:-2, 2:-2])
    np.testing.assert_array_equal(vision.RandomPerspective(prob=0.0)(img), img)
    assert vision.RandomPerspective(0.5, prob=1.0)(img).shape == img.shape
    with pytest.raises(ValueError, match=r"Input distortion_scale is not within the required interval"):
        vision.RandomPerspective(1.5)


def test_five_and_ten_crop_positions():
    img = _rgb(6, 8)
    crops = vision.FiveCrop((2, 3))(img)
    assert len(crops) == 5
    for got, want in zip(crops, [img[:2, :3], img[:2, 5:], img[4:, :3], img[4:, 5:], img[2:4, 2:5]]):
        np.testing.assert_array_equal(got, want)
    ten = vision.TenCrop(2, use_vertical_flip=True)(Image.fromarray(img))
    assert len(ten) == 10 and all(isinstance(c, Image.Image) for c in ten)
    np.testing.assert_array_equal(np.asarray(ten[5]), img[::-1][:2, :2])
    with pytest.raises(ValueError, match="bigger than the image"):
        vision.FiveCrop(7)(img)


def test_pad_to_size_centres_or_uses_offset():
    img = np.ones((2, 3, 3), np.uint8)
    out = vision.PadToSize((4, 7), fill_value=9)(img)
    want = np.full((4, 7, 3), 9, np.uint8)
    want[1:3, 2:5] = 1
    np.testing.assert_array_equal(out, want)
    out = vision.PadToSize(5, offset=(0, 2))(img)
    assert out.shape == (5, 5, 3) and out[0, 2:5].all() and not out[2:].any()
    edge = vision.PadToSize((2, 5), offset=(0, 0), padding_mode=vision.Border.EDGE)(np.arange(6, dtype=np.uint8)
                                                                                      .reshape(2, 3))
    np.testing.assert_array_equal(edge, [[0, 1, 2, 2, 2], [3, 4, 5, 5, 5]])
    with pytest.raises(ValueError, match="no less than the image size"):
        vision.PadToSize(1)(img)


def test_slice_patches_pad_and_drop():
    img = np.arange(5 * 4, dtype=np.uint8).reshape(5, 4)
    patches = vision.SlicePatches(2, 2)(img)
    assert len(patches) == 4 and all(p.shape == (3, 2) for p in patches)
    np.testing.assert_array_equal(patches[0], img[:3, :2])
    np.testing.assert_array_equal(patches[3], [[14, 15], [18, 19], [0, 0]])
    dropped = vision.SlicePatches(2, 2, vision.SliceMode.DROP)(img)
    np.testing.assert_array_equal(dropped[3], img[2:4, 2:4])
    with pytest.raises(ValueError, match=r"Input num_height is not within the required interval of \[1, 2147483647\]"):
        vision.SlicePatches(0)


def test_random_resize_gives_the_size_with_some_interpolation():
    img = _rgb()
    ds.config.set_seed(1)
    outs = [vision.RandomResize((6, 5))(img) for _ in range(3)]
    assert all(o.shape == (6, 5, 3) for o in outs)


def test_inter_and_border_values_match_mindspore():
    assert [(m.name, m.value) for m in vision.Inter] == [("NEAREST", 0), ("ANTIALIAS", 1), ("BILINEAR", 2),
                                                         ("BICUBIC", 3), ("AREA", 4), ("PILCUBIC", 5)]
    assert vision.Inter.LINEAR is vision.Inter.BILINEAR and vision.Inter.CUBIC is vision.Inter.BICUBIC
    assert vision.ImageBatchFormat.NCHW == 1 and vision.SliceMode.DROP == 1
    assert vision.AutoAugmentPolicy.CIFAR10.value == "cifar10"
    assert vision.ConvertMode.COLOR_RGBA2GRAY == 11 and vision.ImageReadMode.COLOR == 2
    assert math.isclose(1.0, 1.0)
