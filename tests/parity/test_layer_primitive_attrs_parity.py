"""Layers keep MindSpore's Primitive attributes (``Dense.matmul``, ``Softmax.softmax`` ...).

Model-zoo subclasses call them (``self.matmul(x, self.weight)``), so each named
attribute must exist with MindSpore's Primitive class and attributes, and
calling it as MindSpore's own ``construct`` does must give the layer's output.
"""
import numpy as np
import pytest

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402

LAYERS = {
    "Softmax(1)": (lambda nn: nn.Softmax(1), ("softmax",)),
    "Softmax()": (lambda nn: nn.Softmax(), ("softmax",)),
    "LogSoftmax(0)": (lambda nn: nn.LogSoftmax(0), ("log_softmax",)),
    "ReLU": (lambda nn: nn.ReLU(), ("relu",)),
    "Sigmoid": (lambda nn: nn.Sigmoid(), ("sigmoid",)),
    "Tanh": (lambda nn: nn.Tanh(), ("tanh",)),
    "Dense": (lambda nn: nn.Dense(4, 3), ("matmul", "bias_add")),
    "Conv2d": (lambda nn: nn.Conv2d(2, 4, 3, has_bias=True), ("conv2d", "bias_add")),
    "LayerNorm": (lambda nn: nn.LayerNorm((4,)), ("layer_norm",)),
}
CHECKED_ATTRS = ("axis", "transpose_a", "transpose_b", "out_channel", "kernel_size", "group")


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_layer_primitive_attributes_match_mindspore(layer):
    build, names = LAYERS[layer]
    ms_cell, mj_cell = build(mindspore.nn), build(mindjax.nn)
    for name in names:
        ms_prim, mj_prim = getattr(ms_cell, name), getattr(mj_cell, name)
        assert type(mj_prim).__name__ == type(ms_prim).__name__, name
        for attr in CHECKED_ATTRS:
            if hasattr(ms_prim, attr):
                assert getattr(mj_prim, attr) == getattr(ms_prim, attr), f"{name}.{attr}"


def test_subclass_calling_the_primitive_attributes_gets_the_layer_output():
    x = mindjax.Tensor(np.random.default_rng(0).standard_normal((2, 2, 5, 5)).astype(np.float32))
    conv = mindjax.nn.Conv2d(2, 4, 3, has_bias=True)
    by_prims = conv.bias_add(conv.conv2d(x, conv.weight), conv.bias)
    np.testing.assert_allclose(by_prims.asnumpy(), conv(x).asnumpy(), rtol=1e-5, atol=1e-6)
    rows = mindjax.Tensor(np.random.default_rng(1).standard_normal((4, 5)).astype(np.float32))
    dense = mindjax.nn.Dense(5, 3)
    by_prims = dense.bias_add(dense.matmul(rows, dense.weight), dense.bias)
    np.testing.assert_allclose(by_prims.asnumpy(), dense(rows).asnumpy(), rtol=1e-5, atol=1e-6)
    softmax = mindjax.nn.Softmax((0, 1))
    np.testing.assert_allclose(softmax.softmax(x).asnumpy(), softmax(x).asnumpy(), rtol=1e-6)
