"""Train ResNet-18 or ResNet-50 with ``Model.train``: Momentum, cosine learning rate, amp O2, sink mode.

The configuration is the model zoo's (``resnet18_cifar10`` / ``resnet50_cifar10``):
Momentum 0.9 with weight decay 1e-4, a cosine learning rate per step, O2
mixed precision with a fixed loss scale of 1024, and dataset sink mode.

    python examples/resnet/train.py --data-dir CIFAR10_BIN_DIR [--net resnet50] [--epochs N]
    python examples/resnet/train.py                 # synthetic-data smoke run (labelled as such)
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["LossRecorder", "build", "main", "parse_args"]

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import mindjax as ms  # noqa: E402
from mindjax import amp, nn  # noqa: E402
from mindjax.train import Callback, FixedLossScaleManager, Model  # noqa: E402
from examples.resnet.data import cifar10_datasets, synthetic_datasets  # noqa: E402
from examples.resnet.resnet import resnet18, resnet50  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--net", choices=["resnet18", "resnet50"], default="resnet18")
    parser.add_argument("--data-dir", default=None, help="folder with the CIFAR-10 binary batches")
    parser.add_argument("--epochs", type=int, default=None, help="default: 90 on CIFAR-10, 5 synthetic")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--steps", type=int, default=None,
                        help="steps per epoch (synthetic: its size, default 8; CIFAR-10: a cap)")
    parser.add_argument("--width", type=float, default=1.0, help="channel multiplier (1.0: the zoo's net)")
    parser.add_argument("--image-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.1, help="peak of the cosine learning rate")
    parser.add_argument("--amp", choices=["O0", "O2"], default="O2")
    parser.add_argument("--amp-dtype", choices=["float16", "bfloat16"], default="float16",
                        help="low-precision type of O2 (bfloat16 needs no loss scale)")
    parser.add_argument("--no-sink", action="store_true", help="one XLA call per step instead of per epoch")
    parser.add_argument("--mode", choices=["graph", "pynative"], default="graph")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


class LossRecorder(Callback):
    """Records the loss each step (each sink in sink mode) ended with, and each epoch's seconds."""

    def __init__(self) -> None:
        super().__init__()
        self.losses: list[float] = []
        self.epoch_seconds: list[float] = []
        self._start = 0.0

    def on_train_epoch_begin(self, run_context: Any) -> None:
        self._start = time.perf_counter()

    def on_train_step_end(self, run_context: Any) -> None:
        out = run_context.original_args().net_outputs
        self.losses.append(float(out[0] if isinstance(out, (tuple, list)) else out))

    def on_train_epoch_end(self, run_context: Any) -> None:
        self.epoch_seconds.append(time.perf_counter() - self._start)


def build(args: argparse.Namespace) -> dict[str, Any]:
    """The network, datasets, optimizer and ``Model`` for ``args`` (shared with the benchmark)."""
    ms.set_seed(args.seed)
    ms.set_context(mode=ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE)
    if args.data_dir:
        train_ds, test_ds = cifar10_datasets(args.data_dir, args.batch_size, args.image_size)
        data_name = f"CIFAR-10 from {args.data_dir}"
        epochs = args.epochs or 90
        if args.steps:
            train_ds = train_ds.take(args.steps)
    else:
        train_ds, test_ds = synthetic_datasets(args.batch_size, args.steps or 8, args.image_size)
        data_name = "SYNTHETIC images (a random pattern per class under noise): a smoke run, not CIFAR-10"
        epochs = args.epochs or 5
    net = (resnet18 if args.net == "resnet18" else resnet50)(class_num=10, width=args.width)
    steps = train_ds.get_dataset_size()
    lr = nn.cosine_decay_lr(0.0, args.lr, steps * epochs, steps, epochs)
    low_bf16 = args.amp == "O2" and args.amp_dtype == "bfloat16"
    loss_scale = 1024.0 if args.amp == "O2" and not low_bf16 else 1.0
    opt = nn.Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9, weight_decay=1e-4,
                      loss_scale=loss_scale)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    if low_bf16:
        # Model's amp_level O2 casts to float16 as MindSpore's does; bfloat16 goes through amp directly.
        net = amp.auto_mixed_precision(net, "O2", ms.bfloat16)
        model = Model(net, loss_fn=loss, optimizer=opt, metrics={"accuracy", "loss"})
    elif args.amp == "O2":
        manager = FixedLossScaleManager(loss_scale, drop_overflow_update=False)
        model = Model(net, loss_fn=loss, optimizer=opt, metrics={"accuracy", "loss"}, amp_level="O2",
                      loss_scale_manager=manager)
    else:
        model = Model(net, loss_fn=loss, optimizer=opt, metrics={"accuracy", "loss"})
    return {"model": model, "net": net, "train": train_ds, "test": test_ds, "epochs": epochs,
            "steps": steps, "data_name": data_name, "synthetic": not args.data_dir}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train and evaluate; return the loss curve, held-out metrics and timings."""
    args = parse_args(argv)
    run = build(args)
    model, epochs, steps = run["model"], run["epochs"], run["steps"]
    sink = not args.no_sink
    recorder = LossRecorder()
    label = "SYNTHETIC SMOKE RUN" if run["synthetic"] else "CIFAR-10"
    print(f"MindJAX {ms.__version__}: {args.net} (width {args.width}) [{label}], {args.mode} mode, "
          f"amp {args.amp}{'/' + args.amp_dtype if args.amp == 'O2' else ''}, "
          f"{'sink' if sink else 'no sink'}, batch {args.batch_size}, {steps} steps x {epochs} epochs")
    print(f"data: {run['data_name']}")
    start = time.perf_counter()
    model.train(epochs, run["train"], callbacks=[recorder], dataset_sink_mode=sink)
    seconds = time.perf_counter() - start
    final = model.eval(run["test"])
    for k, loss in enumerate(recorder.losses):
        print(f"  {'sink' if sink else 'step'} {k + 1:>3}: loss {loss:.4f}")
    print(f"held-out accuracy {final['accuracy']:.4f}, loss {final['loss']:.4f}; "
          f"{epochs} epochs in {seconds:.1f} s" + (" (synthetic data)" if run["synthetic"] else ""))
    steady = recorder.epoch_seconds[1:] or recorder.epoch_seconds
    return {"losses": recorder.losses, "accuracy": float(final["accuracy"]), "eval_loss": float(final["loss"]),
            "seconds": seconds, "steps_per_second": steps / (sum(steady) / len(steady)),
            "synthetic": run["synthetic"], "epochs": epochs, "steps": steps}


if __name__ == "__main__":
    main()
