"""Image-with-boxes transforms: boxes follow the pixels."""
import numpy as np
import pytest

import mindjax.dataset as ds
from mindjax.dataset import vision


def _scene():
    img = np.zeros((10, 12, 3), np.uint8)
    img[2:5, 3:7] = 255  # the object: rows 2-4, cols 3-6
    return img, np.array([[3, 2, 4, 3, 7]], np.float32)  # x, y, w, h, class


def _box_pixels(img, box):
    x, y, w, h = (int(round(v)) for v in box[:4])
    return img[y:y + h, x:x + w]


def test_flips_move_the_box_with_the_object():
    img, boxes = _scene()
    out, b = vision.RandomHorizontalFlipWithBBox(1.0)(img, boxes)
    assert b.tolist() == [[5, 2, 4, 3, 7]] and (_box_pixels(out, b[0]) == 255).all()
    out, b = vision.RandomVerticalFlipWithBBox(1.0)(img, boxes)
    assert b.tolist() == [[3, 5, 4, 3, 7]] and (_box_pixels(out, b[0]) == 255).all()
    same, b = vision.RandomVerticalFlipWithBBox(0.0)(img, boxes)
    np.testing.assert_array_equal(same, img)
    with pytest.raises(ValueError, match="outside the image"):
        vision.RandomHorizontalFlipWithBBox()(img, np.array([[10, 0, 5, 1]], np.float32))


def test_resize_scales_boxes():
    img, boxes = _scene()
    out, b = vision.ResizeWithBBox((20, 6), vision.Inter.NEAREST)(img, boxes)
    assert out.shape == (20, 6, 3)
    np.testing.assert_allclose(b, [[1.5, 4, 2, 6, 7]])
    ds.config.set_seed(0)
    out, b = vision.RandomResizeWithBBox((5, 6))(img, boxes)
    assert out.shape == (5, 6, 3)
    np.testing.assert_allclose(b[:, :4], [[1.5, 1, 2, 1.5]])


def test_crops_shift_clip_and_drop_boxes():
    img, _ = _scene()
    boxes = np.array([[3, 2, 4, 3], [0, 8, 2, 2]], np.float32)
    ds.config.set_seed(3)
    for _ in range(5):
        out, b = vision.RandomCropWithBBox((6, 6))(img, boxes)
        assert out.shape == (6, 6, 3)
        for box in b:
            assert box[0] >= 0 and box[1] >= 0 and box[0] + box[2] <= 6 and box[1] + box[3] <= 6
        if len(b) and b[0][2] == 4 and b[0][3] == 3:
            assert (_box_pixels(out, b[0]) == 255).all()
    out, b = vision.RandomCropWithBBox((10, 12))(img, boxes)
    np.testing.assert_array_equal(b, boxes)
    out, b = vision.RandomCropWithBBox((12, 14), padding=1)(img, boxes)
    np.testing.assert_array_equal(b, boxes + [[1, 1, 0, 0]])
    out, b = vision.RandomResizedCropWithBBox((20, 24), scale=(1.0, 1.0), ratio=(1.2, 1.2),
                                              interpolation=vision.Inter.NEAREST)(img, boxes)
    np.testing.assert_allclose(b, boxes * [[2, 2, 2, 2]])


def test_bounding_box_augment_changes_only_the_boxed_region():
    img, boxes = _scene()
    out, b = vision.BoundingBoxAugment(vision.Invert(), ratio=1.0)(img, boxes)
    np.testing.assert_array_equal(b, boxes)
    assert (_box_pixels(out, boxes[0]) == 0).all()
    mask = np.ones(img.shape[:2], bool)
    mask[2:5, 3:7] = False
    np.testing.assert_array_equal(out[mask], img[mask])
    np.testing.assert_array_equal(vision.BoundingBoxAugment(vision.Invert(), ratio=0.0)(img, boxes)[0], img)
    with pytest.raises(ValueError, match=r"Input ratio is not within the required interval of \[0.0, 1.0\]"):
        vision.BoundingBoxAugment(vision.Invert(), 2.0)


def test_bbox_transforms_in_a_pipeline():
    img, boxes = _scene()
    data = ds.NumpySlicesDataset({"image": np.stack([img] * 3), "bbox": np.stack([boxes] * 3)}, shuffle=False)
    data = data.map([vision.RandomHorizontalFlipWithBBox(0.5), vision.ResizeWithBBox((5, 6))],
                    input_columns=["image", "bbox"])
    rows = list(data.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert all(r["image"].shape == (5, 6, 3) and r["bbox"].shape == (1, 5) for r in rows)
