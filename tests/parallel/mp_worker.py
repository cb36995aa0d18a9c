"""A worker of the multi-process tests: ``mp_worker.py train OUT_DIR`` or ``mp_worker.py loop``.

``train``: data-parallel LeNetish over the job, each rank feeding its half of
every global batch; saves its parameters to ``OUT_DIR/rank<N>.npz``.
``loop``: trains step after step forever (until a peer is lost).
"""
import os
import sys

import numpy as np

import mindjax as ms
from mindjax import nn
from mindjax.communication import get_group_size, get_rank, init, release
from tests.parallel.nets import LeNetish, batches


def _model():
    ms.set_seed(0)
    net = LeNetish()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return net, ms.Model(net, loss, nn.Momentum(net.trainable_params(), 0.1, 0.9))


def main():
    init()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    rank, size = get_rank(), get_group_size()
    net, model = _model()
    if sys.argv[1] == "train":
        local = [(np.array_split(x, size)[rank], np.array_split(y, size)[rank])
                 for x, y in batches(3)]
        model.train(1, local)
        np.savez(os.path.join(sys.argv[2], f"rank{rank}.npz"),
                 **{p.name: np.asarray(p) for p in net.trainable_params()})
        print(f"done rank {rank} of {size}", flush=True)
        release()
        return
    print(f"ready rank {rank} pid {os.getpid()}", flush=True)
    x, y = batches(1)[0]
    while True:
        model.train(1, [(np.array_split(x, size)[rank], np.array_split(y, size)[rank])])


if __name__ == "__main__":
    main()
