"""TrainOneStepWithLossScaleCell with a dynamic update Cell against MindSpore 2.10: outputs, skip, weights."""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402
from tests.parity.compat_data import classification, nets, set_weights  # noqa: E402


def _loss_scale_run(framework):
    net_module = nets(framework)
    net = net_module.SmallNet()
    set_weights(framework, net, 0.3)
    opt = framework.nn.Momentum(net.trainable_params(), 0.05, 0.9)
    update = framework.nn.DynamicLossScaleUpdateCell(loss_scale_value=2 ** 12, scale_factor=2, scale_window=2)
    loss = framework.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = net_module.FiniteCheckLossScaleCell(framework.nn.WithLossCell(net, loss), opt, scale_sense=update)
    step.set_train()
    outs = []
    for i, (x, y) in enumerate(classification(40, 2)):
        if i == 2:
            x = x.copy()
            x[0, 0] = np.inf
        loss_value, overflow, scale = step(framework.Tensor(x), framework.Tensor(y))
        outs.append((float(loss_value.asnumpy()) if i != 2 else None, bool(overflow.asnumpy()),
                     float(scale.asnumpy())))
    return outs, {p.name: np.asarray(p.asnumpy()) for p in net.get_parameters()}


def test_loss_scale_cell_returns_the_scale_after_its_update_as_mindspore(mode):
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    want_outs, want_w = _loss_scale_run(mindspore)
    got_outs, got_w = _loss_scale_run(mindjax)
    assert [o[1:] for o in got_outs] == [o[1:] for o in want_outs]
    assert [o[1:] for o in want_outs][:3] == [(False, 4096.0), (False, 8192.0), (True, 4096.0)]
    for g, w in zip(got_outs, want_outs):
        if w[0] is not None:
            assert g[0] == pytest.approx(w[0], rel=1e-5)
    for name in want_w:
        np.testing.assert_allclose(got_w[name], want_w[name], rtol=1e-5, atol=1e-6, err_msg=name)
