"""OcclusionSensitivity against MindSpore 2.10 with the same classifier weights."""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402


def _classifier(framework, in_features):
    class Classifier(framework.nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = framework.nn.Dense(in_features, 3)

        def construct(self, x):
            return self.fc(x.reshape(x.shape[0], -1))

    net = Classifier()
    rng = np.random.default_rng(0)
    net.fc.weight.set_data(framework.Tensor(rng.standard_normal((3, in_features)).astype(np.float32)))
    net.fc.bias.set_data(framework.Tensor(rng.standard_normal((3,)).astype(np.float32)))
    return net


@pytest.mark.parametrize("shape, kwargs, label", [
    ((1, 6, 5), {}, 1),  # (MindSpore takes the label as a 0-D Tensor only)
    ((1, 6, 5), {"pad_val": -1.0, "margin": 1, "n_batch": 4}, 2),
    ((1, 6, 5), {"b_box": [1, 3, 0, -1], "n_batch": 7}, 0),
    ((1, 2, 4, 3), {"margin": 1, "b_box": [0, 1, 1, 2, -1, -1]}, 2),
])
def test_occlusion_sensitivity_matches_mindspore(shape, kwargs, label):
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    results = []
    for framework in (mindspore, mindjax):
        metric = framework.nn.OcclusionSensitivity(**kwargs)
        metric.clear()
        metric.update(_classifier(framework, int(np.prod(shape[1:]))), framework.Tensor(x),
                      framework.Tensor(np.array(label, np.int32)))
        results.append(metric.eval())
    want, got = results
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kwargs", [{"pad_val": 0}, {"margin": 1.0}, {"n_batch": 2.0}, {"b_box": (0, 1)}])
def test_bad_constructor_argument_raises_mindspores_type_error(kwargs):
    with pytest.raises(TypeError) as theirs:
        mindspore.nn.OcclusionSensitivity(**kwargs)
    name = next(iter(kwargs))
    with pytest.raises(TypeError, match=f"For 'OcclusionSensitivity', the type of '{name}' should be") as ours:
        mindjax.nn.OcclusionSensitivity(**kwargs)
    # MindSpore's message names no class ("The type of 'pad_val' ..."); MindJAX's names the metric.
    assert str(ours.value) == "For 'OcclusionSensitivity', t" + str(theirs.value)[1:]


def test_bad_updates_raise_mindspores_errors():
    metric = mindjax.nn.OcclusionSensitivity()
    with pytest.raises(RuntimeError, match="Please call the 'update' method before calling 'eval' method."):
        metric.eval()
    net = _classifier(mindjax, 30)
    x = np.zeros((1, 6, 5), np.float32)
    with pytest.raises(ValueError, match="it needs 3 inputs"):
        metric.update(net, x)
    with pytest.raises(RuntimeError, match="the shape at index 0 of the predicted value \\(input\\[1\\]\\) must be 1"):
        metric.update(net, np.zeros((2, 6, 5), np.float32), 1)
    with pytest.raises(TypeError, match="the type of 'model' should be 'Cell'"):
        metric.update(lambda v: v, x, 1)
    with pytest.raises(ValueError, match="maximum bounding box must be smaller than image size"):
        mindjax.nn.OcclusionSensitivity(b_box=[0, 6, 0, 1]).update(net, x, 1)
