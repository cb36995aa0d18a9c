"""Compilations counted over repeated calls: a program compiles once per signature, never per call."""
import contextlib

import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.train import Model
from mindjax.train._step import sink_runs_on_device

# The programs MindJAX builds: CompiledFunction (GRAPH-mode Cells, ms.jit) and Model's steps.
_PROGRAMS = ("jit(_pure)", "jit(_pure_single)", "jit(_pure_sink)")


class _Counter:
    def __init__(self) -> None:
        self.compiles = 0
        self.active = False

    def __call__(self, event: str, duration: float, **kwargs) -> None:
        if self.active and event == "/jax/core/compile/backend_compile_duration" \
                and kwargs.get("fun_name") in _PROGRAMS:
            self.compiles += 1


_COUNTER = _Counter()
jax.monitoring.register_event_duration_secs_listener(_COUNTER)


@contextlib.contextmanager
def counting():
    _COUNTER.compiles = 0
    _COUNTER.active = True
    try:
        yield _COUNTER
    finally:
        _COUNTER.active = False


def compiles_per_call(fn, calls=4):
    """The number of program compilations of each of ``calls`` calls of ``fn``."""
    counts = []
    for _ in range(calls):
        with counting() as c:
            fn()
        counts.append(c.compiles)
    return counts


class SmallVgg(nn.Cell):
    """Model-zoo VGG in miniature: SequentialCell of conv/BN/ReLU/pool, then Dense/Dropout."""

    def __init__(self):
        super().__init__()
        self.layers = nn.SequentialCell([
            nn.Conv2d(3, 8, 3, pad_mode="pad", padding=1, has_bias=True), nn.BatchNorm2d(8), nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2)])
        self.flatten = nn.Flatten()
        self.classifier = nn.SequentialCell([nn.Dense(8 * 4 * 4, 16), nn.ReLU(), nn.Dropout(p=0.5),
                                             nn.Dense(16, 10)])

    def construct(self, x):
        return self.classifier(self.flatten(self.layers(x)))


def _data():
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((4, 3, 8, 8)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, 4).astype(np.int32))
    return x, y


def test_eval_forward_compiles_once_over_repeated_calls():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = SmallVgg()
    x, _ = _data()
    net.set_train(False)
    assert compiles_per_call(lambda: net(x)) == [1, 0, 0, 0]
    # set_train(False) again, and fresh input Tensors of the same shape, reuse the program.
    assert compiles_per_call(lambda: (net.set_train(False), net(ms.Tensor(x.asnumpy())))) == [0, 0, 0, 0]


def test_eval_after_train_steps_reuses_the_eval_program():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = SmallVgg()
    x, y = _data()
    net.set_train(False)
    net(x)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                      reduction="mean")),
                               nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train()
    assert compiles_per_call(lambda: step(x, y)) == [1, 0, 0, 0]
    net.set_train(False)
    assert compiles_per_call(lambda: net(x)) == [0, 0, 0, 0]
    step.set_train()
    assert compiles_per_call(lambda: step(x, y)) == [0, 0, 0, 0]


def test_model_train_then_eval_and_predict_compile_once_each():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = SmallVgg()
    x, y = _data()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9), metrics={"acc"})
    batches = [(x, y)] * 3
    assert compiles_per_call(lambda: model.train(1, batches)) == [1, 0, 0, 0]
    assert compiles_per_call(lambda: model.eval(batches)) == [1, 0, 0, 0]
    assert compiles_per_call(lambda: model.predict(x)) == [1, 0, 0, 0]
    assert compiles_per_call(lambda: model.train(1, batches)) == [0, 0, 0, 0]
    # On XLA:CPU sink mode trains step by step (as MindSpore there); elsewhere a sink compiles its lax.scan once.
    sink_compiles = 1 if sink_runs_on_device() else 0
    assert compiles_per_call(lambda: model.train(1, batches, dataset_sink_mode=True)) == [sink_compiles, 0, 0, 0]


def test_python_float_argument_compiles_per_value_and_tensor_argument_once():
    # MindSpore's graph mode: a Python scalar is a constant of the graph; a Tensor is an input.
    ms.set_context(mode=ms.GRAPH_MODE)
    net = SmallVgg()
    net.set_train(False)
    x, _ = _data()
    scaled = ms.jit(lambda a, s: net(a) * s)
    values = iter([0.5, 1.5, 2.5, 3.5])
    assert compiles_per_call(lambda: scaled(x, next(values))) == [1, 1, 1, 1]
    assert compiles_per_call(lambda: scaled(x, 1.5)) == [0, 0, 0, 0]
    tensors = iter([0.5, 1.5, 2.5, 3.5])
    assert compiles_per_call(lambda: scaled(x, ms.Tensor(next(tensors), ms.float32))) == [1, 0, 0, 0]


class _MakesParameterEveryCall(nn.Cell):
    def construct(self, x):
        w = ms.Parameter(ms.Tensor(np.full(3, 2.0, np.float32)), name="w")
        return x * w


def test_parameter_built_inside_construct_is_a_local_value_and_compiles_once():
    # Once this looped forever: each trace found a new Variable and traced again.
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _MakesParameterEveryCall()
    x = ms.Tensor(np.ones(3, np.float32))
    assert compiles_per_call(lambda: np.testing.assert_allclose(net(x).asnumpy(), [2.0] * 3)) == [1, 0, 0, 0]


class _LazyCounter(nn.Cell):
    """Creates its state on the first call (as lazily initialised optimizers do) and keeps it."""

    def construct(self, x):
        if "count" not in self.__dict__:
            self.count = ms.Parameter(ms.Tensor(np.zeros((), np.float32)), name="count", requires_grad=False)
        self.count = self.count + 1
        return x + self.count


def test_state_built_lazily_on_the_first_trace_stays_state():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _LazyCounter()
    x = ms.Tensor(np.zeros(2, np.float32))
    # The new Parameter changes the Cell's structure once: the second call compiles for it, then none.
    assert compiles_per_call(lambda: net(x), calls=4) == [1, 1, 0, 0]
    assert float(net.count.asnumpy()) == 4.0


@pytest.mark.parametrize("train", [False, True], ids=["eval", "train"])
def test_repeated_calls_in_either_training_mode_compile_once(train):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = SmallVgg()
    net.set_train(train)
    x, _ = _data()
    assert compiles_per_call(lambda: net(x)) == [1, 0, 0, 0]
