"""Callback details MindSpore scripts read or print: ReduceLROnPlateau's line."""
import numpy as np

from mindjax import nn
from mindjax.train import ReduceLROnPlateau, RunContext


class _Args(dict):
    def __getattr__(self, key):
        return self[key]


def test_reduce_lr_on_plateau_prints_the_float32_rate_as_mindspore_does(capsys):
    opt = nn.SGD(nn.Dense(2, 2).trainable_params(), 0.2)
    plateau = ReduceLROnPlateau(monitor="eval_loss", factor=0.5, patience=1, verbose=True)
    args = _Args(cur_epoch_num=0, optimizer=opt)
    rc = RunContext(args)
    plateau.on_train_begin(rc)
    for epoch, value in enumerate([0.5, 0.6], 1):
        args.update(cur_epoch_num=epoch, eval_results={"eval_loss": value})
        plateau.on_train_epoch_end(rc)
    assert capsys.readouterr().out == "Epoch 00002: ReduceLROnPlateau reducing learning rate to 0.1.\n"
    assert np.asarray(opt.learning_rate).dtype == np.float32
    assert float(opt.learning_rate) == np.float32(0.1)
