"""Pipeline stages hold only their own weights: per-device memory for 1, 2 and 4 stages on 8 virtual devices.

The network is 8 blocks of ``Dense(256, 256)`` and a ``Dense(256, 10)`` head,
trained with Adam through ``Model.train`` (``SEMI_AUTO_PARALLEL``,
``device_num=8``); with S stages, blocks ``2k`` ... go to stage ``k * S // 8``
and the head to the last stage (``nn.PipelineCell``, 4 micro-batches, 1F1B).
For each S it prints, per device and for the most loaded one:

* the weights and the optimizer state, summed from the arrays' shards
  (``p.value().addressable_shards``), as a share of the whole model's;
* ``compiled.memory_analysis()`` of the training step: arguments, outputs,
  temporaries (XLA reports them per device for an SPMD program);
* the loss of 4 steps against the unpipelined network, and the step time
  after the first (compiling) step.

Run: ``python benchmarks/pipeline_memory.py [--stages 1 2 4] [--blocks 8] [--width 256]``
"""
import argparse
import os
import time

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402

import mindjax as ms  # noqa: E402
from mindjax import nn  # noqa: E402


class Blocks(nn.Cell):
    def __init__(self, blocks, width, classes=10):
        super().__init__()
        self.blocks = nn.CellList([nn.Dense(width, width, activation="relu") for _ in range(blocks)])
        self.head = nn.Dense(width, classes)

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def _per_device(params):
    out = {}
    for p in params:
        for shard in p.value().addressable_shards:
            out[shard.device.id] = out.get(shard.device.id, 0) + shard.data.nbytes
    return out


def run(stages, blocks, width, batch=32, micro=4, steps=4):
    """Train ``steps`` steps with ``stages`` stages; return the losses and the memory figures."""
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.reset_auto_parallel_context()
    ms.set_seed(0)
    context = dict(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, device_num=8)
    if stages > 1:
        context.update(pipeline_stages=stages, pipeline_config={"pipeline_scheduler": "1f1b"})
    ms.set_auto_parallel_context(**context)
    net = Blocks(blocks, width)
    loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    if stages > 1:
        for i, block in enumerate(net.blocks):
            block.pipeline_stage = i * stages // blocks
        net.head.pipeline_stage = stages - 1
        loss = nn.PipelineCell(loss, micro)
    opt = nn.Adam(net.trainable_params(), 1e-3)
    model = ms.Model(loss, optimizer=opt)
    rng = np.random.default_rng(0)
    data = [(rng.normal(size=(batch, width)).astype(np.float32), rng.integers(0, 10, size=(batch,)).astype(np.int32))
            for _ in range(steps)]
    program = model._train_program()
    losses = []
    times = []
    for x, y in data:
        start = time.perf_counter()
        losses.append(float(np.asarray(program((x, y)))))
        times.append(time.perf_counter() - start)
    elapsed = float(np.median(times[1:])) if len(times) > 1 else times[0]  # the first step compiles
    weights = list(net.trainable_params())
    state = [p for p in opt.get_parameters() if p.name.startswith(("moment1.", "moment2."))]
    w_dev, s_dev = _per_device(weights), _per_device(state)
    w_total = sum(int(np.prod(p.shape)) * 4 for p in weights)
    s_total = sum(int(np.prod(p.shape)) * 4 for p in state)
    mem = program.compile(data[0]).memory_analysis()
    ms.reset_auto_parallel_context()
    return {"losses": losses, "step_s": elapsed, "weights": max(w_dev.values()) / w_total,
            "state": max(s_dev.values()) / s_total, "w_dev": w_dev, "w_total": w_total,
            "args": mem.argument_size_in_bytes, "out": mem.output_size_in_bytes,
            "temp": mem.temp_size_in_bytes, "alias": mem.alias_size_in_bytes}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stages", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--blocks", type=int, default=8)
    parser.add_argument("--width", type=int, default=256)
    args = parser.parse_args()
    results = {s: run(s, args.blocks, args.width) for s in args.stages}
    base = results[args.stages[0]]
    kib = 1024.0
    print(f"{args.blocks} blocks of Dense({args.width}, {args.width}) + head, Adam, 8 virtual devices; "
          f"whole model: weights {base['w_total'] / kib:.0f} KiB, optimizer state {2 * base['w_total'] / kib:.0f} KiB")
    print()
    print("| stages | weights, most loaded device | optimizer state, most loaded | 1/stages + 10% "
          "| step arguments per device (memory_analysis) | outputs | temporaries | args vs 1 stage "
          "| max loss diff vs 1 stage | step (after compile) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s, r in results.items():
        diff = float(np.max(np.abs(np.array(r["losses"]) - np.array(base["losses"]))))
        print(f"| {s} | {100 * r['weights']:.1f}% | {100 * r['state']:.1f}% | {100 * (1 / s + 0.1):.0f}% "
              f"| {r['args'] / kib:.0f} KiB | {r['out'] / kib:.0f} KiB | {r['temp'] / kib:.0f} KiB "
              f"| {r['args'] / base['args']:.3f} | {diff:.1e} | {1e3 * r['step_s']:.1f} ms |")
    print()
    for s, r in results.items():
        print(f"stages={s}: weight bytes per device {dict(sorted(r['w_dev'].items()))}")


if __name__ == "__main__":
    main()
