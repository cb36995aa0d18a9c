"""EarlyStopping and ReduceLROnPlateau driven epoch by epoch beside MindSpore 2.10's."""
import os

os.environ.setdefault("GLOG_v", "3")

import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402


class _Args(dict):
    def __getattr__(self, key):
        return self[key]


def _drive_monitors(framework, values, monitor):
    train = framework.train
    early = train.EarlyStopping(monitor=monitor, patience=2)
    plateau = train.ReduceLROnPlateau(monitor=monitor, factor=0.5, patience=1)
    opt = framework.nn.SGD(framework.nn.Dense(2, 2).trainable_params(), 0.4)
    args = _Args(cur_epoch_num=0, optimizer=opt, train_network=None)
    rc = train.RunContext(args)
    early.on_train_begin(rc)
    plateau.on_train_begin(rc)
    trace = []
    for epoch, value in enumerate(values, 1):
        args["cur_epoch_num"] = epoch
        args["eval_results"] = {monitor: value}
        early.on_train_epoch_end(rc)
        plateau.on_train_epoch_end(rc)
        trace.append((early.wait, plateau.wait, rc.get_stop_requested(), float(opt.learning_rate.asnumpy())))
    return trace


def test_a_monitored_value_of_zero_is_skipped_as_in_mindspore():
    values = [0.0, 0.5, 0.0, 0.25, 0.25, 0.5]
    assert _drive_monitors(mindjax, values, "acc") == _drive_monitors(mindspore, values, "acc")
