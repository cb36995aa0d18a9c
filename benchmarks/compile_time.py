"""First and steady training steps, GRAPH or PYNATIVE mode: MindJAX against MindSpore 2.10, same script.

ResNet-50 and DenseNet-121 at 64x64 (``benchmarks/_zoo_nets.py``, written once
against MindSpore's API), batch 8, sparse softmax cross-entropy and Momentum,
as ``TrainOneStepCell(WithLossCell(net, loss), opt)`` called directly in
GRAPH mode. Each side runs in its own fresh process (so neither one's compiler
caches nor threads touch the other), one after the other, on the same data.
The time is from the first call to the loss on the host; the network's
construction is not counted. The steady step is the median of the next
``--steps`` steps. ``--mode pynative`` runs the same directly called
``TrainOneStepCell`` eagerly (MindSpore's default mode; LeNet-5 at 32x32 and
ResNet-18 are the PYNATIVE targets).

MindJAX's child also prints the XLA_FLAGS it compiled with (MindJAX adds its
defaults, see ``mindjax.context``; ``XLA_FLAGS=--xla_cpu_use_fusion_emitters=true``
restores XLA's own) and where its first step goes: tracing (Python running
``construct`` under JAX), lowering to StableHLO, XLA compilation, and the rest
(the run itself, and Python around the call), and how many times each Cell
class was traced.

Run: ``python -m benchmarks.compile_time [--nets resnet50,densenet121] [--batch 8] [--size 64]``
``python -m benchmarks.compile_time --mode pynative --nets lenet5,resnet18 --size 32``
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import time
from typing import Any

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)
_PHASES = {
    "/jax/core/compile/jaxpr_trace_duration": "trace",
    "/jax/core/compile/jaxpr_to_mlir_module_duration": "lower",
    "/jax/core/compile/backend_compile_duration": "xla compile",
}


def _child(name: str, batch: int, size: int, mode: str = "graph", steps: int = 1) -> dict[str, Any]:
    """Build ``name`` with the framework in ``BENCH_FRAMEWORK`` and time its first training step and
    the median of the next ``steps``, in ``mode`` (``"graph"`` or ``"pynative"``)."""
    framework = os.environ.get("BENCH_FRAMEWORK", "mindjax")
    phases: dict[str, float] = collections.defaultdict(float)
    traced: collections.Counter = collections.Counter()
    if framework == "mindspore":
        os.environ.setdefault("GLOG_v", "3")
        import mindspore as ms
        try:  # MindSpore's first PYNATIVE op can fail once per process under numpy 2
            (ms.Tensor(np.ones(2, np.float32)) + 1).asnumpy()
        except Exception:  # noqa: BLE001
            pass
        ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE, device_target="CPU")
    else:
        import jax
        import mindjax as ms
        from mindjax.cells.cell import Cell

        ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)

        def listen(event: str, duration: float, **_: Any) -> None:
            if event in _PHASES:
                phases[_PHASES[event]] += duration
        jax.monitoring.register_event_duration_secs_listener(listen)
        call_impl = Cell._call_impl

        def counting_call_impl(self: Any, args: Any, kwargs: Any) -> Any:
            traced[type(self).__name__] += 1
            return call_impl(self, args, kwargs)
        Cell._call_impl = counting_call_impl  # diagnostic only: counts each Cell's trace
    from benchmarks import _zoo_nets

    ms.set_seed(0)
    net = _zoo_nets.NETS[name]()
    loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = ms.nn.Momentum(net.trainable_params(), 0.01, 0.9)
    step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, loss), opt)
    step.set_train()
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((batch, 3, size, size)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, batch).astype(np.int32))
    start = time.perf_counter()
    first_loss = float(step(x, y).asnumpy())
    first = time.perf_counter() - start
    times = []
    for _ in range(max(steps, 1)):
        start = time.perf_counter()
        step(x, y).asnumpy()
        times.append(time.perf_counter() - start)
    result = {"framework": framework, "net": name, "first_s": first, "second_s": float(np.median(times)),
              "loss": first_loss}
    if framework == "mindjax":
        result["xla_flags"] = os.environ.get("XLA_FLAGS", "")  # MindJAX's defaults included (mindjax.context)
        result["phases"] = dict(phases)
        result["traced"] = dict(traced)
    return result


def _run_child(name: str, framework: str, batch: int, size: int, mode: str = "graph",
               steps: int = 1) -> dict[str, Any]:
    code = (f"import json; from benchmarks.compile_time import _child; "
            f"print('RESULT ' + json.dumps(_child({name!r}, {batch}, {size}, {mode!r}, {steps})))")
    env = dict(os.environ, BENCH_FRAMEWORK=framework)
    env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    proc = subprocess.run([sys.executable, "-c", code], cwd=_ROOT, env=env, capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
    return {"framework": framework, "net": name, "error": " / ".join(tail)}


def _load() -> str:
    try:
        return "load average %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "load average unknown"


def main() -> None:
    """Run every network on both sides and print one markdown table, and MindJAX's phase breakdown."""
    from benchmarks._timing import markdown_table

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nets", default="resnet50,densenet121")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--mode", choices=("graph", "pynative"), default="graph")
    parser.add_argument("--steps", type=int, default=1, help="steady steps timed after the first (median)")
    parser.add_argument("--no-mindspore", action="store_true")
    args = parser.parse_args()
    rows, details = [], []
    before = _load()
    for name in args.nets.split(","):
        mj = _run_child(name, "mindjax", args.batch, args.size, args.mode, args.steps)
        ref = (_run_child(name, "mindspore", args.batch, args.size, args.mode, args.steps)
               if not args.no_mindspore else {"error": "not run"})
        if "error" in mj:
            rows.append([name, f"failed: {mj['error']}", "", "", "<= 1.0"])
            continue
        if "error" in ref:
            rows.append([name, f"{mj['first_s']:.2f} s", f"not run ({ref['error']})", "", "<= 1.0"])
        else:
            rows.append([name, f"{mj['first_s']:.2f} s (then {mj['second_s'] * 1e3:.1f} ms)",
                         f"{ref['first_s']:.2f} s (then {ref['second_s'] * 1e3:.1f} ms)",
                         f"{mj['first_s'] / ref['first_s']:.2f} / {mj['second_s'] / ref['second_s']:.2f}",
                         "<= 1.0"])
        phases = mj["phases"]
        rest = mj["first_s"] - sum(phases.values())
        traced = mj["traced"]
        details.append(f"- {name} (XLA_FLAGS {mj.get('xla_flags', '')!r}): " + ", ".join(f"{k} {v:.2f} s" for k, v in phases.items())
                       + f", rest (run and Python) {rest:.2f} s; Cell traces: "
                       + ", ".join(f"{k} x{v}" for k, v in sorted(traced.items(), key=lambda kv: -kv[1])))
    print(f"First {args.mode.upper()}-mode train step (then the median steady step), batch {args.batch}, "
          f"{args.size}x{args.size}, "
          f"{os.cpu_count()} CPU cores ({before} before, {_load()} after)\n")
    print(markdown_table(["network", "MindJAX", "MindSpore 2.10", "ratio first / steady", "target"], rows))
    print("\nMindJAX's first step by phase:\n" + "\n".join(details))


if __name__ == "__main__":
    main()
