"""Train Wide&Deep on synthetic Criteo-shaped data, the embedding table split over the devices.

    python examples/wide_deep/train.py --devices 8               # hybrid parallel (the default with N > 1)
    python examples/wide_deep/train.py --devices 8 --parallel data_parallel
    python examples/wide_deep/train.py                           # one device

Hybrid parallel is MindSpore's semi-auto Wide&Deep: the tables' rows (the
vocabulary) are split over all devices, the deep MLP is data parallel. The
data is SYNTHETIC (Criteo's shape and id statistics, labels from a hidden
logistic model), so the numbers say nothing about Criteo itself.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["main", "parse_args"]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=1, help="devices (virtual CPU devices when none)")
    parser.add_argument("--parallel", choices=["stand_alone", "data_parallel", "hybrid"], default=None,
                        help="default: hybrid with several devices, else stand_alone")
    parser.add_argument("--batch-size", type=int, default=256, help="global batch size")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--field-vocab", type=int, default=1000, help="ids per categorical field")
    parser.add_argument("--emb-dim", type=int, default=16)
    parser.add_argument("--deep", default="1024,512,256,128", help="hidden widths of the deep MLP")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--sink", action="store_true", help="run --log-every steps per XLA call")
    parser.add_argument("--log-every", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train; return the loss curve and the embedding table's layout."""
    args = parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from examples._common import set_device_count

    set_device_count(args.devices)
    import jax

    import mindjax as ms
    from mindjax import nn
    from mindjax.train import Model
    from examples._common import train_and_log
    from examples.wide_deep.data import criteo_like_dataset, vocab_size_for
    from examples.wide_deep.wide_deep import WideDeepModel, WideDeepWithLoss

    parallel = args.parallel or ("hybrid" if args.devices > 1 else "stand_alone")
    if args.devices > jax.device_count():
        raise ValueError(f"For 'wide_deep/train.py', '--devices' is {args.devices} but JAX sees "
                         f"{jax.device_count()} device(s)")
    devices = 1 if parallel == "stand_alone" else args.devices
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.reset_auto_parallel_context()
    if parallel == "data_parallel":
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                     device_num=devices)
    elif parallel == "hybrid":
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, gradients_mean=True,
                                     device_num=devices)
    ms.set_seed(args.seed)

    vocab = vocab_size_for(args.field_vocab, multiple=max(args.devices, 1))
    deep_dims = tuple(int(d) for d in args.deep.split(","))
    net = WideDeepModel(vocab, emb_dim=args.emb_dim, deep_dims=deep_dims,
                        table_split=devices if parallel == "hybrid" else 1)
    data = criteo_like_dataset(args.batch_size, args.steps, args.field_vocab, seed=args.seed)
    network = WideDeepWithLoss(net)
    # The zoo trains the wide part with FTRL and the deep part with Adam; Adam for both here.
    opt = nn.Adam(network.trainable_params(), learning_rate=args.lr)
    model = Model(network, optimizer=opt)

    print(f"MindJAX {ms.__version__}: Wide&Deep on SYNTHETIC Criteo-shaped data (13 dense + 26 categorical "
          f"fields, vocabulary {vocab}, embedding {args.emb_dim}, deep {deep_dims}), batch {args.batch_size}, "
          f"{args.steps} steps, {parallel} on {devices} device(s)")
    losses, logged, seconds = train_and_log(model, data, args.steps, args.log_every, args.sink)
    table = net.embedding_table._value
    spec = getattr(table.sharding, "spec", None)
    rows = {tuple(s.data.shape) for s in table.addressable_shards}
    print("loss curve: " + ", ".join(f"{step}:{loss:.4f}" for step, loss in logged))
    print(f"embedding_table {tuple(table.shape)}: sharding {spec}, per-device block(s) {sorted(rows)}; "
          f"wide_w: {getattr(net.wide_w._value.sharding, 'spec', None)}")
    print(f"{len(losses)} {'sinks' if args.sink else 'steps'} in {seconds:.1f} s")
    ms.reset_auto_parallel_context()
    return {"losses": losses, "logged": logged, "seconds": seconds, "parallel": parallel, "devices": devices,
            "table_spec": spec, "table_block_shapes": sorted(rows), "table_shape": tuple(table.shape),
            "network": net, "model": model}


if __name__ == "__main__":
    main()
