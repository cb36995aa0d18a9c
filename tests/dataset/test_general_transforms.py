"""The general transforms PadEnd, Concatenate, Mask, Slice, Unique and the random compositions."""
import numpy as np
import pytest

from mindjax.dataset import transforms


def test_pad_end_pads_truncates_and_defaults_to_zero_or_empty_string():
    assert transforms.PadEnd([4], pad_value=-1)(np.array([1, 2])).tolist() == [1, 2, -1, -1]
    assert transforms.PadEnd([3, None])(np.ones((2, 2))).tolist() == [[1, 1], [1, 1], [0, 0]]
    assert transforms.PadEnd([1])(np.array([5, 6])).tolist() == [5]
    assert transforms.PadEnd([3])(np.array(["a"])).tolist() == ["a", "", ""]
    with pytest.raises(ValueError, match=r"For 'PadEnd', pad_shape \[2, 2\] has rank 2, but the input has shape"):
        transforms.PadEnd([2, 2])(np.array([1]))


def test_concatenate_mask_slice_unique():
    cat = transforms.Concatenate(0, np.array([0]), np.array([9]))(np.array([1, 2]))
    assert cat.tolist() == [0, 1, 2, 9]
    mask = transforms.Mask(transforms.Relational.GE, 2)(np.arange(4))
    assert mask.dtype == np.bool_ and mask.tolist() == [False, False, True, True]
    assert transforms.Mask(transforms.Relational.EQ, "a", np.int32)(np.array(["a", "b"])).tolist() == [1, 0]
    assert transforms.Slice(slice(1, 3))(np.arange(5)).tolist() == [1, 2]
    assert transforms.Slice([0, -1])(np.arange(5)).tolist() == [0, 4]
    assert transforms.Slice(1)(np.arange(5)).tolist() == [1]
    values, index, counts = transforms.Unique()(np.array([3, 1, 3, 2, 1]))
    assert values.tolist() == [3, 1, 2] and index.tolist() == [0, 1, 0, 2, 1] and counts.tolist() == [2, 2, 1]


def test_random_compositions_draw_from_the_pipeline_generator():
    add, double = (lambda x: x + 1), (lambda x: x * 2)
    always = transforms.RandomApply([add, double], prob=1.0)
    never = transforms.RandomApply([add], prob=0.0)
    x = np.array([1])
    assert always._apply(x, rng=np.random.default_rng(0)).tolist() == [4]
    assert never._apply(x, rng=np.random.default_rng(0)).tolist() == [1]
    picks = {int(transforms.RandomChoice([add, double])._apply(np.array([3]), rng=np.random.default_rng(s))[0])
             for s in range(20)}
    assert picks == {4, 6}
    orders = {int(transforms.RandomOrder([add, double])._apply(np.array([1]), rng=np.random.default_rng(s))[0])
              for s in range(20)}
    assert orders == {4, 3}


def test_not_random_marks_the_function_and_plugin_names_the_alternative():
    from mindjax.dataset import transforms, vision

    @transforms.not_random
    def double(x):
        return x * 2

    assert double.random is False and double(3) == 6 and vision.not_random is transforms.not_random
    with pytest.raises(NotImplementedError, match="ctypes.CDLL"):
        transforms.Plugin("libx.so", "f")
