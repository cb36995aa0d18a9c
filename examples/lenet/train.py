"""Train LeNet-5 with ``Model.train`` — the MindJAX main job.

With no arguments: GRAPH mode, the scikit-learn digits, 15 epochs; prints the
held-out accuracy and where the checkpoint, TensorBoard summaries and the
curves PNG were written (under ``runs/``).

    python examples/lenet/train.py [--mode pynative] [--sink] [--amp O2]
        [--epochs N] [--data-dir MNIST_DIR] [--devices N]

Under ``mindjax-run --worker_num P`` (or any launch ``communication.init``
understands) it trains data parallel over the P processes, as MindSpore's
distributed LeNet does:

- ``--batch-size`` is per device, so a step sees ``batch_size * devices * P``
  images, and each rank reads its own shard of the training data
  (``num_shards=P, shard_id=get_rank()``); every rank evaluates on the whole
  held-out set, so all ranks print the same accuracy;
- the ranks share one run folder (rank 0 picks its name); each rank writes its
  checkpoints to ``checkpoint/rank_<id>/`` (MindSpore's per-rank layout; in
  data parallel they hold the same weights); the TensorBoard summaries and the
  curves come from rank 0 only, and only rank 0 prints.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["graph", "pynative"], default="graph")
    parser.add_argument("--sink", action="store_true", help="dataset sink mode (one XLA call per epoch)")
    parser.add_argument("--amp", choices=["O0", "O1", "O2", "O3"], default="O0")
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.02, help="peak of the cosine learning rate")
    parser.add_argument("--data-dir", default=None, help="directory with MNIST idx files")
    parser.add_argument("--devices", type=int, default=1,
                        help="data parallel over N devices (virtual CPU devices when no accelerator)")
    parser.add_argument("--out", default="runs", help="where runs are written")
    parser.add_argument("--no-progress", action="store_true")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train, evaluate, save; return the final metrics and output paths."""
    args = parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from examples._common import set_device_count

    set_device_count(args.devices)

    import mindjax as ms
    from mindjax import nn
    from mindjax.communication import get_group_size, get_rank, init
    from mindjax.train import (CheckpointConfig, Callback, Model, ModelCheckpoint, ProgressBar,
                               SummaryCollector)
    from examples.lenet.data import digits_datasets, mnist_datasets
    from examples.lenet.lenet import LeNet5

    init()  # one process: only records that; under mindjax-run: joins the job
    rank, ranks = get_rank(), get_group_size()
    lead = rank == 0
    ms.set_seed(1)
    ms.set_context(mode=ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE)
    if ranks > 1:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    elif args.devices > 1:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                     device_num=args.devices)
    rank_batch = args.batch_size * max(args.devices, 1)  # what this process feeds per step
    if args.data_dir:
        train_ds, test_ds = mnist_datasets(args.data_dir, rank_batch, ranks, rank)
        data_name = f"MNIST from {args.data_dir}"
    else:
        train_ds, test_ds = digits_datasets(rank_batch, ranks, rank)
        data_name = "scikit-learn digits (1,437 train / 360 held out, 8x8 upsampled to 32x32)"

    run_dir = Path(args.out) / _run_name(ranks)
    ckpt_dir, summary_dir = run_dir / "checkpoint", run_dir / "summary"
    if ranks > 1:
        ckpt_dir = ckpt_dir / f"rank_{rank}"

    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    steps = train_ds.get_dataset_size()
    lr = nn.cosine_decay_lr(0.0, args.lr, steps * args.epochs, steps, args.epochs)
    opt = nn.Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9)
    model = Model(net, loss_fn=loss, optimizer=opt, metrics={"accuracy", "loss"}, amp_level=args.amp)

    class EvalEachEpoch(Callback):
        """Evaluate on the held-out set after every epoch (as the model zoo's EvalCallBack)."""

        def __init__(self) -> None:
            super().__init__()
            self.train_loss: list[float] = []
            self.accuracy: list[float] = []

        def on_train_epoch_end(self, run_context: Any) -> None:
            cb = run_context.original_args()
            outputs = cb.net_outputs
            self.train_loss.append(float(outputs[0] if isinstance(outputs, (tuple, list)) else outputs))
            self.accuracy.append(float(model.eval(test_ds)["accuracy"]))

    evaluator = EvalEachEpoch()
    callbacks = [evaluator,
                 ModelCheckpoint(prefix="lenet", directory=str(ckpt_dir),
                                 config=CheckpointConfig(save_checkpoint_steps=steps, keep_checkpoint_max=2))]
    if lead:
        callbacks.append(SummaryCollector(summary_dir=str(summary_dir), collect_freq=steps))
        if not args.no_progress:
            callbacks.append(ProgressBar(update_freq=max(steps // 4, 1)))

    say = print if lead else (lambda *_a, **_k: None)
    processes = f" x {ranks} processes" if ranks > 1 else ""
    say(f"MindJAX {ms.__version__}: LeNet-5, {args.mode} mode, amp {args.amp}, "
        f"{'sink' if args.sink else 'no sink'}, {args.devices} device(s){processes}; data: {data_name}")
    start = time.perf_counter()
    model.train(args.epochs, train_ds, callbacks=callbacks, dataset_sink_mode=args.sink)
    seconds = time.perf_counter() - start
    final = model.eval(test_ds)

    curves = run_dir / "curves.png"
    if lead:
        _plot(evaluator.train_loss, evaluator.accuracy, curves)
    ckpts = sorted(str(p) for p in ckpt_dir.glob("*.ckpt"))
    say(f"\nheld-out accuracy {final['accuracy']:.4f}, loss {final['loss']:.4f}, "
        f"{args.epochs} epochs in {seconds:.1f} s")
    say(f"checkpoint:  {ckpts[-1] if ckpts else '(none)'}" + (" (one folder per rank)" if ranks > 1 else ""))
    say(f"TensorBoard: tensorboard --logdir {summary_dir}")
    say(f"curves:      {curves}")
    return {"rank": rank, "ranks": ranks, "accuracy": float(final["accuracy"]), "loss": float(final["loss"]),
            "seconds": seconds, "checkpoints": ckpts, "summary_dir": str(summary_dir), "curves": str(curves),
            "epoch_accuracy": evaluator.accuracy, "epoch_loss": evaluator.train_loss}


def _run_name(ranks: int) -> str:
    """``lenet-<date>-<time>``; in a job of several processes, rank 0's, so that all share one folder."""
    stamp = int(time.time())
    if ranks > 1:
        import numpy as np
        from jax.experimental import multihost_utils

        stamp = int(multihost_utils.broadcast_one_to_all(np.int64(stamp)))
    return time.strftime("lenet-%Y%m%d-%H%M%S", time.localtime(stamp))


def _plot(loss: list[float], accuracy: list[float], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = range(1, len(loss) + 1)
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
    left.plot(epochs, loss, marker="o")
    left.set(title="training loss (last step of each epoch)", xlabel="epoch", ylabel="loss")
    right.plot(epochs, accuracy, marker="o", color="tab:green")
    right.set(title="held-out accuracy", xlabel="epoch", ylabel="accuracy", ylim=(0, 1))
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    main()
