"""MSSSIM against MindSpore 2.10 (its GRAPH mode: its PYNATIVE construct fails in ScalarCast on float32)."""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402


def _images(shape, dtype=np.float32):
    rng = np.random.default_rng(0)
    a = rng.random(shape).astype(np.float32)
    b = np.clip(a + 0.1 * rng.standard_normal(shape), 0, 1).astype(np.float32)
    return (a, b) if dtype == np.float32 else ((a * 255).astype(dtype), (b * 255).astype(dtype))


def _theirs(kwargs, a, b):
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    return mindspore.nn.MSSSIM(**kwargs)(mindspore.Tensor(a), mindspore.Tensor(b)).asnumpy()


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
@pytest.mark.parametrize("kwargs, shape, dtype", [
    ({"filter_size": 3}, (2, 3, 48, 48), np.float32),
    ({"filter_size": 3, "max_val": 255}, (2, 3, 48, 48), np.uint8),
    ({"filter_size": 5, "filter_sigma": 0.8, "k1": 0.02, "k2": 0.05, "power_factors": [0.5, 0.3, 0.2]},
     (1, 2, 25, 30), np.float32),
    ({}, (1, 1, 176, 176), np.float32),
])
def test_msssim_matches_mindspore(kwargs, shape, dtype, graph):
    a, b = _images(shape, dtype)
    want = _theirs(kwargs, a, b)
    mindjax.set_context(mode=mindjax.GRAPH_MODE if graph else mindjax.PYNATIVE_MODE)
    net = mindjax.nn.MSSSIM(**kwargs)
    got = net(mindjax.Tensor(a), mindjax.Tensor(b)).asnumpy()
    assert got.shape == want.shape == (shape[0],) and got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_msssim_parameters_match_mindspores_names_shapes_and_values():
    theirs, ours = mindspore.nn.MSSSIM(filter_size=5), mindjax.nn.MSSSIM(filter_size=5)
    want = [(n, p.asnumpy(), p.requires_grad) for n, p in theirs.parameters_and_names()]
    got = [(n, p.asnumpy(), p.requires_grad) for n, p in ours.parameters_and_names()]
    assert [(n, g) for n, _, g in got] == [(n, g) for n, _, g in want]
    for (_, w, _), (_, g, _) in zip(want, got):
        np.testing.assert_allclose(g, w, rtol=1e-6)


@pytest.mark.parametrize("kwargs", [
    {"max_val": 0}, {"max_val": "a"}, {"power_factors": 1.0}, {"filter_size": 0}, {"filter_size": 1.5},
    {"filter_sigma": 0.0}, {"filter_sigma": 1}, {"k1": 1}, {"k2": None},
])
def test_bad_constructor_argument_raises_mindspores_error_and_message(kwargs):
    with pytest.raises((TypeError, ValueError)) as theirs:
        mindspore.nn.MSSSIM(**kwargs)
    with pytest.raises(type(theirs.value)) as ours:
        mindjax.nn.MSSSIM(**kwargs)
    assert str(ours.value) == str(theirs.value).split("\n")[0]


def test_bad_inputs_raise_naming_the_cell():
    net = mindjax.nn.MSSSIM(filter_size=3)
    a, b = _images((1, 1, 48, 48))
    with pytest.raises(ValueError, match="For 'MSSSIM', the dimension of 'img1' must be 4d, but got 3"):
        net(mindjax.Tensor(a[0]), mindjax.Tensor(b[0]))
    with pytest.raises(TypeError, match="For 'MSSSIM', the type of 'img1'"):
        net(mindjax.Tensor(a.astype(np.int32)), mindjax.Tensor(b.astype(np.int32)))
    with pytest.raises(ValueError, match="scale 4 are 2x2, smaller than the window"):
        net(mindjax.Tensor(a[..., :40, :40]), mindjax.Tensor(b[..., :40, :40]))
