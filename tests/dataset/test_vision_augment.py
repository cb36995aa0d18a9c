"""Erasing, mixing, blurring, conversion and policy transforms of dataset.vision."""
import numpy as np
import pytest
from PIL import Image, ImageOps

import mindjax as ms
import mindjax.dataset as ds
from mindjax.dataset import transforms, vision


def _rgb(h=8, w=8, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


def test_erase_sets_the_region_per_channel():
    img = np.full((6, 6, 3), 9, np.uint8)
    out = vision.Erase(1, 2, 2, 3, (1, 2, 3))(img)
    want = img.copy()
    want[1:3, 2:5] = [1, 2, 3]
    np.testing.assert_array_equal(out, want)
    assert (img == 9).all()  # not in place by default
    vision.Erase(0, 0, 1, 1, 0, inplace=True)(img)
    assert img[0, 0, 0] == 0
    with pytest.raises(ValueError, match=r"Input value\[0\] is not within the required interval of \[0, 255\]"):
        vision.Erase(0, 0, 1, 1, 300)


def test_cutout_blanks_num_patches_squares_inside_the_image():
    img = np.full((10, 10, 3), 7, np.uint8)
    ds.config.set_seed(0)
    out = vision.CutOut(3, num_patches=1)(img)
    zero = (out == 0).all(-1)
    assert zero.sum() == 9
    rows, cols = np.nonzero(zero)
    assert rows.max() - rows.min() == 2 and cols.max() - cols.min() == 2
    chw = vision.CutOut(4, num_patches=2, is_hwc=False)(img.transpose(2, 0, 1))
    assert chw.shape == (3, 10, 10) and 16 <= (chw[0] == 0).sum() <= 32
    ds.config.set_seed(0)
    np.testing.assert_array_equal(vision.CutOut(3)(img), out)
    with pytest.raises(ValueError, match=r"Input length is not within the required interval of \[1, 16777216\]"):
        vision.CutOut(0)


def test_random_erasing_on_chw_arrays():
    img = np.ones((3, 10, 10), np.float32)
    np.testing.assert_array_equal(vision.RandomErasing(prob=0.0)(img), img)
    ds.config.set_seed(1)
    out = vision.RandomErasing(prob=1.0, scale=(0.1, 0.2), value=(2, 3, 4))(img)
    erased = out[0] != 1
    assert 0 < erased.sum() < 100
    assert set(np.unique(out[1][erased])) == {3.0}
    rand = vision.RandomErasing(prob=1.0, value="random")(img)
    assert rand.shape == img.shape and (rand != 1).any()
    with pytest.raises(ValueError, match="string 'random'"):
        vision.RandomErasing(value="noise")


def test_mixup_batch_mixes_images_and_one_hot_labels_with_one_lambda():
    images = (np.arange(4)[:, None, None, None] * 50 + np.zeros((4, 2, 2, 3))).astype(np.uint8)
    labels = np.eye(4, dtype=np.int32)
    ds.config.set_seed(3)
    mixed, mixed_labels = vision.MixUpBatch(1.0)(images, labels)
    assert mixed.dtype == np.uint8 and mixed_labels.dtype == np.float32
    lams = set()
    for i in range(4):
        others = [j for j in np.flatnonzero(mixed_labels[i]) if j != i]
        j = others[0] if others else i  # the partner row of the permutation
        lam = mixed_labels[i, i] if others else 1.0
        if others:
            lams.add(round(float(lam), 5))
        want = lam * images[i].astype(float) + (1 - lam) * images[j].astype(float)
        np.testing.assert_array_equal(mixed[i], np.rint(want))
    assert len(lams) <= 1  # one lambda per batch
    np.testing.assert_allclose(mixed_labels.sum(axis=1), 1.0, rtol=1e-6)
    with pytest.raises(ValueError, match="apply transforms.OneHot first"):
        vision.MixUpBatch()(images, np.arange(4))
    with pytest.raises(ValueError, match="Input alpha must be greater than 0"):
        vision.MixUpBatch(0.0)


def test_cutmix_batch_label_weights_are_the_pasted_area():
    images = (np.arange(4)[:, None, None, None] * 50 + np.zeros((4, 8, 8, 3))).astype(np.uint8)
    labels = np.eye(4, dtype=np.float32)
    ds.config.set_seed(0)
    out, out_labels = vision.CutMixBatch(vision.ImageBatchFormat.NHWC)(images, labels)
    for i in range(4):
        kept = (out[i, ..., 0] == 50 * i).mean()
        assert out_labels[i, i] == pytest.approx(kept) or kept == 1.0
    nchw, _ = vision.CutMixBatch(vision.ImageBatchFormat.NCHW, prob=0.0)(images.transpose(0, 3, 1, 2), labels)
    np.testing.assert_array_equal(nchw, images.transpose(0, 3, 1, 2))
    with pytest.raises(TypeError, match="Argument image_batch_format"):
        vision.CutMixBatch("NHWC")


def test_gaussian_blur_is_the_separable_kernel_with_reflect_101_borders():
    img = (np.arange(25, dtype=np.uint8).reshape(5, 5, 1) * 10)
    sigma = 0.3 * ((3 - 1) * 0.5 - 1) + 0.8  # OpenCV's default for a 3-tap kernel
    k = np.exp(-np.array([-1.0, 0.0, 1.0]) ** 2 / (2 * sigma ** 2))
    k /= k.sum()
    padded = np.pad(img[..., 0].astype(float), 1, mode="reflect")
    want = sum(k[a] * k[b] * padded[a:a + 5, b:b + 5] for a in range(3) for b in range(3))
    np.testing.assert_array_equal(vision.GaussianBlur(3)(img)[..., 0], np.rint(want))
    # MindSpore's result for this input (C++ kernel, OpenCV) is the same
    np.testing.assert_array_equal(vision.GaussianBlur(3)(img)[0, :, 0], [29, 34, 44, 54, 59])
    f = vision.GaussianBlur((3, 5), (1.0, 2.0))(img.astype(np.float32)[..., 0])
    assert f.dtype == np.float32 and f.shape == (5, 5)
    with pytest.raises(ValueError, match="Input kernel_size is not an odd value"):
        vision.GaussianBlur(4)


def test_linear_transformation_flattens_subtracts_and_multiplies():
    x = np.arange(12, dtype=np.float32).reshape(3, 2, 2)
    mat = np.random.default_rng(0).random((12, 12)).astype(np.float32)
    mean = np.full((12,), 1.5, np.float32)
    out = vision.LinearTransformation(mat, mean)(x)
    np.testing.assert_allclose(out, ((x.reshape(1, -1) - mean) @ mat).reshape(3, 2, 2), rtol=1e-6)
    with pytest.raises(ValueError, match="should be a square matrix"):
        vision.LinearTransformation(np.zeros((2, 3)), np.zeros(2))


def test_conversions():
    img = _rgb()
    pil = vision.ToPIL()(img)
    assert isinstance(pil, Image.Image) and pil.size == (8, 8)
    np.testing.assert_array_equal(vision.ToNumpy()(pil), img)
    np.testing.assert_array_equal(np.asarray(vision.ToPIL()(img / 255.0)), img)
    assert vision.ToType(ms.float16)(img).dtype == np.float16
    assert vision.ToType(np.int32)(img).dtype == np.int32
    pad = vision.NormalizePad([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])(img)
    assert pad.shape == (8, 8, 4) and pad.dtype == np.float32
    np.testing.assert_allclose(pad[..., :3], (img - [1, 2, 3]) / np.array([4, 5, 6]), rtol=1e-6)
    assert (pad[..., 3] == 0).all()
    assert vision.NormalizePad([0.0] * 3, [1.0] * 3, "float16", is_hwc=False)(
        img.transpose(2, 0, 1)).shape == (4, 8, 8)


def test_auto_augment_family_is_seeded_and_keeps_shape_and_dtype():
    img = _rgb(16, 16)
    for make in (lambda: vision.AutoAugment(vision.AutoAugmentPolicy.CIFAR10), lambda: vision.RandAugment(),
                 lambda: vision.TrivialAugmentWide(), lambda: vision.AutoAugment(vision.AutoAugmentPolicy.SVHN)):
        ds.config.set_seed(9)
        a = [make()(img) for _ in range(4)]
        ds.config.set_seed(9)
        b = [make()(img) for _ in range(4)]
        for x, y in zip(a, b):
            assert x.shape == img.shape and x.dtype == np.uint8
            np.testing.assert_array_equal(x, y)
        assert any(not np.array_equal(x, img) for x in a)
    # no ops: the identity
    np.testing.assert_array_equal(vision.RandAugment(num_ops=0)(img), img)
    out = vision.AutoAugment()(Image.fromarray(img))
    assert isinstance(out, np.ndarray) and out.shape == img.shape  # numpy, as MindSpore returns
    with pytest.raises(ValueError, match=r"Input magnitude is not within the required interval of \[0, 31\)"):
        vision.RandAugment(magnitude=31)
    with pytest.raises(TypeError, match="Argument policy"):
        vision.AutoAugment("imagenet")


def test_uniform_augment_and_random_select_subpolicy():
    img = _rgb()
    ds.config.set_seed(0)
    outs = {vision.UniformAugment([vision.Invert(), vision.HorizontalFlip()], 2)(img).tobytes() for _ in range(20)}
    expected = {img.tobytes(), (255 - img).tobytes(), img[:, ::-1].tobytes(), (255 - img[:, ::-1]).tobytes()}
    assert outs <= expected and len(outs) > 1
    policy = [[(vision.Invert(), 1.0)], [(vision.VerticalFlip(), 1.0), (vision.Invert(), 0.0)]]
    seen = {vision.RandomSelectSubpolicy(policy)(img).tobytes() for _ in range(20)}
    assert seen == {(255 - img).tobytes(), img[::-1].tobytes()}
    with pytest.raises(ValueError, match="num_ops is greater than transforms list size"):
        vision.UniformAugment([vision.Invert()], 2)
    with pytest.raises(ValueError, match="policy can not be empty"):
        vision.RandomSelectSubpolicy([])


def test_new_transforms_run_in_a_pipeline_with_batch_ops():
    images = np.stack([_rgb(seed=k) for k in range(6)])
    data = ds.NumpySlicesDataset({"image": images, "label": np.arange(6, dtype=np.int32) % 3}, shuffle=False)
    data = data.map([vision.RandomResizedCrop(4), vision.RandAugment(), vision.GaussianBlur(3)], input_columns="image")
    data = data.map(transforms.OneHot(3), input_columns="label").batch(3)
    data = data.map(vision.MixUpBatch(), input_columns=["image", "label"])
    rows = list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))
    assert len(rows) == 2 and rows[0][0].shape == (3, 4, 4, 3) and rows[0][1].dtype == np.float32


def test_histogram_helpers_match_pillow_in_auto_augment_ops():
    img = _rgb()
    np.testing.assert_array_equal(vision.Equalize()(img), np.asarray(ImageOps.equalize(Image.fromarray(img))))


def test_mixup_per_sample_lambdas_with_the_next_sample():
    images = np.arange(3, dtype=np.float64)[:, None, None, None] * np.ones((3, 2, 2, 1))
    labels = np.eye(3)
    ds.config.set_seed(0)
    mixed, mixed_labels = vision.MixUp(3, 0.5)(images, labels)
    lam = np.diag(mixed_labels)
    np.testing.assert_allclose(mixed[:, 0, 0, 0], lam * np.arange(3) + (1 - lam) * np.roll(np.arange(3), -1))
    np.testing.assert_allclose(mixed_labels[0, 1], 1 - lam[0])
    chain = vision.MixUp(3, 0.5, is_single=False)
    first, _ = chain(images, labels)
    np.testing.assert_array_equal(first, images)
    second, _ = chain(images + 10, labels)
    assert ((second >= images) & (second <= images + 10)).all()
    with pytest.raises(ValueError, match="expected batch_size=3"):
        vision.MixUp(3, 0.5)(images[:2], labels[:2])


def test_a_model_zoo_style_imagenet_pipeline_is_deterministic(tmp_path):
    rng = np.random.default_rng(0)
    for cls in ("a", "b"):
        (tmp_path / cls).mkdir()
        for k in range(3):
            Image.fromarray(rng.integers(0, 256, (20, 24, 3), dtype=np.uint8)).save(tmp_path / cls / f"{k}.jpg")

    def run(seed):
        ds.config.set_seed(seed)
        data = ds.ImageFolderDataset(str(tmp_path), shuffle=True)
        data = data.map([vision.RandomCropDecodeResize(8, scale=(0.08, 1.0), ratio=(0.75, 1.333)),
                         vision.RandomHorizontalFlip(0.5), vision.RandomColorAdjust(0.4, 0.4, 0.4),
                         vision.AutoAugment(), vision.RandomRotation(10),
                         vision.Normalize([123.7, 116.3, 103.5], [58.4, 57.1, 57.4]), vision.HWC2CHW()],
                        input_columns="image")
        data = data.map(transforms.OneHot(2), input_columns="label").batch(3, drop_remainder=True)
        data = data.map(vision.CutMixBatch(vision.ImageBatchFormat.NCHW), input_columns=["image", "label"])
        return [(r["image"], r["label"]) for r in data.create_dict_iterator(output_numpy=True, num_epochs=1)]

    a, b = run(5), run(5)
    assert len(a) == 2 and a[0][0].shape == (3, 3, 8, 8) and a[0][0].dtype == np.float32
    for (xa, ya), (xb, yb) in zip(a, b):
        np.testing.assert_array_equal(xa, xb)
        np.testing.assert_array_equal(ya, yb)
    assert any(not np.array_equal(x, y) for (x, _), (y, _) in zip(a, run(6)))
