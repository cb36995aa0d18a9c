"""Data parallel and optimizer parallel on 8 virtual CPU devices, measured from the compiled HLO.

Prints, for an MLP trained with Adam for 3 steps: the loss against single-device
training, the collectives in the compiled step, and per-device memory of the
optimizer state and of the step's arguments (``compiled.memory_analysis()``)
without and with ``enable_parallel_optimizer`` (ZeRO-1 and ZeRO-2).

Run: ``python benchmarks/parallel_data.py [--hidden 512]``
"""
import argparse
import os
import re
import time

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402

import mindjax as ms  # noqa: E402
from mindjax import nn  # noqa: E402


class MLP(nn.Cell):
    def __init__(self, d, hidden):
        super().__init__()
        self.fc1 = nn.Dense(d, hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(hidden, d)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def _count(hlo, op):
    return len(re.findall(rf" {op}(-start)?\(", hlo))


def run(label, d, hidden, batch, **parallel):
    ms.reset_auto_parallel_context()
    ms.set_seed(0)
    if parallel:
        ms.set_auto_parallel_context(**parallel)
    net = MLP(d, hidden)
    opt = nn.Adam(net.trainable_params(), 1e-3)
    model = ms.Model(net, nn.MSELoss(), opt)
    rng = np.random.default_rng(0)
    data = [(rng.normal(size=(batch, d)).astype(np.float32), rng.normal(size=(batch, d)).astype(np.float32))
            for _ in range(3)]
    losses = []
    program = model._train_program()
    start = time.perf_counter()
    for x, y in data:
        losses.append(float(program((x, y))))
    elapsed = time.perf_counter() - start
    compiled = program.compile(data[0])
    hlo = compiled.as_text()
    mem = compiled.memory_analysis()
    moments = [p for p in opt.get_parameters() if p.name.startswith(("moment1", "moment2"))]
    per_device = sum(m._value.addressable_shards[0].data.nbytes for m in moments)
    return {"mode": label, "loss": losses[-1], "all-reduce": _count(hlo, "all-reduce"),
            "reduce-scatter": _count(hlo, "reduce-scatter"), "all-gather": _count(hlo, "all-gather"),
            "opt_state_per_device_KiB": per_device / 1024, "args_per_device_KiB": mem.argument_size_in_bytes / 1024,
            "temp_KiB": mem.temp_size_in_bytes / 1024, "3_steps_s": elapsed}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--d", type=int, default=128)
    parser.add_argument("--hidden", type=int, default=512)
    parser.add_argument("--batch", type=int, default=64)
    a = parser.parse_args()
    dp = dict(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    rows = [run("single device", a.d, a.hidden, a.batch),
            run("data parallel x8", a.d, a.hidden, a.batch, **dp),
            run("DP + ZeRO-1", a.d, a.hidden, a.batch, enable_parallel_optimizer=True, **dp),
            run("DP + ZeRO-2", a.d, a.hidden, a.batch, enable_parallel_optimizer=True,
                parallel_optimizer_config={"optimizer_level": "level2"}, **dp)]
    base = rows[0]["loss"]
    cols = list(rows[0])
    print(" | ".join(f"{c:>24}" if c == "mode" else f"{c:>14}" for c in cols) + " | loss rel. err")
    for r in rows:
        cells = [f"{r[c]:>24}" if c == "mode" else (f"{r[c]:>14.6g}" if isinstance(r[c], float) else f"{r[c]:>14}")
                 for c in cols]
        print(" | ".join(cells) + f" | {abs(r['loss'] - base) / abs(base):.2e}")


if __name__ == "__main__":
    main()
