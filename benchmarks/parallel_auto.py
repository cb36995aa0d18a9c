"""AUTO_PARALLEL against hand-written plans, measured from the compiled HLO on 8 CPU devices.

Two targets:

* an MLP block (d -> 4d -> d) on a 1x8 mesh: the automatic plan with no
  annotations is column-then-row (one all-reduce in the forward pass, none
  between the matmuls), as the hand-written Megatron plan;
* a 4-layer GPT (d=64) on a 2x4 mesh: the automatic plan's per-device memory and
  communicated bytes against data parallel (batch over all 8 devices),
  Megatron (batch over ``dp``, tensor parallel over ``mp``) and FSDP (batch
  and every Parameter over all 8 devices), under a memory budget.

The budget is not tuned: it models a device that cannot hold the replicated
training state, half of the data-parallel plan's measured peak (CPU devices
report no memory of their own; on GPU/TPU the search's default is 90% of the
device's memory). The automatic plan is searched, its candidates are compiled
and the fastest by the cost model's constants applied to the *measured*
flops and collectives is taken among those whose measured peak fits.

Every plan trains 3 steps; its losses are compared with single-device training.

Run: ``python -m benchmarks.parallel_auto``
"""
from __future__ import annotations

import os
import time

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

from typing import Any, Callable  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

import mindjax as ms  # noqa: E402
from mindjax import nn  # noqa: E402
from mindjax.parallel.auto import CostModel, auto_parallel, get_strategy, xla_report  # noqa: E402
from mindjax.parallel.auto.verify import measured_seconds  # noqa: E402
from mindjax.transforms.jit import compiled_for_cell  # noqa: E402


class MLP(nn.Cell):
    """The transformer MLP block: d -> 4d -> d with GELU."""

    def __init__(self, d: int) -> None:
        super().__init__()
        self.fc1 = nn.Dense(d, 4 * d)
        self.fc2 = nn.Dense(4 * d, d)

    def construct(self, x: Any) -> Any:
        return self.fc2(jax.nn.gelu(self.fc1(x)))


class MSELoss(nn.Cell):
    """Mean squared error of ``net(x)`` against ``y``."""

    def __init__(self, net: nn.Cell) -> None:
        super().__init__()
        self.net = net

    def construct(self, x: Any, y: Any) -> Any:
        return jnp.mean((self.net(x) - y) ** 2)


class Block(nn.Cell):
    """A pre-norm GPT block: causal multi-head attention and an MLP, with residuals."""

    def __init__(self, d: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm((d,))
        self.q = nn.Dense(d, d)
        self.k = nn.Dense(d, d)
        self.v = nn.Dense(d, d)
        self.proj = nn.Dense(d, d)
        self.ln2 = nn.LayerNorm((d,))
        self.fc1 = nn.Dense(d, 4 * d)
        self.fc2 = nn.Dense(4 * d, d)

    def _heads(self, t: Any) -> Any:
        b, s, d = t.shape
        return t.reshape(b, s, self.heads, d // self.heads).transpose(0, 2, 1, 3)

    def construct(self, x: Any) -> Any:
        b, s, d = x.shape
        a = self.ln1(x)
        q, k, v = self._heads(self.q(a)), self._heads(self.k(a)), self._heads(self.v(a))
        att = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(d // self.heads)
        mask = jnp.tril(jnp.ones((s, s), bool))
        att = jax.nn.softmax(jnp.where(mask, att, -1e9), axis=-1)
        y = jnp.einsum("bhqk,bhkd->bhqd", att, v).transpose(0, 2, 1, 3).reshape(b, s, d)
        x = x + self.proj(y)
        return x + self.fc2(jax.nn.gelu(self.fc1(self.ln2(x))))


class GPT(nn.Cell):
    """A small GPT: token and position embeddings, ``layers`` blocks, a final norm and head."""

    def __init__(self, vocab: int, d: int, heads: int, layers: int, seq: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.pos = ms.Parameter(jnp.asarray(np.random.default_rng(1).normal(0, 0.02, (seq, d)),
                                            jnp.float32), name="pos")
        self.blocks = nn.CellList([Block(d, heads) for _ in range(layers)])
        self.ln = nn.LayerNorm((d,))
        self.head = nn.Dense(d, vocab, has_bias=False)

    def construct(self, ids: Any) -> Any:
        x = self.embed(ids) + self.pos
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln(x))


class LMLoss(nn.Cell):
    """Next-token cross entropy of a language model."""

    def __init__(self, net: nn.Cell) -> None:
        super().__init__()
        self.net = net

    def construct(self, ids: Any, labels: Any) -> Any:
        logp = jax.nn.log_softmax(self.net(ids), axis=-1)
        return -jnp.mean(jnp.take_along_axis(logp, labels[..., None], axis=-1))


# -- hand-written plans: a PartitionSpec per Parameter and per input -----------------------------

_COLUMN = (".q.", ".k.", ".v.", ".fc1.", "head.")
_ROW = (".proj.", ".fc2.")


def megatron_spec(name: str, shape: tuple[int, ...]) -> P:
    """Megatron tensor parallelism over ``mp``: column-split q/k/v/fc1/head, row-split proj/fc2."""
    if any(k in name for k in _COLUMN) or name.startswith(("fc1.", "net.fc1.")):
        return P("mp", None) if len(shape) == 2 else P("mp")
    if (any(k in name for k in _ROW) or name.startswith(("fc2.", "net.fc2."))) and len(shape) == 2:
        return P(None, "mp")
    return P()


def fsdp_spec(name: str, shape: tuple[int, ...], mesh: Mesh) -> P:
    """ZeRO-3 style: each Parameter split over all devices along its largest divisible dimension."""
    n = mesh.devices.size
    dims = sorted(range(len(shape)), key=lambda k: -shape[k])
    for k in dims:
        if shape[k] % n == 0:
            entries: list[Any] = [None] * len(shape)
            entries[k] = tuple(mesh.axis_names)
            return P(*entries)
    return P()


def hand_plan(kind: str, mesh: Mesh) -> tuple[Callable[[str, tuple[int, ...]], P], P]:
    """``(parameter spec function, batch spec)`` of a hand-written plan: dp, megatron or fsdp."""
    everything = tuple(mesh.axis_names)
    if kind == "dp":
        return (lambda n, s: P()), P(everything)
    if kind == "megatron":
        return megatron_spec, P(mesh.axis_names[0])
    if kind == "fsdp":
        return (lambda n, s: fsdp_spec(n, s, mesh)), P(everything)
    raise ValueError(f"unknown plan {kind!r}")


class ShardedInputs(nn.Cell):
    """Runs ``net`` with its inputs constrained to ``sharding`` (a hand-written plan's batch layout)."""

    def __init__(self, net: nn.Cell, sharding: NamedSharding) -> None:
        super().__init__(auto_prefix=False)
        self.net = net
        self.sharding = sharding

    def construct(self, *inputs: Any) -> Any:
        return self.net(*[jax.lax.with_sharding_constraint(x, self.sharding) for x in inputs])


def train(make_net: Callable[[], nn.Cell], batch: tuple[Any, ...], mesh: Mesh | None, kind: str,
          steps: int = 3, budget: float | None = None, cost_model: CostModel | None = None,
          report: bool = True, verify: bool = False) -> dict[str, Any]:
    """Train ``steps`` steps under one plan in GRAPH mode.

    Arguments:
        make_net: builds the network with its loss (seeded the same each time).
        batch: the inputs.
        mesh: the mesh (None with ``kind="single"``).
        kind: ``single``, ``dp``, ``megatron``, ``fsdp`` or ``auto``.
        steps: training steps.
        budget: the per-device memory budget of the automatic search.
        cost_model: the automatic search's machine constants.
        report: also compile the step for XLA's analyses.
        verify: let the automatic search compile and compare its candidates.

    Returns:
        ``{"losses", "xla" (see xla_report), "net", "step"}``.
    """
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    net = make_net()
    if kind == "auto":
        net = auto_parallel(net, *batch, mesh=mesh, search_mode="recursive_programming",
                            memory_budget_bytes=budget, cost_model=cost_model, verify=verify,
                            optimizer_states=cost_model.optimizer_states if cost_model else None)
    elif kind != "single":
        spec_of, batch_spec = hand_plan(kind, mesh)
        for p in net.get_parameters():
            spec = spec_of(p.name, tuple(p.shape))
            object.__setattr__(p, "_raw", jax.device_put(p._value, NamedSharding(mesh, spec)))
        net = ShardedInputs(net, NamedSharding(mesh, batch_spec))
    placed = batch
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    step = nn.TrainOneStepCell(net, opt)
    step.set_train()
    losses = [float(step(*placed)) for _ in range(steps)]
    xla = None
    if report:
        # Lowering runs the step once more (it settles the program's state), so it comes last.
        compiled = compiled_for_cell(step).lower(*placed).compile()
        xla = xla_report(compiled, 8)
    return {"losses": losses, "xla": xla, "net": net, "step": step}


def mlp_case(d: int = 256, batch: int = 64) -> tuple[Callable[[], nn.Cell], tuple[Any, ...]]:
    """The MLP block and a regression batch."""
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(batch, d)), jnp.float32)
    y = jnp.asarray(rng.normal(size=(batch, d)), jnp.float32)
    return (lambda: MSELoss(MLP(d))), (x, y)


def gpt_case(vocab: int = 256, d: int = 64, heads: int = 4, layers: int = 4, seq: int = 16,
             batch: int = 8) -> tuple[Callable[[], nn.Cell], tuple[Any, ...]]:
    """The small GPT and a token batch."""
    rng = np.random.default_rng(0)
    ids = jnp.asarray(rng.integers(0, vocab, (batch, seq)), jnp.int32)
    labels = jnp.asarray(rng.integers(0, vocab, (batch, seq)), jnp.int32)
    return (lambda: LMLoss(GPT(vocab, d, heads, layers, seq))), (ids, labels)


def mesh_of(shape: tuple[int, int]) -> Mesh:
    """A ``(dp, mp)`` mesh over the first 8 devices."""
    return Mesh(np.array(jax.devices()[:8]).reshape(shape), ("dp", "mp"))


def _row(name: str, run: dict[str, Any], base: list[float]) -> str:
    x = run["xla"]
    col = x["collectives"]
    rel = max(abs(a - b) / abs(b) for a, b in zip(run["losses"], base))
    return (f"{name:<10} {x['peak_bytes'] / 1e6:>10.3f} {col['total']['bytes'] / 1e6:>12.3f} "
            f"{col['all-reduce']['count']:>4} {col['all-gather']['count']:>4} "
            f"{col['reduce-scatter']['count']:>4} {col['all-to-all']['count']:>4} {rel:>10.2e}")


def main() -> None:
    """Print both tables."""
    header = (f"{'plan':<10} {'peak MB':>10} {'comm MB':>12} {'AR':>4} {'AG':>4} {'RS':>4} {'A2A':>4} "
              f"{'loss rel':>10}")
    make, batch = mlp_case()
    base = train(make, batch, None, "single", report=False)["losses"]
    print("MLP d=256 -> 1024 -> 256, batch 64, mesh 1x8 (training step)")
    print(header)
    for kind in ("megatron", "auto"):
        run = train(make, batch, mesh_of((1, 8)), kind)
        print(_row(kind, run, base))
        if kind == "auto":
            print("  auto plan:", get_strategy(run["net"])["parameters"])
    make, batch = gpt_case()
    mesh = mesh_of((2, 4))
    model = gpt_cost_model(mesh)
    base = train(make, batch, None, "single", report=False)["losses"]
    runs = {k: train(make, batch, mesh, k) for k in ("dp", "megatron", "fsdp")}
    budget = 0.5 * runs["dp"]["xla"]["peak_bytes"]
    start = time.perf_counter()
    runs["auto"] = train(make, batch, mesh, "auto", budget=budget, cost_model=model, verify=True)
    elapsed = time.perf_counter() - start
    verify_s = runs["auto"]["net"].plan.verify_seconds
    print(f"\nGPT 4 layers d=64 seq 16 batch 8 vocab 256, mesh 2x4, Momentum, budget "
          f"{budget / 1e6:.3f} MB/device (half of data parallel's measured peak)")
    print(header + f" {'step us':>8} {'fits':>5}")
    for kind, run in runs.items():
        secs = measured_seconds(run["xla"], model)
        print(_row(kind, run, base) + f" {secs * 1e6:>8.0f} {str(run['xla']['peak_bytes'] <= budget):>5}")
    plan = runs["auto"]["net"].plan
    print(f"auto: chose '{plan.label}' among {len(plan.candidates)} verified candidates "
          f"(search {plan.search_seconds:.2f} s, candidates + verification {verify_s:.1f} s, "
          f"all with training {elapsed:.1f} s):")
    for r in plan.candidates:
        print(f"  {r['label']:<30} modelled {r['modelled_bytes'] / 1e6:6.3f} MB  peak "
              f"{r['peak_bytes'] / 1e6:6.3f} MB  comm {r['comm_bytes'] / 1e6:6.3f} MB  "
              f"step {r['seconds'] * 1e6:6.0f} us  fits {r['fits']}")
    print(f"  not compiled (fallbacks while a candidate fits, or modelled far over the budget): "
          f"{', '.join(plan.skipped) or 'none'}")
    fitting = {k: r for k, r in runs.items() if k != "auto" and r["xla"]["peak_bytes"] <= budget}
    if fitting:
        best = min(fitting, key=lambda k: measured_seconds(fitting[k]["xla"], model))
        a, b = runs["auto"]["xla"], fitting[best]["xla"]
        print(f"best hand-written plan within the budget (by step time): {best}; auto peak "
              f"{a['peak_bytes'] / b['peak_bytes']:.3f}x, comm "
              f"{a['collectives']['total']['bytes'] / b['collectives']['total']['bytes']:.3f}x, step "
              f"{measured_seconds(a, model) / measured_seconds(b, model):.3f}x of it")
    print("auto plan parameters (first block):")
    print("\n".join(f"  {k}: {v}" for k, v in plan.param_specs.items()
                    if "blocks." not in k or "blocks.0." in k))


def gpt_cost_model(mesh: Mesh) -> CostModel:
    """The cost model for the GPT case: Momentum keeps one state per Parameter."""
    return CostModel(dict(mesh.shape), optimizer_states=1)


def hand_plan_model(make: Callable[[], nn.Cell], batch: tuple[Any, ...], mesh: Mesh, kind: str) -> Any:
    """A hand-written plan costed by the search's model (its layouts imposed, the rest propagated)."""
    from mindjax.parallel.auto import search_plan

    net = make()
    spec_of, batch_spec = hand_plan(kind, mesh)
    specs = {p.name: spec_of(p.name, tuple(p.shape)) for p in net.get_parameters()}
    return search_plan(net, *batch, mesh=mesh, cost_model=gpt_cost_model(mesh), param_specs=specs,
                       input_specs=[batch_spec] * len(batch), search_mode="sharding_propagation")


if __name__ == "__main__":
    main()
