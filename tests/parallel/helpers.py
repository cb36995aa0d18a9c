"""Helpers of the parallel tests: training runs, HLO collective counts, relative errors."""
import re

import numpy as np

import mindjax as ms
from mindjax import nn
from mindjax.train.callback import Callback
from tests.parallel.nets import LeNetish, batches


class LossRecorder(Callback):
    """Records the loss after every step (every sink in sink mode)."""

    def __init__(self):
        super().__init__()
        self.losses = []

    def on_train_step_end(self, run_context):
        self.losses.append(float(np.asarray(run_context.original_args().net_outputs)))


def train_lenet(optimizer="momentum", steps=3, sink=False, batch=16, **parallel):
    """Train LeNetish for ``steps`` batches of ``batch`` from seed 0; return (losses, {name: params}, model)."""
    ms.reset_auto_parallel_context()
    ms.set_seed(0)
    if parallel:
        ms.set_auto_parallel_context(**parallel)
    net = LeNetish()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = (nn.Momentum(net.trainable_params(), 0.1, 0.9) if optimizer == "momentum"
           else nn.Adam(net.trainable_params(), 0.01))
    model = ms.Model(net, loss, opt)
    recorder = LossRecorder()
    model.train(1, batches(steps, batch=batch), callbacks=[recorder], dataset_sink_mode=sink)
    return recorder.losses, {p.name: np.asarray(p) for p in net.trainable_params()}, model


def count(hlo, op):
    """How many ``op`` instructions (sync or async start) the HLO text holds."""
    return len(re.findall(rf" {op}(-start)?\(", hlo))


def max_rel_err(a, b):
    """The largest relative difference over matching arrays of two dicts."""
    return max(float(np.max(np.abs(a[k] - b[k])) / max(float(np.max(np.abs(a[k]))), 1e-12)) for k in a)
