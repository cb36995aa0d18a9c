"""How long the AUTO_PARALLEL search takes on stacks of 2, 12 and 48 GPT blocks (2x4 mesh).

Tracing, graph building and the search are timed separately; the search should
grow about linearly with the number of layers (ops of repeated layers share
their candidate lists and redistribution tables).

Run: ``python -m benchmarks.parallel_search_time``
"""
from __future__ import annotations

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import time  # noqa: E402
from typing import Any  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from benchmarks.parallel_auto import Block, mesh_of  # noqa: E402
from mindjax import nn  # noqa: E402
from mindjax.parallel.auto import CostModel, trace_cell  # noqa: E402
from mindjax.parallel.auto.search import build_graph, search  # noqa: E402


class BlockStack(nn.Cell):
    """``layers`` GPT blocks and a scalar loss."""

    def __init__(self, layers: int, d: int = 64, heads: int = 4) -> None:
        super().__init__()
        self.blocks = nn.CellList([Block(d, heads) for _ in range(layers)])

    def construct(self, x: Any) -> Any:
        for blk in self.blocks:
            x = blk(x)
        return jnp.mean(x * x)


def time_search(layers: int, mode: str = "recursive_programming") -> dict[str, float]:
    """Seconds spent tracing, building the graph and searching for one stack."""
    mesh = mesh_of((2, 4))
    x = jax.ShapeDtypeStruct((8, 16, 64), jnp.float32)
    net = BlockStack(layers)
    t0 = time.perf_counter()
    program = trace_cell(net, (x,))
    t1 = time.perf_counter()
    graph = build_graph(program)
    t2 = time.perf_counter()
    search(graph, dict(mesh.shape), CostModel(dict(mesh.shape)), mode=mode)
    t3 = time.perf_counter()
    return {"layers": layers, "ops": len(program.jaxpr.jaxpr.eqns), "trace_s": t1 - t0,
            "graph_s": t2 - t1, "search_s": t3 - t2}


def main() -> None:
    """Print the table."""
    print(f"{'layers':>6} {'ops':>6} {'trace s':>8} {'graph s':>8} {'search s':>9} {'search ms/layer':>16}")
    for layers in (2, 12, 48):
        r = time_search(layers)
        print(f"{r['layers']:>6} {r['ops']:>6} {r['trace_s']:>8.2f} {r['graph_s']:>8.2f} "
              f"{r['search_s']:>9.2f} {r['search_s'] / layers * 1e3:>16.1f}")


if __name__ == "__main__":
    main()
