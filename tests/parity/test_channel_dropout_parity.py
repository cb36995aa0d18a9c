"""Channel dropout (ops.dropout1d/2d/3d, nn.Dropout1d/3d) accepts what MindSpore 2.10 accepts.

The masks are random on both sides, so the comparisons are of shapes, of the
deterministic cases (p = 0 and p = 1, evaluation) and of the errors.
"""
import mindspore
import mindspore.nn as msnn
import mindspore.ops as msops
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops


def _x(shape):
    return np.random.default_rng(0).standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("shape", [(4, 3), (2, 4, 3)])
@pytest.mark.parametrize("p", [0.0, 1.0])
def test_dropout1d_takes_2d_and_3d_inputs_and_p_up_to_one(shape, p):
    x = _x(shape)
    theirs = msops.dropout1d(mindspore.Tensor(x), p).asnumpy()
    ours = ops.dropout1d(ms.Tensor(x), p).asnumpy()
    np.testing.assert_allclose(ours, theirs)
    cell = nn.Dropout1d(p)
    cell.set_train()
    np.testing.assert_allclose(cell(ms.Tensor(x)).asnumpy(), theirs)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_dropout1d_drops_whole_channels_of_a_2d_input(mode):
    ms.set_context(mode=mode)
    cell = nn.Dropout1d(0.5)
    cell.set_train()
    out = cell(ms.Tensor(np.ones((64, 5), np.float32))).asnumpy()
    assert set(np.unique(out)) <= {0.0, 2.0}
    assert all(len(set(row)) == 1 for row in out)  # a channel is kept or dropped whole


@pytest.mark.parametrize("fn, shape", [("dropout1d", (2, 3, 4, 5)), ("dropout2d", (2, 3, 4)),
                                       ("dropout3d", (2, 3, 4, 5))])
def test_channel_dropout_rejects_the_ranks_mindspore_rejects(fn, shape):
    with pytest.raises(ValueError):
        getattr(msops, fn)(mindspore.Tensor(_x(shape)), 0.5)
    with pytest.raises(ValueError, match=f"For {fn}, input shape should be"):
        getattr(ops, fn)(ms.Tensor(_x(shape)), 0.5)


@pytest.mark.parametrize("cls", ["Dropout1d", "Dropout3d"])
def test_channel_dropout_cells_check_p_as_mindspore(cls):
    for bad, err in [(1, TypeError), (1.5, ValueError), (-0.1, ValueError)]:
        with pytest.raises(err):
            getattr(msnn, cls)(bad)
        with pytest.raises(err, match=f"For '{cls}'"):
            getattr(nn, cls)(bad)
    with pytest.raises(TypeError, match="For dropout1d, 'p' must be float"):
        ops.dropout1d(ms.Tensor(_x((2, 3))), 1)
