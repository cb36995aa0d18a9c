"""Training-step speed: ``Model.train`` against a hand-written ``jax.jit`` + optax step, and against MindSpore.

Two networks: LeNet-5 (batch 32, 1x32x32 inputs) and an MLP 784-512-512-10
(batch 64), trained with Momentum(lr=0.01, 0.9) on sparse softmax
cross-entropy. For each, one table row per measurement:

- the hand-written step: ``jax.jit`` of loss, ``jax.grad`` and
  ``optax.sgd(momentum=0.9)``, donating its state, starting from the Model's
  initial weights (checked to reach the same weights after a few steps);
- ``Model.train`` without sink, fed the same device arrays, in GRAPH and in
  PYNATIVE mode (``Model`` compiles its step in both);
- ``Model.train`` fed by a ``mindjax.dataset`` pipeline, without and with sink mode;
- MindSpore 2.x GRAPH-mode ``Model.train`` (non-sink, its own
  ``NumpySlicesDataset``) on the same architecture, when ``mindspore`` imports;
- the first step's compile time, and the peak memory of the compiled step
  (``memory_analysis``: arguments + outputs - aliased + temporaries).

Times are the best of a few repeats of whole ``train`` calls, divided by the steps.

Run: ``python -m benchmarks.train_step [--steps 60] [--no-mindspore] [--timer cpu] [--nets LeNet-5]``
"""
from __future__ import annotations

import argparse
import os
import time
from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np
import optax

import mindjax as ms
import mindjax.dataset as ds
from mindjax import nn
from mindjax.train import Model
from benchmarks._timing import markdown_table

LR, MOMENTUM = 0.01, 0.9


class LeNet5(nn.Cell):
    """LeNet-5 as in MindSpore's model zoo: two valid 5x5 convolutions (no bias), three Dense layers."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.flatten(x)
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


class MLP(nn.Cell):
    """784-512-512-10 with ReLU."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Dense(784, 512)
        self.fc2 = nn.Dense(512, 512)
        self.fc3 = nn.Dense(512, 10)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


def _dense(p: dict[str, Any], name: str, x: Any) -> Any:
    return x @ p[f"{name}.weight"].T + p[f"{name}.bias"]


def _conv_valid(x: Any, w: Any) -> Any:
    return jax.lax.conv_general_dilated(x, w, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW"))


def _pool(x: Any) -> Any:
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")


def lenet_forward(p: dict[str, Any], x: Any) -> Any:
    """LeNet-5 in plain JAX over MindSpore-named parameters."""
    x = _pool(jax.nn.relu(_conv_valid(x, p["conv1.weight"])))
    x = _pool(jax.nn.relu(_conv_valid(x, p["conv2.weight"])))
    x = x.reshape(x.shape[0], -1)
    return _dense(p, "fc3", jax.nn.relu(_dense(p, "fc2", jax.nn.relu(_dense(p, "fc1", x)))))


def mlp_forward(p: dict[str, Any], x: Any) -> Any:
    """The MLP in plain JAX over MindSpore-named parameters."""
    return _dense(p, "fc3", jax.nn.relu(_dense(p, "fc2", jax.nn.relu(_dense(p, "fc1", x)))))


CASES = {
    "LeNet-5": (LeNet5, lenet_forward, 32, (1, 32, 32)),
    "MLP 784-512-512-10": (MLP, mlp_forward, 64, (784,)),
}


def _data(batch: int, shape: tuple[int, ...], steps: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(steps * batch, *shape)).astype(np.float32)
    y = rng.integers(0, 10, size=(steps * batch,)).astype(np.int32)
    return x, y


def _model(make: Callable[[], nn.Cell]) -> tuple[Model, nn.Cell]:
    ms.set_seed(0)
    net = make()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return Model(net, loss, nn.Momentum(net.trainable_params(), LR, MOMENTUM)), net


def _hand_step(forward: Callable[..., Any]) -> tuple[Any, Any]:
    opt = optax.sgd(LR, momentum=MOMENTUM)

    def loss_fn(params: Any, x: Any, y: Any) -> Any:
        return optax.softmax_cross_entropy_with_integer_labels(forward(params, x), y).mean()

    def step(params: Any, opt_state: Any, x: Any, y: Any) -> Any:
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return jax.jit(step, donate_argnums=(0, 1)), opt


# The clock of every timing: the wall clock, or process CPU time (``--timer cpu``: all of this
# process's threads, which other jobs on a loaded machine disturb less than the wall clock).
_TIMER: list[Callable[[], float]] = [time.perf_counter]


def _best(fn: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = _TIMER[0]()
        jax.block_until_ready(fn())
        best = min(best, _TIMER[0]() - start)
    return best


def _train_call(model: Model, net: nn.Cell, data: Any, sink: bool, epochs: int) -> Callable[[], Any]:
    def run() -> Any:
        model.train(epochs, data, dataset_sink_mode=sink)
        return [q._value for q in net.get_parameters()]
    return run


def _check_same_first_step(net: nn.Cell, step: Any, opt: Any, batch: tuple[Any, Any]) -> None:
    """The hand-written step from the same initial weights reaches the Model's weights: same model, same math."""
    ms.set_seed(0)
    fresh = {p.name: jnp.array(p._value) for p in type(net)().get_parameters()}
    params, _, _ = step(fresh, opt.init(fresh), *batch)
    for q in net.get_parameters():
        np.testing.assert_allclose(np.asarray(q._value), np.asarray(params[q.name]), rtol=1e-4, atol=1e-5,
                                   err_msg=q.name)


def _peak_bytes(compiled: Any) -> int:
    m = compiled.memory_analysis()
    return int(m.argument_size_in_bytes + m.output_size_in_bytes - m.alias_size_in_bytes + m.temp_size_in_bytes)


def _params(net: nn.Cell) -> dict[str, Any]:
    return {p.name: jnp.array(p._value) for p in net.get_parameters()}


def _pipeline(x: np.ndarray, y: np.ndarray, batch: int) -> Any:
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(batch, drop_remainder=True)


def measure(name: str, steps: int, repeat: int, with_mindspore: bool) -> list[list[str]]:
    """All rows for one network.

    Every variant is compiled first; then each repeat runs every variant once,
    in turn, so a load that changes during the run hits all of them alike.
    """
    make, forward, batch, shape = CASES[name]
    x, y = _data(batch, shape, steps)
    device_batches = [(jnp.asarray(x[i:i + batch]), jnp.asarray(y[i:i + batch])) for i in range(0, len(x), batch)]

    # Hand-written step, from the Model's initial weights; compile time includes the first step.
    _, net = _model(make)
    step, opt = _hand_step(forward)
    state = [_params(net), opt.init(_params(net))]
    start = time.perf_counter()
    params, opt_state, loss = step(state[0], state[1], *device_batches[0])  # donates the old state
    jax.block_until_ready(loss)
    hand_compile = time.perf_counter() - start
    state = [params, opt_state]
    hand_peak = _peak_bytes(step.lower(state[0], state[1], *device_batches[0]).compile())

    def hand_run() -> Any:
        p, s = state
        for xb, yb in device_batches:
            p, s, loss = step(p, s, xb, yb)
        state[:] = [p, s]
        return loss

    runs: dict[str, tuple[Callable[[], Any], int]] = {"hand": (hand_run, steps)}
    # Model.train in GRAPH and PYNATIVE mode on the same device arrays; the first call compiles.
    compile_s: dict[str, float] = {}
    for mode, label in ((ms.GRAPH_MODE, "graph"), (ms.PYNATIVE_MODE, "pynative")):
        ms.set_context(mode=mode)
        model, net = _model(make)
        start = time.perf_counter()
        model.train(1, device_batches[:1])
        jax.block_until_ready([q._value for q in net.get_parameters()])
        compile_s[label] = time.perf_counter() - start
        if label == "graph":
            _check_same_first_step(net, step, opt, device_batches[0])
            model_peak = _peak_bytes(model._train_program().compile(device_batches[0]))
        runs[label] = (_in_mode(mode, _train_call(model, net, device_batches, False, 1)), steps)
    # Fed by a mindjax.dataset pipeline: step by step, and one sink per epoch.
    ms.set_context(mode=ms.GRAPH_MODE)
    for sink in (False, True):
        model, net = _model(make)
        data = _pipeline(x, y, batch)
        model.train(1, data, dataset_sink_mode=sink)
        runs["sink" if sink else "pipeline"] = (_in_mode(ms.GRAPH_MODE, _train_call(model, net, data, sink, 2)),
                                                2 * steps)
    ms.set_context(mode=ms.PYNATIVE_MODE)

    t = {key: float("inf") for key in runs}
    for _ in range(repeat):
        for key, (run, n) in runs.items():
            t[key] = min(t[key], _best(run, 1) / n)

    def ms_(v: float) -> str:
        return f"{v * 1e3:.3f} ms"

    rows = [
        [name, "step time: Model.train (GRAPH, non-sink) / jax.jit+optax", ms_(t["graph"]), ms_(t["hand"]),
         f"{t['graph'] / t['hand']:.3f}", "<= 1.05"],
        [name, "step time: Model.train PYNATIVE / GRAPH", ms_(t["pynative"]), ms_(t["graph"]),
         f"{t['pynative'] / t['graph']:.3f}", "~1"],
        [name, "first step (trace + compile + run): Model.train / jax.jit", f"{compile_s['graph']:.2f} s",
         f"{hand_compile:.2f} s", f"{compile_s['graph'] / hand_compile:.2f}", ""],
        [name, "peak memory of the compiled step: Model / jax.jit", f"{model_peak / 2 ** 20:.2f} MiB",
         f"{hand_peak / 2 ** 20:.2f} MiB", f"{model_peak / hand_peak:.2f}", ""],
        [name, "step time, pipeline-fed: sink / non-sink", ms_(t["sink"]), ms_(t["pipeline"]),
         f"{t['sink'] / t['pipeline']:.3f}", "< 1"],
        [name, "step time, non-sink: pipeline-fed / in-memory arrays", ms_(t["pipeline"]), ms_(t["graph"]),
         f"{t['pipeline'] / t['graph']:.3f}", "<= 1.10"],
    ]
    if with_mindspore:
        jax_rate = batch / t["pipeline"]
        ms_rate, why = _mindspore_images_per_second(name, x, y, batch, repeat)
        label = "images/s, pipeline-fed non-sink: MindJAX / MindSpore GRAPH Model.train"
        if ms_rate is None:
            rows.append([name, label, f"{jax_rate:,.0f}", f"not run ({why})", "", ">= 2"])
        else:
            rows.append([name, label, f"{jax_rate:,.0f}", f"{ms_rate:,.0f}", f"{jax_rate / ms_rate:.2f}", ">= 2"])
    return rows


def _in_mode(mode: int, run: Callable[[], Any]) -> Callable[[], Any]:
    def wrapped() -> Any:
        ms.set_context(mode=mode)
        return run()
    return wrapped


def _mindspore_nets() -> dict[str, Callable[[], Any]]:
    import mindspore.nn as msnn

    class MsLeNet5(msnn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = msnn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = msnn.Conv2d(6, 16, 5, pad_mode="valid")
            self.relu = msnn.ReLU()
            self.pool = msnn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = msnn.Flatten()
            self.fc1 = msnn.Dense(16 * 5 * 5, 120)
            self.fc2 = msnn.Dense(120, 84)
            self.fc3 = msnn.Dense(84, 10)

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.pool(self.relu(self.conv2(x)))
            x = self.flatten(x)
            return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))

    class MsMLP(msnn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = msnn.Dense(784, 512)
            self.fc2 = msnn.Dense(512, 512)
            self.fc3 = msnn.Dense(512, 10)
            self.relu = msnn.ReLU()

        def construct(self, x):
            return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))

    return {"LeNet-5": MsLeNet5, "MLP 784-512-512-10": MsMLP}


class _Batches:
    """Random-access batches ``(x[i*b:(i+1)*b], y[i*b:(i+1)*b])`` for MindSpore's GeneratorDataset."""

    def __init__(self, x: np.ndarray, y: np.ndarray, batch: int) -> None:
        self.x, self.y, self.batch = x, y, batch

    def __len__(self) -> int:
        return len(self.x) // self.batch

    def __getitem__(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        b = self.batch
        return self.x[i * b:(i + 1) * b], self.y[i * b:(i + 1) * b]


def _mindspore_images_per_second(name: str, x: np.ndarray, y: np.ndarray, batch: int,
                                 repeat: int) -> tuple[float | None, str]:
    """MindSpore GRAPH-mode ``Model.train`` images/s (non-sink), or ``(None, why)`` when it cannot run here."""
    try:
        os.environ.setdefault("GLOG_v", "3")
        import mindspore
        import mindspore.dataset as msds
        import mindspore.nn as msnn
    except Exception as exc:  # noqa: BLE001 - not installed, or its dataset module refuses this numpy
        return None, f"mindspore: {type(exc).__name__}"
    mindspore.set_context(mode=mindspore.GRAPH_MODE, device_target="CPU")
    mindspore.set_seed(0)
    net = _mindspore_nets()[name]()
    loss = msnn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = mindspore.train.Model(net, loss, msnn.Momentum(net.trainable_params(), LR, MOMENTUM))
    # Whole batches from a random-access source: MindSpore's NumpySlicesDataset fails on numpy 2's
    # scalar label rows ("Unable to avoid copy"), a batch-level source does not.
    data = msds.GeneratorDataset(_Batches(x, y, batch), column_names=["x", "y"], shuffle=False)
    steps = data.get_dataset_size()
    model.train(1, data, dataset_sink_mode=False)  # compile
    seconds = _best(lambda: model.train(2, data, dataset_sink_mode=False), repeat)
    return 2 * steps * batch / seconds, ""


def main() -> None:
    """Run both networks and print one markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=40, help="steps per timed epoch")
    parser.add_argument("--repeat", type=int, default=4)
    parser.add_argument("--no-mindspore", action="store_true")
    parser.add_argument("--timer", choices=("wall", "cpu"), default="wall",
                        help="cpu: process CPU time, steadier on a loaded machine")
    parser.add_argument("--nets", default=",".join(CASES), help="comma list of: " + ", ".join(CASES))
    args = parser.parse_args()
    _TIMER[0] = time.process_time if args.timer == "cpu" else time.perf_counter
    rows = []
    for name in args.nets.split(","):
        rows += measure(name, args.steps, args.repeat, not args.no_mindspore)
    cores = ds.config.cpu_count()
    print(f"Training step, {cores} CPU cores, {jax.devices()[0].platform}, {args.steps} steps per timed epoch, "
          f"best of {args.repeat}, {args.timer} clock\n")
    print(markdown_table(["network", "measurement", "MindJAX", "baseline", "ratio", "target"], rows))


if __name__ == "__main__":
    main()
