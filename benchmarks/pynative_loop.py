"""A PYNATIVE custom training loop against the same loop in eager JAX.

MindSpore 2.x's default style: ``ms.value_and_grad`` over a forward function
and the optimizer's parameters, then ``optimizer(grads)``, in PYNATIVE mode,
one Python call per step and nothing wrapped in ``ms.jit``. The reference is
the same loop written in eager JAX (no ``jax.jit``): ``jax.value_and_grad`` of
the loss over a parameter dict, then ``optax.sgd(momentum=0.9)``'s update,
op by op. Both train LeNet-5 (batch 32, 1x32x32) with Momentum(0.01, 0.9) on
sparse softmax cross-entropy from the same initial weights, and the losses
of the two loops are checked to agree.

Times are the best of ``--repeat`` runs of ``--steps`` steps, after warm-up
steps that compile what each side compiles (eager JAX caches one executable
per primitive; MindJAX runs each built-in Cell as one program).

Run: ``python -m benchmarks.pynative_loop [--steps 20] [--repeat 5]``
"""
from __future__ import annotations

import argparse
import time
from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np
import optax

import mindjax as ms
from mindjax import nn
from benchmarks._timing import markdown_table
from benchmarks.train_step import LR, MOMENTUM, LeNet5, lenet_forward


def _batches(steps: int, batch: int = 32) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(0)
    return [(rng.normal(size=(batch, 1, 32, 32)).astype(np.float32),
             rng.integers(0, 10, size=(batch,)).astype(np.int32)) for _ in range(steps)]


def mindjax_loop() -> tuple[Callable[[Any, Any], Any], dict[str, np.ndarray]]:
    """A MindSpore-style PYNATIVE step, and the initial weights by name."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.set_seed(0)
    net = LeNet5()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), LR, MOMENTUM)

    def forward(x: Any, y: Any) -> Any:
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    def step(x: Any, y: Any) -> Any:
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    weights = {p.name: p.asnumpy() for p in net.trainable_params()}
    return step, weights


def jax_loop(weights: dict[str, np.ndarray]) -> Callable[[Any, Any], Any]:
    """The same step in eager JAX, from ``weights``; keeps its state in a closure."""
    tx = optax.sgd(LR, momentum=MOMENTUM)
    state = {"params": {k: jnp.asarray(v) for k, v in weights.items()}}
    state["opt"] = tx.init(state["params"])

    def loss_fn(params: Any, x: Any, y: Any) -> Any:
        return optax.softmax_cross_entropy_with_integer_labels(lenet_forward(params, x), y).mean()

    def step(x: Any, y: Any) -> Any:
        loss, grads = jax.value_and_grad(loss_fn)(state["params"], x, y)
        updates, state["opt"] = tx.update(grads, state["opt"], state["params"])
        state["params"] = optax.apply_updates(state["params"], updates)
        return loss

    return step


def _time(step: Callable[[Any, Any], Any], batches: list[Any], repeat: int) -> tuple[float, list[float]]:
    best, losses = float("inf"), []
    for _ in range(repeat):
        start = time.perf_counter()
        out = [step(x, y) for x, y in batches]
        jax.block_until_ready([jnp.asarray(o) for o in out])
        best = min(best, (time.perf_counter() - start) / len(batches))
        losses = [float(o) for o in out]
    return best, losses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    batches = _batches(args.steps)
    ms_step, weights = mindjax_loop()
    jax_step = jax_loop(weights)
    # The first losses, from the same weights and batches, before any timing moves the weights apart.
    first_ms, first_jax = float(ms_step(*batches[0])), float(jax_step(*batches[0]))
    for x, y in batches[1:3]:  # warm-up: each side compiles what it compiles
        ms_step(x, y)
        jax_step(x, y)
    t_ms, _ = _time(ms_step, batches, args.repeat)
    t_jax, _ = _time(jax_step, batches, args.repeat)
    rows = [["PYNATIVE `ms.value_and_grad` + `optimizer(grads)` loop, LeNet-5 batch 32",
             f"{t_ms * 1e3:.2f} ms", f"{t_jax * 1e3:.2f} ms (eager JAX + optax)", f"{t_ms / t_jax:.2f}"],
            ["first-step loss, same weights", f"{first_ms:.6f}", f"{first_jax:.6f}",
             f"diff {abs(first_ms - first_jax):.1e}"]]
    print(markdown_table(["benchmark", "MindJAX", "reference", "ratio (target <= 1.2)"], rows))


if __name__ == "__main__":
    main()
