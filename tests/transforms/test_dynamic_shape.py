"""Dynamic input dimensions: Cell.set_inputs and ms.jit(input_signature=...) trace once for every size."""
import contextlib

import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


@contextlib.contextmanager
def counting_compiles():
    compiles = []

    def listen(event, duration, **kwargs):
        if event == "/jax/core/compile/backend_compile_duration":
            compiles.append(kwargs.get("fun_name"))
    jax.monitoring.register_event_duration_secs_listener(listen)
    try:
        yield compiles
    finally:
        jax.monitoring.unregister_event_duration_listener(listen)


class MeanHead(nn.Cell):
    """Dense, then a mean over the batch: a reduction over the dynamic axis."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 4)
        self.traces = 0

    def construct(self, x):
        self.traces += 1
        return self.fc(x).mean(axis=0)


def _batches(sizes, seed=0):
    rng = np.random.default_rng(seed)
    return [ms.Tensor(rng.standard_normal((n, 3)).astype(np.float32)) for n in sizes]


def test_shape_only_tensor_shows_dynamic_dimensions_as_minus_one():
    t = ms.Tensor(shape=[None, 3], dtype=ms.float32)
    assert t.shape == (-1, 3)
    assert t.dtype == ms.float32
    assert "dynamic" in repr(t)


def test_set_inputs_traces_once_and_compiles_once_per_size_over_ten_batch_sizes():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = MeanHead()
    net.set_inputs(ms.Tensor(shape=[None, 3], dtype=ms.float32))
    sizes = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89]
    batches = _batches(sizes)
    with counting_compiles() as compiles:
        outs = [net(x).asnumpy() for x in batches]
        again = [net(x).asnumpy() for x in batches]  # every size seen: nothing compiles
    assert net.traces == 1
    programs = [c for c in compiles if c.startswith("jit(call")]
    assert len(programs) == len(sizes)  # one executable per distinct size, at most one per bucket
    ms.set_context(mode=ms.PYNATIVE_MODE)
    for x, got, repeat in zip(batches, outs, again):
        np.testing.assert_allclose(got, net(x).asnumpy(), rtol=1e-6, atol=1e-6)  # the mean is exact
        np.testing.assert_array_equal(got, repeat)


def test_jit_input_signature_traces_a_function_once_for_every_size():
    ms.set_context(mode=ms.GRAPH_MODE)
    traces = []

    def total(x, y):
        traces.append(1)
        return (x * y).sum(axis=1)

    fn = ms.jit(total, input_signature=(ms.Tensor(shape=[None, 3], dtype=ms.float32),
                                        ms.Tensor(shape=[None, 3], dtype=ms.float32)))
    for x in _batches([2, 4, 7]):
        np.testing.assert_allclose(fn(x, x).asnumpy(), (x.asnumpy() ** 2).sum(axis=1), rtol=1e-6)
    assert len(traces) == 1


def test_training_step_with_dynamic_batch_traces_once_and_updates_weights():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    net = nn.Dense(3, 2)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
                               nn.SGD(net.trainable_params(), 0.1))
    step.set_train()
    step.set_inputs(ms.Tensor(shape=[None, 3], dtype=ms.float32), ms.Tensor(shape=[None], dtype=ms.int32))
    rng = np.random.default_rng(1)
    before = net.weight.asnumpy().copy()
    for n in (4, 6, 9):
        x = ms.Tensor(rng.standard_normal((n, 3)).astype(np.float32))
        y = ms.Tensor(rng.integers(0, 2, n).astype(np.int32))
        assert np.isfinite(float(step(x, y).asnumpy()))
    assert not np.array_equal(before, net.weight.asnumpy())
    program = next(iter(step._compiled_cache.current._dynamic_programs.values()))
    assert program.traces == 1


@pytest.mark.parametrize("bad, message", [
    (np.zeros((4, 2), np.float32), r"expected shape \[-1, 3\] \(-1: any size\) and dtype float32, got shape \[4, 2\]"),
    (np.zeros((4,), np.float32), r"got shape \[4\]"),
    (np.zeros((4, 3), np.int32), r"got shape \[4, 3\] and dtype int32"),
])
def test_input_not_matching_set_inputs_raises_naming_the_cell(bad, message):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = MeanHead()
    net.set_inputs(ms.Tensor(shape=[None, 3], dtype=ms.float32))
    with pytest.raises(ValueError, match=r"For 'MeanHead', input 0 does not match the input signature: .*" + message):
        net(ms.Tensor(bad))


def test_wrong_number_of_inputs_raises():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = MeanHead()
    net.set_inputs(ms.Tensor(shape=[None, 3], dtype=ms.float32), ms.Tensor(shape=[None], dtype=ms.int32))
    with pytest.raises(TypeError, match="has 2 inputs, the call passed 1"):
        net(_batches([2])[0])


class NeedsIntSize(nn.Cell):
    def construct(self, x):
        return x.sum() / int(x.shape[0])


def test_program_needing_the_size_as_an_int_falls_back_to_one_compile_per_size_with_a_warning():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = NeedsIntSize()
    net.set_inputs(ms.Tensor(shape=[None, 3], dtype=ms.float32))
    batches = _batches([2, 5])
    with pytest.warns(RuntimeWarning, match="could not be traced symbolically"):
        first = net(batches[0])
    np.testing.assert_allclose(first.asnumpy(), batches[0].asnumpy().sum() / 2, rtol=1e-6)
    np.testing.assert_allclose(net(batches[1]).asnumpy(), batches[1].asnumpy().sum() / 5, rtol=1e-6)
