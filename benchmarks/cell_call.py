"""Per-call overhead of a compiled Cell against ``jax.jit`` of the same function.

A 3-layer MLP (784-512-512-10) on batch 1: the call is dominated by dispatch,
so the ratio measures what MindJAX adds to a GRAPH-mode call (gathering the
Parameters' values, the signature lookup, writing state back).

Run: ``python -m benchmarks.cell_call``
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

import mindjax as ms
from mindjax import nn, ops
from benchmarks._timing import markdown_table, per_call_seconds


class MLP(nn.Cell):
    """784-512-512-10 with ReLU."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Dense(784, 512)
        self.fc2 = nn.Dense(512, 512)
        self.fc3 = nn.Dense(512, 10)

    def construct(self, x):
        return self.fc3(ops.relu(self.fc2(ops.relu(self.fc1(x)))))


def run() -> list[list[str]]:
    """Measure both sides; return table rows."""
    ms.set_context(mode=ms.GRAPH_MODE)
    net = MLP()
    x = jnp.asarray(np.random.default_rng(0).normal(size=(1, 784)), jnp.float32)
    params = {p.name: p.value() for p in net.get_parameters()}

    @jax.jit
    def plain(params, x):
        h = jax.nn.relu(x @ params["fc1.weight"].T + params["fc1.bias"])
        h = jax.nn.relu(h @ params["fc2.weight"].T + params["fc2.bias"])
        return h @ params["fc3.weight"].T + params["fc3.bias"]

    np.testing.assert_allclose(net(x), plain(params, x), rtol=1e-5, atol=1e-5)
    t_ms = per_call_seconds(lambda: net(x))
    t_jax = per_call_seconds(lambda: plain(params, x))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    t_eager = per_call_seconds(lambda: net(x), number=20)
    return [
        ["compiled Cell call, MLP batch 1", f"{t_ms * 1e6:.1f} us", f"{t_jax * 1e6:.1f} us",
         f"{t_ms / t_jax:.2f}"],
        ["PYNATIVE Cell call, MLP batch 1", f"{t_eager * 1e6:.1f} us", f"{t_jax * 1e6:.1f} us",
         f"{t_eager / t_jax:.2f}"],
    ]


def main() -> None:
    rows = run()
    print(markdown_table(["benchmark", "MindJAX", "jax.jit", "ratio"], rows))


if __name__ == "__main__":
    main()
