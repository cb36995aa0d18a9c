"""A worker of the multi-process tests: ``mp_worker.py MODE [OUT_DIR]``.

``train``: data-parallel LeNetish over the job, each rank feeding its part of
every global batch; saves its parameters and step losses to ``OUT_DIR/rank<N>.npz``.
``loop``: trains step after step forever (until a peer is lost).
``raise``: like ``loop``, but rank 1 (``MP_FAILING_RANK``) raises after its first step.
``stuck``: like ``loop``, but rank 1 (``MP_FAILING_RANK``) waits forever in Python after its first step.
``exit``: like ``loop``, but rank 1 (``MP_FAILING_RANK``) calls ``sys.exit(3)`` after its first step.
``broadcast``: each rank builds a Dense from its own seed, calls ``parameter_broadcast`` from rank 0, and
saves the parameters to ``OUT_DIR/rank<N>.npz``.
"""
import os
import sys
import threading

import numpy as np

import mindjax as ms
from mindjax import nn
from mindjax.communication import get_group_size, get_rank, init, release
from tests.parallel.helpers import LossRecorder
from tests.parallel.nets import LeNetish, batches


def _model():
    """LeNetish for ``train`` (compared with one process); a one-layer net for the fault modes, which pin
    what the job does around a data-parallel step (its gradient all-reduce), not the step: it compiles faster."""
    ms.set_seed(0)
    net = LeNetish() if sys.argv[1] == "train" else nn.SequentialCell([nn.Flatten(), nn.Dense(64, 10)])
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return net, ms.Model(net, loss, nn.Momentum(net.trainable_params(), 0.1, 0.9))


def main():
    init()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    rank, size = get_rank(), get_group_size()
    if sys.argv[1] == "broadcast":
        ms.set_seed(rank)                    # each process starts from its own weights
        dense = nn.Dense(3, 4)
        ms.parameter_broadcast(dense, dense.parameters_dict(), cur_rank=rank)
        np.savez(os.path.join(sys.argv[2], f"rank{rank}.npz"), **{p.name: np.asarray(p) for p in dense.get_parameters()})
        print(f"done rank {rank} of {size}", flush=True)
        release()
        return
    net, model = _model()
    if sys.argv[1] == "train":
        local = [(np.array_split(x, size)[rank], np.array_split(y, size)[rank])
                 for x, y in batches(3)]
        recorder = LossRecorder()
        model.train(1, local, callbacks=[recorder])
        np.savez(os.path.join(sys.argv[2], f"rank{rank}.npz"), losses=np.asarray(recorder.losses),
                 **{p.name: np.asarray(p) for p in net.trainable_params()})
        print(f"done rank {rank} of {size}", flush=True)
        release()
        return
    x, y = batches(1)[0]
    local = [(np.array_split(x, size)[rank], np.array_split(y, size)[rank])]
    model.train(1, local)
    print(f"ready rank {rank} pid {os.getpid()}", flush=True)
    if rank == int(os.environ.get("MP_FAILING_RANK", "1")) and sys.argv[1] == "raise":
        raise RuntimeError(f"rank {rank} fails on purpose")
    if rank == int(os.environ.get("MP_FAILING_RANK", "1")) and sys.argv[1] == "stuck":
        threading.Event().wait()  # alive, never returns, never joins the next step
    if rank == int(os.environ.get("MP_FAILING_RANK", "1")) and sys.argv[1] == "exit":
        sys.exit(3)
    while True:
        model.train(1, local)


if __name__ == "__main__":
    main()
