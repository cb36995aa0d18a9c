"""SVHN, STL10, Manifest, COCO and VOC sources on small files written in tmp_path."""
import json
import os

import numpy as np
import pytest
from PIL import Image

import mindjax.dataset as ds


def _rows(data, *columns):
    return [tuple(r[c] for c in columns) for r in data.create_dict_iterator(output_numpy=True, num_epochs=1)]


def _png(path, value, size=(4, 5)):
    Image.fromarray(np.full(size + (3,), value, np.uint8)).save(path, format="PNG")


def test_svhn_reads_mat_files_and_maps_label_10_to_0(tmp_path):
    from scipy.io import savemat

    x = np.random.default_rng(0).integers(0, 256, (32, 32, 3, 3), dtype=np.uint8)
    savemat(str(tmp_path / "train_32x32.mat"), {"X": x, "y": np.array([[10], [1], [9]], np.uint8)})
    rows = _rows(ds.SVHNDataset(str(tmp_path), "train", shuffle=False), "image", "label")
    assert [int(l) for _, l in rows] == [0, 1, 9] and rows[0][1].dtype == np.uint32
    np.testing.assert_array_equal(rows[1][0], x[..., 1])
    with pytest.raises(RuntimeError, match="test_32x32.mat is missing"):
        ds.SVHNDataset(str(tmp_path), "test")


def test_stl10_reads_column_major_images_and_shifts_labels(tmp_path):
    hwc = np.random.default_rng(1).integers(0, 256, (2, 96, 96, 3), dtype=np.uint8)
    hwc.transpose(0, 3, 2, 1).tofile(str(tmp_path / "train_X.bin"))
    np.array([1, 10], np.uint8).tofile(str(tmp_path / "train_y.bin"))
    hwc[:1].transpose(0, 3, 2, 1).tofile(str(tmp_path / "unlabeled_X.bin"))
    rows = _rows(ds.STL10Dataset(str(tmp_path), "train+unlabeled", shuffle=False), "image", "label")
    assert [int(l) for _, l in rows] == [0, 9, -1]
    np.testing.assert_array_equal(rows[1][0], hwc[1])
    with pytest.raises(ValueError, match="'usage' must be one of"):
        ds.STL10Dataset(str(tmp_path), "valid")


def test_manifest_lists_images_and_labels_by_usage(tmp_path):
    _png(tmp_path / "a.png", 10)
    _png(tmp_path / "b.png", 20)
    lines = [{"source": "a.png", "usage": "train", "annotation": [{"type": "label", "name": "dog"}]},
             {"source": "b.png", "usage": "TRAIN", "annotation": [{"name": "cat"}, {"name": "dog"}]},
             {"source": "b.png", "usage": "eval", "annotation": [{"name": "cat"}]}]
    (tmp_path / "m.json").write_text("\n".join(json.dumps(l) for l in lines))
    data = ds.ManifestDataset(str(tmp_path / "m.json"), decode=True, shuffle=False)
    rows = _rows(data, "image", "label")
    assert data.get_class_indexing() == {"cat": 0, "dog": 1}
    assert [l.tolist() for _, l in rows] == [[1], [0, 1]]
    assert rows[0][0].shape == (4, 5, 3) and rows[1][0][0, 0, 0] == 20
    assert ds.ManifestDataset(str(tmp_path / "m.json"), usage="eval").get_dataset_size() == 1


def test_coco_detection_and_keypoint_columns(tmp_path):
    _png(tmp_path / "1.png", 5)
    _png(tmp_path / "2.png", 6)
    coco = {"images": [{"id": 1, "file_name": "1.png"}, {"id": 2, "file_name": "2.png"},
                       {"id": 3, "file_name": "none.png"}],
            "annotations": [{"image_id": 1, "bbox": [1, 2, 3, 4], "category_id": 7, "iscrowd": 0,
                             "keypoints": [0] * 51, "num_keypoints": 0},
                            {"image_id": 1, "bbox": [0, 0, 1, 1], "category_id": 8, "iscrowd": 1,
                             "keypoints": [1] * 51, "num_keypoints": 17},
                            {"image_id": 2, "bbox": [2, 2, 2, 2], "category_id": 7, "iscrowd": 0,
                             "keypoints": [2] * 51, "num_keypoints": 3}],
            "categories": [{"id": 7, "name": "cat"}, {"id": 8, "name": "dog"}]}
    (tmp_path / "ann.json").write_text(json.dumps(coco))
    data = ds.CocoDataset(str(tmp_path), str(tmp_path / "ann.json"), shuffle=False, decode=True)
    assert data.get_col_names() == ["image", "bbox", "category_id", "iscrowd"] and data.get_dataset_size() == 2
    image, bbox, cat, crowd = _rows(data, "image", "bbox", "category_id", "iscrowd")[0]
    assert bbox.dtype == np.float32 and bbox.tolist() == [[1, 2, 3, 4], [0, 0, 1, 1]]
    assert cat.tolist() == [[7], [8]] and crowd.tolist() == [[0], [1]] and image.shape == (4, 5, 3)
    kp = _rows(ds.CocoDataset(str(tmp_path), str(tmp_path / "ann.json"), task="Keypoint", shuffle=False),
               "keypoints", "num_keypoints")
    assert kp[0][0].shape == (2, 51) and kp[1][1].tolist() == [[3]]
    assert data.get_class_indexing() == {"cat": 7, "dog": 8}
    with pytest.raises(NotImplementedError, match="task 'Panoptic' is not supported"):
        ds.CocoDataset(str(tmp_path), str(tmp_path / "ann.json"), task="Panoptic")


def _voc(root):
    for sub in ("JPEGImages", "Annotations", "ImageSets/Main", "ImageSets/Segmentation", "SegmentationClass"):
        os.makedirs(root / sub, exist_ok=True)
    for k, name in enumerate(["img1", "img2"]):
        Image.fromarray(np.full((6, 8, 3), 40 * k, np.uint8)).save(root / "JPEGImages" / f"{name}.jpg")
        Image.fromarray(np.full((6, 8), k, np.uint8)).save(root / "SegmentationClass" / f"{name}.png")
    (root / "Annotations" / "img1.xml").write_text(
        "<annotation><object><name>person</name><difficult>1</difficult><truncated>0</truncated>"
        "<bndbox><xmin>1</xmin><ymin>2</ymin><xmax>5</xmax><ymax>6</ymax></bndbox></object>"
        "<object><name>car</name><bndbox><xmin>0</xmin><ymin>0</ymin><xmax>2</xmax><ymax>3</ymax></bndbox>"
        "</object></annotation>")
    (root / "Annotations" / "img2.xml").write_text(
        "<annotation><object><name>car</name><truncated>1</truncated><bndbox><xmin>3</xmin><ymin>1</ymin>"
        "<xmax>4</xmax><ymax>2</ymax></bndbox></object></annotation>")
    (root / "ImageSets" / "Main" / "train.txt").write_text("img1\nimg2\n")
    (root / "ImageSets" / "Segmentation" / "train.txt").write_text("img2\n")


def test_voc_detection_boxes_labels_and_segmentation_targets(tmp_path):
    _voc(tmp_path)
    det = ds.VOCDataset(str(tmp_path), task="Detection", shuffle=False)
    assert det.get_class_indexing() == {"car": 0, "person": 1}
    rows = _rows(det, "bbox", "label", "difficult", "truncate")
    assert rows[0][0].tolist() == [[1, 2, 4, 4], [0, 0, 2, 3]] and rows[0][1].tolist() == [[1], [0]]
    assert rows[0][2].tolist() == [[1], [0]] and rows[1][3].tolist() == [[1]]
    only_car = _rows(ds.VOCDataset(str(tmp_path), task="Detection", class_indexing={"car": 5}, shuffle=False),
                     "label")
    assert [l.tolist() for (l,) in only_car] == [[[5]], [[5]]]
    seg = _rows(ds.VOCDataset(str(tmp_path), decode=True, shuffle=False), "image", "target")
    assert len(seg) == 1 and seg[0][1].shape == (6, 8, 3) and seg[0][1][0, 0, 0] == 1
    with pytest.raises(ValueError, match="image set file .* does not exist"):
        ds.VOCDataset(str(tmp_path), task="Detection", usage="val")
