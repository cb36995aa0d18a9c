"""Train a small GPT on characters of Python's own standard library, in any of four parallel modes.

    python examples/gpt/train.py --parallel stand_alone
    python examples/gpt/train.py --parallel data_parallel --devices 8
    python examples/gpt/train.py --parallel semi_auto --devices 8     # Megatron strategies via shard()
    python examples/gpt/train.py --parallel auto --devices 8          # searched plan
    python examples/gpt/train.py --parallel all --devices 8           # all four, losses compared

Every mode starts from the same seed and reads the same batches, so the loss
curves agree to float32 rounding; the semi-auto and auto modes print their plan.
Without accelerators, ``--devices N`` makes N virtual CPU devices.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["MODES", "auto_plan_summary", "main", "parse_args", "sample", "semi_auto_plan",
           "train_one"]

MODES = ("stand_alone", "data_parallel", "semi_auto", "auto")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parallel", choices=MODES + ("all",), default="stand_alone")
    parser.add_argument("--devices", type=int, default=1, help="devices (virtual CPU devices when none)")
    parser.add_argument("--mp", type=int, default=None,
                        help="model-parallel ways of the semi-auto plan (default: min(4, devices, heads))")
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--width", type=int, default=128, help="hidden size")
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--context", type=int, default=64, help="sequence length")
    parser.add_argument("--batch-size", type=int, default=32, help="global batch size")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--lr", type=float, default=3e-3, help="peak of the cosine learning rate")
    parser.add_argument("--sink", action="store_true", help="run --log-every steps per XLA call")
    parser.add_argument("--log-every", type=int, default=25, help="steps between printed losses")
    parser.add_argument("--amp", choices=["O0", "bf16"], default="O0",
                        help="bf16: O2 mixed precision in bfloat16 (LayerNorm kept in float32)")
    parser.add_argument("--max-chars", type=int, default=200_000, help="corpus size cap")
    parser.add_argument("--sample", type=int, default=0, help="characters to generate after training")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


def _set_parallel_context(mode: str, devices: int, dp: int) -> None:
    import mindjax as ms

    ms.reset_auto_parallel_context()
    if mode == "data_parallel":
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                     device_num=devices)
    elif mode == "semi_auto":
        # The batch is split over the plan's dp axis only; mp devices hold the same samples.
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, device_num=devices,
                                     dataset_strategy=((dp, 1), (dp, 1)))
    elif mode == "auto":
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.AUTO_PARALLEL, device_num=devices,
                                     search_mode="recursive_programming")


def semi_auto_plan(net: Any) -> str:
    """The recorded strategies of a network: Parameter layouts and operator strategies."""
    from jax.sharding import NamedSharding

    from mindjax.ops.primitives import Primitive

    lines = ["parameters (Cell.shard parameter_plan):"]
    for param in net.get_parameters():
        sharding = getattr(param, "sharding", None)
        if isinstance(sharding, NamedSharding) and any(e is not None for e in sharding.spec):
            lines.append(f"  {param.name}: {sharding.spec}")
    lines.append("operators (Primitive.shard):")
    for path, cell in net.cells_and_names():
        for attr, value in vars(cell).items():
            if isinstance(value, Primitive) and value.in_strategy is not None:
                lines.append(f"  {path}.{attr} {value.name}: in_strategy={value.in_strategy}")
    return "\n".join(lines)


def auto_plan_summary(strategy: dict[str, Any], input_specs: list[Any]) -> str:
    """The searched plan in a few lines: inputs, split Parameters, split matmuls, modelled costs.

    Arguments:
        strategy: ``get_strategy(network)``.
        input_specs: the plan's PartitionSpec per input.
    """
    modelled = strategy["modelled"]
    params = strategy["parameters"]
    split = {k: v for k, v in params.items() if v.strip("P()").replace("None", "").strip(", ")}
    lines = [f"search_mode={strategy['search_mode']} mesh={strategy['mesh']} "
             f"(searched in {modelled['search_seconds'] * 1e3:.0f} ms)",
             f"modelled per step: compute {modelled['compute_s'] * 1e6:.1f} us, communication "
             f"{modelled['comm_s'] * 1e6:.1f} us, memory {modelled['memory_bytes'] / 1e6:.2f} MB/device",
             f"inputs: {', '.join(str(s) for s in input_specs)}",
             f"parameters split ({len(split)} of {len(params)}; the rest replicated):"]
    lines += [f"  {k}: {v}" for k, v in split.items()]
    matmuls = [r for r in strategy["ops"] if r["op"].endswith(("dot_general", "dot_general:2", "gather"))]
    lines.append("matmuls and gathers (MindSpore split counts per operand):")
    lines += [f"  {r['op']}: {r['strategy']}" for r in matmuls]
    return "\n".join(lines)


def train_one(args: argparse.Namespace, mode: str) -> dict[str, Any]:
    """Train in one parallel mode; return the loss curve, timings and the plan text."""
    import numpy as np

    import mindjax as ms
    from mindjax import nn
    from mindjax.parallel import auto_parallel, get_strategy
    from mindjax.train import Model
    from examples._common import train_and_log
    from examples.gpt.data import VOCAB_SIZE, corpus_dataset
    from examples.gpt.gpt import GPT, GPTConfig, GPTWithLoss, ParallelConfig

    config = GPTConfig(vocab_size=VOCAB_SIZE, seq_length=args.context, hidden_size=args.width,
                       num_layers=args.layers, num_heads=args.heads)
    devices = args.devices if mode != "stand_alone" else 1
    mp = args.mp or max(1, min(4, devices, args.heads))
    dp = max(devices // mp, 1)
    ms.set_context(mode=ms.GRAPH_MODE)
    _set_parallel_context(mode, devices, dp)
    ms.set_seed(args.seed)

    data = corpus_dataset(args.batch_size, args.steps, args.context, args.max_chars, seed=args.seed)
    gpt = GPT(config, ParallelConfig(dp=dp, mp=mp) if mode == "semi_auto" else None)
    if args.amp == "bf16":
        gpt = ms.amp.auto_mixed_precision(gpt, "O2", ms.bfloat16)
    network = GPTWithLoss(gpt)
    plan = ""
    if mode == "semi_auto":
        plan = f"Megatron plan, dp={dp} x mp={mp}\n" + semi_auto_plan(network)
    elif mode == "auto":
        first = next(iter(data.create_tuple_iterator(num_epochs=1)))
        network = auto_parallel(network, *[np.asarray(x) for x in first])
        plan = auto_plan_summary(get_strategy(network), network.plan.input_specs)
    lr = nn.cosine_decay_lr(args.lr * 0.1, args.lr, args.steps, 1, args.steps)
    opt = nn.AdamWeightDecay(network.trainable_params(), learning_rate=lr, weight_decay=0.01)
    model = Model(network, optimizer=opt)

    if plan:
        print(f"[{mode}] plan:\n{plan}")
    losses, logged, seconds = train_and_log(model, data, args.steps, args.log_every, args.sink)
    print(f"[{mode}] loss curve: " + ", ".join(f"{step}:{loss:.4f}" for step, loss in logged))
    print(f"[{mode}] {len(losses)} {'sinks' if args.sink else 'steps'} in {seconds:.1f} s")
    result = {"mode": mode, "losses": losses, "logged": logged, "seconds": seconds, "plan": plan,
              "dp": dp if mode == "semi_auto" else None, "mp": mp if mode == "semi_auto" else None,
              "network": network, "model": model}
    if args.sample:
        result["sample"] = sample(gpt, args.sample, args.context)
        print(f"[{mode}] sample: {result['sample']!r}")
    return result


def sample(gpt: Any, count: int, context: int, prompt: str = "def ") -> str:
    """Greedy generation of ``count`` characters after ``prompt`` (one compiled shape, left-padded)."""
    import numpy as np

    import mindjax as ms
    from examples.gpt.data import decode, encode

    ms.reset_auto_parallel_context()  # generation runs on one device: batch 1 does not split
    gpt.set_train(False)
    ids = list(encode(prompt))
    for _ in range(count):
        window = ([ord(" ")] * context + ids)[-context:]
        logits = gpt(ms.Tensor(np.asarray([window], np.int32)))
        ids.append(int(np.argmax(np.asarray(logits)[0, -1])))
    return decode(ids)


def _max_rel_diff(a: list[float], b: list[float]) -> float:
    return max(abs(x - y) / max(abs(y), 1e-12) for x, y in zip(a, b))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train in the chosen mode(s); return ``{"runs": {mode: result}, "max_rel_diff": ...}``."""
    args = parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from examples._common import set_device_count

    set_device_count(args.devices)
    import jax

    import mindjax as ms

    modes = MODES if args.parallel == "all" else (args.parallel,)
    if args.devices > jax.device_count():
        raise ValueError(f"For 'gpt/train.py', '--devices' is {args.devices} but JAX sees {jax.device_count()} "
                         f"device(s); set XLA_FLAGS=--xla_force_host_platform_device_count before starting")
    print(f"MindJAX {ms.__version__}: GPT {args.layers} layers, width {args.width}, {args.heads} heads, "
          f"context {args.context}, batch {args.batch_size}, {args.steps} steps on characters of the "
          f"standard library; modes {', '.join(modes)} on {args.devices} device(s) ({jax.devices()[0].platform})")
    runs = {mode: train_one(args, mode) for mode in modes}
    ms.reset_auto_parallel_context()
    out: dict[str, Any] = {"runs": runs}
    if len(runs) > 1:
        base = runs[modes[0]]["losses"]
        diffs = {m: _max_rel_diff(r["losses"], base) for m, r in runs.items()}
        out["max_rel_diff"] = max(diffs.values())
        print("\n| mode | first loss | last loss | max rel. diff vs stand_alone | seconds |")
        print("|---|---|---|---|---|")
        for m, r in runs.items():
            print(f"| {m} | {r['losses'][0]:.5f} | {r['losses'][-1]:.5f} | {diffs[m]:.2e} | {r['seconds']:.1f} |")
    return out


if __name__ == "__main__":
    main()
