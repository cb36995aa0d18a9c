"""FractionalMaxPool2d/3d against MindSpore 2.10: with ``_random_samples`` given, values and indices are
MindSpore's exactly; drawn samples are pinned by their properties (shape, dtype, indices that point at
the values, fixed by the seed)."""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402

RNG = np.random.default_rng(0)


def _both(cls, x, samples, graph, **kwargs):
    outs = []
    for framework in (mindspore, mindjax):
        framework.set_context(mode=framework.GRAPH_MODE if graph and framework is mindjax
                              else framework.PYNATIVE_MODE)
        s = None if samples is None else framework.Tensor(samples)
        layer = getattr(framework.nn, cls)(_random_samples=s, return_indices=True, **kwargs)
        outs.append([o.asnumpy() for o in layer(framework.Tensor(x))])
    mindjax.set_context(mode=mindjax.PYNATIVE_MODE)
    return outs


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
@pytest.mark.parametrize("shape, kwargs", [
    ((2, 3, 9, 9), {"kernel_size": 3, "output_size": (4, 5)}),
    ((2, 3, 9, 11), {"kernel_size": (2, 3), "output_size": 4}),
    ((1, 2, 10, 8), {"kernel_size": 2, "output_ratio": (0.5, 0.75)}),
    ((3, 7, 6), {"kernel_size": 2, "output_size": (3, 1)}),
])
def test_fractional_max_pool2d_with_given_samples_equals_mindspore(shape, kwargs, graph):
    x = RNG.standard_normal(shape).astype(np.float32)
    samples = RNG.random(((1,) if len(shape) == 3 else shape[:1]) + (shape[-3], 2)).astype(np.float32)
    (want, want_idx), (got, got_idx) = _both("FractionalMaxPool2d", x, samples, graph, **kwargs)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got_idx, want_idx)
    assert got.dtype == want.dtype and got_idx.dtype == want_idx.dtype == np.int64


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
@pytest.mark.parametrize("shape, kwargs", [
    ((2, 2, 6, 7, 8), {"kernel_size": (2, 2, 3), "output_size": (3, 4, 3)}),
    ((1, 3, 7, 7, 7), {"kernel_size": 2, "output_ratio": 0.5}),
    ((2, 6, 7, 5), {"kernel_size": 1, "output_size": (2, 3, 4)}),
])
def test_fractional_max_pool3d_with_given_samples_equals_mindspore(shape, kwargs, graph):
    x = RNG.standard_normal(shape).astype(np.float32)
    samples = RNG.random(((1,) if len(shape) == 4 else shape[:1]) + (shape[-4], 3)).astype(np.float32)
    (want, want_idx), (got, got_idx) = _both("FractionalMaxPool3d", x, samples, graph, **kwargs)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got_idx, want_idx)
    assert got_idx.dtype == np.int64


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
@pytest.mark.parametrize("cls, shape, kernel, out", [
    ("FractionalMaxPool2d", (2, 3, 11, 9), 2, (5, 4)), ("FractionalMaxPool3d", (2, 2, 7, 6, 8), 2, (3, 3, 4)),
])
def test_drawn_samples_give_window_maxima_fixed_by_the_seed(cls, shape, kernel, out, graph):
    x = RNG.standard_normal(shape).astype(np.float32)
    mindjax.set_context(mode=mindjax.GRAPH_MODE if graph else mindjax.PYNATIVE_MODE)
    layer = getattr(mindjax.nn, cls)(kernel, output_size=out, return_indices=True)
    runs = []
    for seed in (3, 3, 4):
        mindjax.set_seed(seed)
        runs.append([o.asnumpy() for o in layer(mindjax.Tensor(x))])
    mindjax.set_context(mode=mindjax.PYNATIVE_MODE)
    values, indices = runs[0]
    assert values.shape == shape[:2] + out and values.dtype == np.float32 and indices.dtype == np.int64
    flat = x.reshape(shape[:2] + (-1,))
    np.testing.assert_array_equal(np.take_along_axis(flat, indices.reshape(shape[:2] + (-1,)), -1),
                                  values.reshape(shape[:2] + (-1,)))
    # Each output is the max of a kernel-sized window: no input value in it is larger.
    assert np.all(values >= np.take_along_axis(flat, indices.reshape(shape[:2] + (-1,)), -1).reshape(values.shape))
    np.testing.assert_array_equal(runs[1][0], values)
    assert not np.array_equal(runs[2][1], indices)


BAD = [
    {"kernel_size": 2}, {"kernel_size": 2, "output_ratio": 1.5}, {"kernel_size": 2, "output_ratio": 1},
    {"kernel_size": 2, "output_size": 4, "return_indices": 1}, {"kernel_size": 0, "output_size": 4},
]


@pytest.mark.parametrize("kwargs", BAD)
def test_bad_arguments_raise_mindspores_error_and_message(kwargs):
    x = RNG.standard_normal((1, 2, 9, 9)).astype(np.float32)
    with pytest.raises((TypeError, ValueError)) as theirs:
        mindspore.nn.FractionalMaxPool2d(**kwargs)(mindspore.Tensor(x))
    with pytest.raises(type(theirs.value)) as ours:
        mindjax.nn.FractionalMaxPool2d(**kwargs)
    # (MindSpore's first message lacks a space: "can not be Noneat the same time".)
    assert str(ours.value).replace(" ", "") == str(theirs.value).split("\n")[0].replace(" ", "")


def test_too_large_a_window_and_bad_samples_raise_naming_the_op():
    x = mindjax.Tensor(RNG.standard_normal((1, 2, 9, 9)).astype(np.float32))
    with pytest.raises(ValueError, match=r"ksize H \[5\] \+ output_shape_h \[8\] too large relative to input H \[9\]"):
        mindjax.nn.FractionalMaxPool2d(5, output_size=(8, 8))(x)
    with pytest.raises(ValueError, match=r"'_random_samples' must have shape \(1, 2, 2\)"):
        mindjax.nn.FractionalMaxPool2d(2, output_size=4, _random_samples=mindjax.Tensor(np.zeros((1, 2, 3),
                                                                                                 np.float32)))(x)
    with pytest.raises(ValueError, match="the input must be 3-D or 4-D, but got 2-D"):
        mindjax.nn.FractionalMaxPool2d(2, output_size=4)(mindjax.Tensor(np.zeros((9, 9), np.float32)))


def test_set_seed_reseeds_a_cell_whose_program_is_already_compiled():
    # A compiled Cell reads the global key as state; set_seed resets that state to be rebuilt on read.
    drop = mindjax.nn.Dropout(p=0.5)
    drop.set_train()
    ones = mindjax.Tensor(np.ones((64,), np.float32))
    masks = []
    for seed in (3, 3, 4):
        mindjax.set_seed(seed)
        masks.append(drop(ones).asnumpy())
    np.testing.assert_array_equal(masks[0], masks[1])
    assert not np.array_equal(masks[0], masks[2])
