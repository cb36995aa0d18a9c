"""OnRequestExit: a signal stops Model.train after the step, the net is saved, and the next run resumes."""
import os
import signal

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.train import Callback, Model


class _SignalAt(Callback):
    def __init__(self, step):
        self.step, self.steps = step, 0

    def on_train_step_end(self, run_context):
        self.steps += 1
        if self.steps == self.step:
            os.kill(os.getpid(), signal.SIGUSR1)


def _data():
    rng = np.random.default_rng(0)
    return [(rng.standard_normal((4, 2)).astype(np.float32), rng.standard_normal((4, 1)).astype(np.float32))
            for _ in range(6)]


def test_signal_stops_training_after_the_step_and_saves_the_network(tmp_path):
    ms.set_seed(0)
    net = nn.Dense(2, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    exit_cb = ms.OnRequestExit(directory=str(tmp_path), file_name="Lin", sig=signal.SIGUSR1)
    counter = _SignalAt(2)
    previous = signal.getsignal(signal.SIGUSR1)
    model.train(3, _data(), callbacks=[counter, exit_cb])
    assert counter.steps == 2 and exit_cb.exit
    assert signal.getsignal(signal.SIGUSR1) is previous
    saved = tmp_path / "rank_0" / "Lin_train.ckpt"
    assert saved.is_file()
    params = ms.load_checkpoint(str(saved))
    np.testing.assert_allclose(params["weight"].asnumpy(), net.weight.asnumpy())

    fresh = nn.Dense(2, 1)
    resumed = ms.OnRequestExit(directory=str(tmp_path), file_name="Lin", sig=signal.SIGUSR1)
    at_start = {}

    class Probe(Callback):
        def on_train_begin(self, run_context):
            at_start["weight"] = fresh.weight.asnumpy().copy()

    Model(fresh, nn.MSELoss(), nn.SGD(fresh.trainable_params(), 0.1)).train(1, _data()[:1],
                                                                          callbacks=[resumed, Probe()])
    np.testing.assert_allclose(at_start["weight"], net.weight.asnumpy())  # loaded before the first step
    assert not (tmp_path / "rank_0" / "Lin_eval.ckpt").exists()


def test_on_request_exit_checks_its_arguments():
    with pytest.raises(TypeError, match="For 'OnRequestExit', the 'save_ckpt' must be bool, but got int."):
        ms.OnRequestExit(save_ckpt=1)
    with pytest.raises(TypeError, match="the 'sig' must be int, but got str"):
        ms.OnRequestExit(sig="TERM")
    with pytest.raises(ValueError, match="^Not support send exit request by signal SIGKILL.$"):
        ms.OnRequestExit(sig=signal.SIGKILL)
