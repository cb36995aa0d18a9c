"""Per-call overhead of a compiled Cell against ``jax.jit`` of the same function.

Two 3-layer MLPs on batch 1, called with an ``ms.Tensor`` as a MindSpore script
does: 16-32-32-4, where the call is all dispatch, so the ratio is what MindJAX
adds to a GRAPH-mode call (gathering the Parameters' values, the signature
lookup, writing state back, wrapping the result); and 784-512-512-10.

Run: ``python -m benchmarks.cell_call [--timer wall|cpu]`` (``cpu``: process CPU time, steadier
on a loaded machine).
"""
from __future__ import annotations

import argparse
import time
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

import mindjax as ms
from mindjax import nn, ops
from benchmarks._timing import markdown_table, per_call_seconds


class MLP(nn.Cell):
    """Three Dense layers with ReLU between them."""

    def __init__(self, sizes: tuple[int, int, int, int]) -> None:
        super().__init__()
        self.fc1 = nn.Dense(sizes[0], sizes[1])
        self.fc2 = nn.Dense(sizes[1], sizes[2])
        self.fc3 = nn.Dense(sizes[2], sizes[3])

    def construct(self, x):
        return self.fc3(ops.relu(self.fc2(ops.relu(self.fc1(x)))))


@jax.jit
def _plain(params, x):
    h = jax.nn.relu(x @ params["fc1.weight"].T + params["fc1.bias"])
    h = jax.nn.relu(h @ params["fc2.weight"].T + params["fc2.bias"])
    return h @ params["fc3.weight"].T + params["fc3.bias"]


def _rows(sizes: tuple[int, int, int, int], timer: Any = time.perf_counter) -> list[list[str]]:
    ms.set_context(mode=ms.GRAPH_MODE)
    net = MLP(sizes)
    data = np.random.default_rng(0).normal(size=(1, sizes[0])).astype(np.float32)
    x = ms.Tensor(data)                       # what a MindSpore script passes
    x_jax = jnp.asarray(data)
    params = {p.name: p.value() for p in net.get_parameters()}
    np.testing.assert_allclose(net(x).asnumpy(), np.asarray(_plain(params, x_jax)), rtol=1e-5, atol=1e-5)
    t_ms, t_jax = float("inf"), float("inf")
    for _ in range(3):  # interleaved, so a changing load hits both alike
        t_ms = min(t_ms, per_call_seconds(lambda: net(x), timer=timer))
        t_jax = min(t_jax, per_call_seconds(lambda: _plain(params, x_jax), timer=timer))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    t_eager = per_call_seconds(lambda: net(x), number=20, timer=timer)
    name = "-".join(str(n) for n in sizes)
    return [
        [f"compiled Cell call, MLP {name} batch 1", f"{t_ms * 1e6:.1f} us", f"{t_jax * 1e6:.1f} us",
         f"{t_ms / t_jax:.2f}"],
        [f"PYNATIVE Cell call, MLP {name} batch 1", f"{t_eager * 1e6:.1f} us", f"{t_jax * 1e6:.1f} us",
         f"{t_eager / t_jax:.2f}"],
    ]


def run(timer: Any = time.perf_counter) -> list[list[str]]:
    """Measure both sides for a small MLP (dispatch-bound: the ratio is MindJAX's per-call cost)
    and a larger one; return table rows."""
    return _rows((16, 32, 32, 4), timer) + _rows((784, 512, 512, 10), timer)


def main() -> None:
    parser = argparse.ArgumentParser(description="Per-call overhead of a compiled Cell against jax.jit.")
    parser.add_argument("--timer", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    rows = run(time.process_time if args.timer == "cpu" else time.perf_counter)
    print(markdown_table(["benchmark", "MindJAX", "jax.jit", "ratio"], rows))


if __name__ == "__main__":
    main()
