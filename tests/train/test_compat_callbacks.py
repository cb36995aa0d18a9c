"""Callback details MindSpore scripts read or print: ReduceLROnPlateau's line and the rows in cb_params."""
import numpy as np

from mindjax import nn
from mindjax.train import Callback, ReduceLROnPlateau, RunContext
from tests.train.train_nets import classification_batches, make_model


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


class _RowKinds(Callback):
    """A user callback (fit's evaluation skips the built-in ones, LambdaCallback included, as MindSpore)."""

    def __init__(self):
        self.kinds = []

    def on_train_step_end(self, run_context):
        self.kinds.append(("train", type(run_context.original_args().train_dataset_element)))

    def on_eval_step_end(self, run_context):
        self.kinds.append(("eval", type(run_context.original_args().eval_dataset_element)))


def test_callbacks_see_each_train_and_eval_row_as_a_list_as_from_mindspores_iterators():
    model, _, _ = make_model(metrics={"acc"})
    data = classification_batches(n_batches=2)
    record = _RowKinds()
    model.fit(1, data, data, callbacks=record)
    assert record.kinds == [("train", list)] * 2 + [("eval", list)] * 2
