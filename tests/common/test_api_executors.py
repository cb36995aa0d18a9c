"""mindspore.common.api's executor objects: compile a Cell without changing its state; sync."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.common.api import _cell_graph_executor, _pynative_executor


def _train_cell():
    net = nn.Dense(3, 2)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return net, opt, nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)


def test_compile_builds_the_graph_program_and_changes_no_parameter():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net, opt, step = _train_cell()
    before = [p.asnumpy().copy() for p in net.trainable_params() + list(opt.moments)]
    x, y = ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.ones((4, 2), np.float32))
    assert _cell_graph_executor.compile(step, x, y) is True
    after = [p.asnumpy() for p in net.trainable_params() + list(opt.moments)]
    for a, b in zip(before, after):
        np.testing.assert_array_equal(a, b)
    assert ms.get_context("mode") == ms.PYNATIVE_MODE  # the caller's mode is kept
    loss = _cell_graph_executor(step, x, y)  # running it does train
    assert np.isfinite(float(loss))
    assert not np.array_equal(net.weight.asnumpy(), before[0])
    _pynative_executor.sync()


def test_compile_reports_a_shape_error_naming_the_cell():
    with pytest.raises(ValueError, match="For 'Dense'"):
        _cell_graph_executor.compile(nn.Dense(3, 2), ms.Tensor(np.ones((4, 5), np.float32)))


@pytest.mark.parametrize("mode, expected", [(None, [0.25, 2.5, 3.1666667]), ("floor", [0.0, 2.0, 3.0]),
                                            ("trunc", [0.0, 2.0, 3.0])])
def test_tensor_divide_takes_rounding_mode_as_div(mode, expected):
    x = ms.Tensor(np.array([1.0, 5.0, 9.5], np.float32))
    y = ms.Tensor(np.array([4.0, 2.0, 3.0], np.float32))
    np.testing.assert_allclose(x.divide(y, rounding_mode=mode).asnumpy(), expected, rtol=1e-6)
