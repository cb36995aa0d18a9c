"""Model.fit against MindSpore 2.10: its eval_loss (the last batch's loss), EarlyStopping and
ReduceLROnPlateau acting on it, their printed lines, and the training rows callbacks see (lists)."""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402
from tests.parity.compat_data import EpochData, classification, nets, set_weights  # noqa: E402


def _fit_with_plateau_callbacks(framework):
    if framework is mindspore:
        mindspore.set_context(mode=mindspore.GRAPH_MODE)
    net_module = nets(framework)
    net = net_module.SmallNet()
    set_weights(framework, net, 0.4)
    loss = framework.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = framework.nn.Momentum(net.trainable_params(), learning_rate=0.2, momentum=0.9)
    train = framework.train
    model = train.Model(net, loss, opt, metrics={"acc": train.Accuracy(), "loss": train.Loss()},
                        eval_network=net_module.LossLogitsLabel(net, loss), eval_indexes=[0, 1, 2])
    seen = []
    element_types = set()

    def epoch_end(rc):
        cb = rc.original_args()
        seen.append({k: float(v) for k, v in cb.eval_results.items()})
        element_types.add(type(cb.train_dataset_element).__name__)

    record = train.LambdaCallback(on_train_epoch_end=epoch_end)
    early = train.EarlyStopping(monitor="eval_loss", patience=2, verbose=True, restore_best_weights=True)
    plateau = train.ReduceLROnPlateau(monitor="eval_loss", factor=0.5, patience=1, verbose=True, min_lr=0.01)
    model.fit(12, EpochData(framework, classification(32, 0)), EpochData(framework, classification(16, 5)),
              callbacks=[record, early, plateau])
    weights = {p.name: np.asarray(p.asnumpy()) for p in net.get_parameters()}
    return seen, element_types, early.stopped_epoch, float(opt.learning_rate.asnumpy()), weights


def test_fit_eval_loss_is_the_last_batch_loss_and_plateau_callbacks_act_on_it_as_in_mindspore(capsys):
    want = _fit_with_plateau_callbacks(mindspore)
    want_out = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("Epoch", "Restoring"))]
    got = _fit_with_plateau_callbacks(mindjax)
    got_out = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("Epoch", "Restoring"))]
    (want_seen, want_types, want_stop, want_lr, want_w), (got_seen, got_types, got_stop, got_lr, got_w) = want, got
    assert got_out == want_out  # "Epoch 00003: ReduceLROnPlateau reducing learning rate to 0.1." ...
    assert got_stop == want_stop and 0 < want_stop < 12
    assert len(got_seen) == len(want_seen)
    for g, w in zip(got_seen, want_seen):
        assert sorted(g) == sorted(w) == ["acc", "eval_loss", "loss"]
        for key in w:
            assert g[key] == pytest.approx(w[key], rel=1e-5, abs=1e-6), key
    # The metric averages over batches; eval_loss is the last batch's loss only.
    assert any(abs(w["eval_loss"] - w["loss"]) > 1e-3 for w in want_seen)
    assert got_types == want_types == {"list"}
    # restore_best_weights loads the whole training network, the learning rate included.
    assert got_lr == pytest.approx(want_lr, rel=1e-6)
    for name in want_w:
        np.testing.assert_allclose(got_w[name], want_w[name], rtol=1e-5, atol=1e-5, err_msg=name)
