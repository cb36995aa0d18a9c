"""``Conv2dBnAct``, ``DenseBnAct`` and ``TimeDistributed`` against MindSpore 2.10: parameter names,
numbers (with MindSpore's weights copied in) and argument errors."""
import jax.numpy as jnp
import mindspore
import mindspore.nn as msnn
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn

_RNG = np.random.default_rng(7)


def _ms(cell, x):
    for attempt in range(2):
        try:
            return cell(mindspore.Tensor(x)).asnumpy()
        except (SystemError, ImportError):
            if attempt:
                raise
    raise AssertionError("unreachable")


def _copy_params(theirs, ours):
    names = [p.name for p in theirs.get_parameters()]
    assert [p.name for p in ours.get_parameters()] == names
    for t, o in zip(theirs.get_parameters(), ours.get_parameters()):
        o.set_data(ms.Tensor(t.asnumpy()))


@pytest.mark.parametrize("train", [False, True])
@pytest.mark.parametrize("name,kwargs,shape", [
    ("Conv2dBnAct", {"in_channels": 3, "out_channels": 4, "kernel_size": 3}, (2, 3, 6, 6)),
    ("Conv2dBnAct", {"in_channels": 3, "out_channels": 4, "kernel_size": 3, "has_bn": True, "activation": "relu",
                     "has_bias": True, "pad_mode": "pad", "padding": 1}, (2, 3, 6, 6)),
    ("Conv2dBnAct", {"in_channels": 3, "out_channels": 2, "kernel_size": 1, "activation": "leakyrelu",
                     "alpha": 0.3}, (2, 3, 4, 4)),
    ("DenseBnAct", {"in_channels": 5, "out_channels": 3}, (4, 5)),
    ("DenseBnAct", {"in_channels": 5, "out_channels": 3, "has_bn": True, "activation": "sigmoid"}, (4, 5)),
    ("DenseBnAct", {"in_channels": 5, "out_channels": 3, "activation": "leakyrelu", "has_bias": False}, (4, 5)),
])
def test_combined_cell_matches_mindspore(name, kwargs, shape, train):
    theirs, ours = getattr(msnn, name)(**kwargs), getattr(nn, name)(**kwargs)
    _copy_params(theirs, ours)
    theirs.set_train(train)
    ours.set_train(train)
    x = _RNG.standard_normal(shape).astype(np.float32)
    np.testing.assert_allclose(np.asarray(ours(jnp.asarray(x))), _ms(theirs, x), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("shape,time_axis,reshape_with_axis", [
    ((4, 3, 5), 1, None), ((4, 3, 5), 1, 0), ((4, 3, 5), 0, 1), ((4, 3, 5), -2, None), ((4, 3, 2, 5), 2, 0),
    ((4, 3, 2, 5), 1, 2), ((4, 3, 2, 5), 0, None)])
def test_time_distributed_dense_matches_mindspore(shape, time_axis, reshape_with_axis):
    x = _RNG.standard_normal(shape).astype(np.float32)
    theirs = msnn.TimeDistributed(msnn.Dense(5, 2), time_axis, reshape_with_axis)
    ours = nn.TimeDistributed(nn.Dense(5, 2), time_axis, reshape_with_axis)
    _copy_params(theirs, ours)
    np.testing.assert_allclose(np.asarray(ours(jnp.asarray(x))), _ms(theirs, x), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("make,pattern", [
    (lambda m: m.Conv2dBnAct(3, 4, 3, has_bn=1), "has_bn"),
    (lambda m: m.Conv2dBnAct(3, 4, 3, activation=3), "activation"),
    (lambda m: m.DenseBnAct(3, 4, after_fake="yes"), "after_fake"),
    (lambda m: m.TimeDistributed(lambda x: x, 1), "layer"),
    (lambda m: m.TimeDistributed(m.ReLU(), 1.0), "time_axis"),
])
def test_combined_bad_argument_raises_mindspores_error_type(make, pattern):
    with pytest.raises(Exception) as theirs:
        make(msnn)
    with pytest.raises(type(theirs.value), match=pattern):
        make(nn)


def test_time_distributed_rejects_low_rank_input():
    with pytest.raises(ValueError, match="at least 3D"):
        nn.TimeDistributed(nn.ReLU(), 1)(jnp.zeros((2, 3), jnp.float32))
