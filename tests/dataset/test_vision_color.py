"""Colour transforms of dataset.vision against Pillow and numpy hand computations."""
import colorsys

import numpy as np
import pytest
from PIL import Image, ImageEnhance, ImageOps

import mindjax.dataset as ds
from mindjax.dataset import vision


def _rgb(h=6, w=7, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


@pytest.mark.parametrize("op, enhancer, factor", [
    (vision.AdjustBrightness, ImageEnhance.Brightness, 1.3),
    (vision.AdjustContrast, ImageEnhance.Contrast, 0.6),
    (vision.AdjustSaturation, ImageEnhance.Color, 0.4),
    (vision.AdjustSharpness, ImageEnhance.Sharpness, 2.0),
])
def test_adjust_ops_equal_pillow_enhance(op, enhancer, factor):
    img = _rgb()
    want = np.asarray(enhancer(Image.fromarray(img)).enhance(factor))
    out = op(factor)(img)
    assert isinstance(out, np.ndarray) and out.dtype == np.uint8 and out.shape == img.shape
    np.testing.assert_array_equal(out, want)
    pil_out = op(factor)(Image.fromarray(img))
    # MindSpore returns a Pillow image for these, except AdjustSharpness (its C++ kernel returns numpy)
    assert isinstance(pil_out, np.ndarray if op is vision.AdjustSharpness else Image.Image)
    np.testing.assert_array_equal(np.asarray(pil_out), want)


def test_adjust_brightness_by_hand():
    img = np.array([[[10, 100, 200]]], dtype=np.uint8)
    np.testing.assert_array_equal(vision.AdjustBrightness(1.5)(img), [[[15, 150, 255]]])
    np.testing.assert_array_equal(vision.AdjustBrightness(0.0)(img), [[[0, 0, 0]]])


def test_adjust_gamma_is_the_power_law_on_a_lookup_table():
    img = _rgb()
    want = np.clip(np.rint(255 * 1.2 * (img / 255.0) ** 0.5), 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(vision.AdjustGamma(0.5, 1.2)(img), want)
    f = np.linspace(0, 1, 6, dtype=np.float32).reshape(2, 3, 1)
    np.testing.assert_allclose(vision.AdjustGamma(2.0)(f), f ** 2, rtol=1e-6)


def test_adjust_hue_shifts_the_hsv_hue_channel():
    img = _rgb()
    hsv = np.asarray(Image.fromarray(img).convert("HSV")).copy()
    hsv[..., 0] = (hsv[..., 0].astype(int) + int(0.25 * 255)) % 256
    want = np.asarray(Image.fromarray(hsv, "HSV").convert("RGB"))
    np.testing.assert_array_equal(vision.AdjustHue(0.25)(img), want)
    np.testing.assert_array_equal(vision.AdjustHue(0.0)(img), img)


def test_histogram_ops_equal_pillow_imageops():
    img = _rgb(8, 9)
    np.testing.assert_array_equal(vision.AutoContrast()(img), np.asarray(ImageOps.autocontrast(Image.fromarray(img))))
    np.testing.assert_array_equal(vision.AutoContrast(10.0, [0, 255])(img), np.asarray(
        ImageOps.autocontrast(Image.fromarray(img), 10.0, [0, 255])))
    np.testing.assert_array_equal(vision.Equalize()(img), np.asarray(ImageOps.equalize(Image.fromarray(img))))


def test_pixel_value_ops_by_hand():
    img = np.arange(0, 250, 10, dtype=np.uint8).reshape(5, 5, 1).repeat(3, axis=2)
    np.testing.assert_array_equal(vision.Invert()(img), 255 - img)
    np.testing.assert_array_equal(vision.Posterize(3)(img), img & 0b11100000)
    np.testing.assert_array_equal(vision.Posterize(0)(img), np.zeros_like(img))
    np.testing.assert_array_equal(vision.Solarize(100)(img), np.where(img >= 100, 255 - img, img))
    np.testing.assert_array_equal(vision.Solarize((50, 100))(img),
                                  np.where((img >= 50) & (img <= 100), 255 - img, img))


def test_grayscale_uses_the_itu_r_601_weights():
    img = _rgb()
    grey = vision.Grayscale()(img)
    want = np.asarray(Image.fromarray(img).convert("L"))
    assert grey.shape == (6, 7, 1)
    np.testing.assert_array_equal(grey[..., 0], want)
    three = vision.Grayscale(3)(Image.fromarray(img))
    assert three.mode == "RGB"
    np.testing.assert_array_equal(np.asarray(three)[..., 1], want)
    with pytest.raises(ValueError, match="should be either 1 or 3. Got 2"):
        vision.Grayscale(2)


def test_rgb_hsv_round_trip_and_colorsys_values():
    rgb = np.random.default_rng(1).random((3, 4, 5)).astype(np.float32)  # CHW
    hsv = vision.RgbToHsv()(rgb)
    assert hsv.shape == rgb.shape and hsv.dtype == np.float32
    np.testing.assert_allclose(hsv[:, 2, 3], colorsys.rgb_to_hsv(*rgb[:, 2, 3]), rtol=1e-5)
    np.testing.assert_allclose(vision.HsvToRgb()(hsv), rgb, atol=1e-5)
    np.testing.assert_allclose(vision.RgbToHsv(is_hwc=True)(rgb.transpose(1, 2, 0)), hsv.transpose(1, 2, 0))
    with pytest.raises(TypeError, match="3 channels"):
        vision.RgbToHsv()(np.zeros((4, 4, 4), np.float32))


def test_convert_color_channel_orders_and_grey():
    img = _rgb()
    bgr = vision.ConvertColor(vision.ConvertMode.COLOR_RGB2BGR)(img)
    np.testing.assert_array_equal(bgr, img[..., ::-1])
    rgba = vision.ConvertColor(vision.ConvertMode.COLOR_RGB2RGBA)(img)
    assert rgba.shape == (6, 7, 4) and (rgba[..., 3] == 255).all()
    grey = vision.ConvertColor(vision.ConvertMode.COLOR_RGB2GRAY)(img)
    want = np.rint(img @ np.array([0.299, 0.587, 0.114]))
    assert grey.shape == (6, 7)
    np.testing.assert_array_equal(grey, want)
    with pytest.raises(ValueError, match="needs an image with 4 channel"):
        vision.ConvertColor(vision.ConvertMode.COLOR_RGBA2RGB)(img)


def test_random_color_ops_are_seeded_and_stay_in_their_range():
    img = _rgb()
    ds.config.set_seed(5)
    a = [vision.RandomColorAdjust(0.4, 0.4, 0.4, 0.1)(img) for _ in range(3)]
    ds.config.set_seed(5)
    b = [vision.RandomColorAdjust(0.4, 0.4, 0.4, 0.1)(img) for _ in range(3)]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a[0], a[1])
    # degenerate ranges: the identity
    np.testing.assert_array_equal(vision.RandomColorAdjust()(img), img)
    np.testing.assert_array_equal(vision.RandomPosterize((3, 3))(img), img & 0b11100000)
    np.testing.assert_array_equal(vision.RandomSolarize((0, 0))(img), np.where(img == 0, 255, img))
    np.testing.assert_array_equal(vision.RandomInvert(1.0)(img), 255 - img)
    np.testing.assert_array_equal(vision.RandomInvert(0.0)(img), img)
    np.testing.assert_array_equal(vision.RandomEqualize(1.0)(img), vision.Equalize()(img))
    np.testing.assert_array_equal(vision.RandomAutoContrast(prob=1.0)(img), vision.AutoContrast()(img))
    np.testing.assert_array_equal(vision.RandomAdjustSharpness(2.0, 1.0)(img), vision.AdjustSharpness(2.0)(img))
    np.testing.assert_array_equal(vision.RandomColor((0.5, 0.5))(img), vision.AdjustSaturation(0.5)(img))
    np.testing.assert_array_equal(vision.RandomSharpness((0.5, 0.5))(img), vision.AdjustSharpness(0.5)(img))
    grey = vision.RandomGrayscale(1.0)(img)
    assert grey.shape == (6, 7, 3) and (grey[..., 0] == grey[..., 2]).all()


def test_random_lighting_adds_one_pca_shift_per_channel():
    img = np.full((4, 4, 3), 128, np.uint8)
    ds.config.set_seed(3)
    out = vision.RandomLighting(0.1)(img).astype(int)
    shift = out[0, 0] - 128
    assert (out == out[0, 0]).all() and np.abs(shift).max() > 0
    np.testing.assert_array_equal(vision.RandomLighting(0.0)(img), img)


def test_random_transforms_in_a_pipeline_follow_the_dataset_seed():
    images = np.stack([_rgb(seed=k) for k in range(4)])

    def run(seed):
        ds.config.set_seed(seed)
        data = ds.NumpySlicesDataset({"img": images}, shuffle=False).map(
            [vision.RandomColorAdjust(0.5, 0.5, 0.5, 0.2), vision.RandomPosterize((2, 8))], input_columns="img")
        return [row[0] for row in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]

    for x, y in zip(run(1), run(1)):
        np.testing.assert_array_equal(x, y)
    assert any(not np.array_equal(x, y) for x, y in zip(run(1), run(2)))


def test_colour_argument_errors_use_mindspore_wording():
    with pytest.raises(ValueError, match=r"Input brightness_factor is not within the required interval of "
                                         r"\[0, 16777216\]\."):
        vision.AdjustBrightness(-1)
    with pytest.raises(ValueError, match=r"Input hue_factor is not within the required interval of \[-0.5, 0.5\]"):
        vision.AdjustHue(0.7)
    with pytest.raises(TypeError, match="Argument contrast_factor with value a is not of type"):
        vision.AdjustContrast("a")
    with pytest.raises(ValueError, match=r"Input bits is not within the required interval of \[0, 8\]"):
        vision.Posterize(9)
    with pytest.raises(ValueError, match=r"threshold must be in order of \(min, max\)"):
        vision.Solarize((100, 50))
    with pytest.raises(ValueError, match=r"Input cutoff is not within the required interval of \[0, 50\)"):
        vision.AutoContrast(50)
    with pytest.raises(ValueError, match="The input value of brightness cannot be negative"):
        vision.RandomColorAdjust(brightness=-0.1)
    with pytest.raises(ValueError, match=r"Input prob is not within the required interval of \[0.0, 1.0\]"):
        vision.RandomInvert(1.5)
    with pytest.raises(TypeError, match="must be uint8"):
        vision.Invert()(np.zeros((2, 2, 3), np.float32))
