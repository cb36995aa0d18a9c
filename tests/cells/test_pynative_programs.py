"""PYNATIVE: built-in Cells run as one compiled program each; user code still runs eagerly."""
import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops


@pytest.fixture(autouse=True)
def _pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield


class _Compiles:
    """Counts XLA compilations while active (one listener for the module: JAX has no public way
    to remove one)."""

    def __init__(self):
        self.count, self.active = 0, False

    def __call__(self, name, _duration, **_):
        if self.active and name == "/jax/core/compile/backend_compile_duration":
            self.count += 1

    def __enter__(self):
        self.count, self.active = 0, True
        return self

    def __exit__(self, *exc):
        self.active = False


_COMPILES = _Compiles()
jax.monitoring.register_event_duration_secs_listener(_COMPILES)


class Net(nn.Cell):
    def __init__(self, seen):
        super().__init__()
        self.seen = seen
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid", has_bias=True)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 4 * 4, 3)

    def construct(self, x):
        y = self.relu(self.bn(self.conv(x)))
        if ms.get_context("mode") == ms.PYNATIVE_MODE:
            self.seen.append(float(y.sum().asnumpy()))  # user code: runs eagerly, with values
        return self.fc(self.flatten(y))


def _data():
    rng = np.random.default_rng(0)
    return (ms.Tensor(rng.standard_normal((2, 1, 6, 6)).astype(np.float32)),
            ms.Tensor(np.array([0, 2], np.int32)))


def _train(mode, steps=3):
    ms.set_context(mode=mode)
    ms.set_seed(0)
    seen = []
    net = Net(seen)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    step.set_train()
    x, y = _data()
    losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    return losses, net, seen


def test_pynative_training_equals_graph_mode_and_writes_batchnorm_statistics():
    losses, net, seen = _train(ms.PYNATIVE_MODE)
    graph_losses, graph_net, _ = _train(ms.GRAPH_MODE)
    np.testing.assert_allclose(losses, graph_losses, rtol=1e-5)
    np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), graph_net.bn.moving_mean.asnumpy(), rtol=1e-5)
    assert not np.allclose(net.bn.moving_mean.asnumpy(), 0.0)
    for a, b in zip(net.trainable_params(), graph_net.trainable_params()):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-7)
    assert len(seen) == 3  # the user's construct ran eagerly on every step, with values


def test_a_repeated_pynative_step_compiles_nothing_new():
    ms.set_seed(0)
    net = Net([])
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    step.set_train()
    x, y = _data()
    step(x, y)
    with _COMPILES as compiles:
        step(x, y).asnumpy()
    assert compiles.count == 0


def test_a_builtin_layer_with_a_hook_still_runs_the_hook_eagerly_each_call():
    dense = nn.Dense(3, 2)
    calls = []
    dense.register_forward_hook(lambda cell, inputs, out: calls.append(type(out).__name__))
    x = ms.Tensor(np.ones((1, 3), np.float32))
    first, second = dense(x), dense(x)
    assert calls == ["Tensor", "Tensor"]
    np.testing.assert_allclose(first.asnumpy(), second.asnumpy())


def test_a_builtin_layer_returns_tensors_to_user_code_and_arrays_to_jax_code():
    dense = nn.Dense(3, 2)
    x = np.ones((1, 3), np.float32)
    assert type(dense(ms.Tensor(x))) is ms.Tensor
    assert isinstance(dense(jax.numpy.asarray(x)), jax.Array)
    # Gradients through a built-in layer called under ms.grad in PYNATIVE
    grad = ms.grad(lambda t: dense(t).sum())(ms.Tensor(x))
    np.testing.assert_allclose(grad.asnumpy(), np.tile(dense.weight.asnumpy().sum(0), (1, 1)), rtol=1e-6)


def test_a_bad_input_to_a_builtin_layer_names_the_cell_in_pynative():
    dense = nn.Dense(3, 2)
    with pytest.raises(ValueError, match="Dense"):
        dense(ms.Tensor(np.ones((1, 4), np.float32)))


def test_dropout_in_pynative_draws_new_masks_each_call():
    ms.set_seed(1)
    drop = nn.Dropout(p=0.5)
    drop.set_train(True)
    x = ms.Tensor(np.ones((64,), np.float32))
    a, b = drop(x).asnumpy(), drop(x).asnumpy()
    assert not np.array_equal(a, b) and set(np.unique(a)) <= {0.0, 2.0}
    assert ops.isfinite(ms.Tensor(a)).all()


def test_user_code_reads_values_and_branches_on_them_under_pynative_grad():
    printed = []

    class Probe(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 2)

        def construct(self, x):
            y = self.fc(x)
            printed.append((y.asnumpy().shape, str(y).startswith("[["), y.sum().item()))
            if y.sum() > 100:  # data-dependent Python control flow, eager as in MindSpore
                return y.sum() * 0
            return (y * y).sum()

    net = Probe()
    x = ms.Tensor(np.ones((1, 3), np.float32))
    value, grads = ms.value_and_grad(net, None, net.trainable_params())(x)
    out = net.fc(x).asnumpy()
    assert printed[0][:2] == ((1, 2), True) and abs(printed[0][2] - out.sum()) < 1e-5
    np.testing.assert_allclose(value.asnumpy(), (out * out).sum(), rtol=1e-6)
    np.testing.assert_allclose(grads[1].asnumpy(), 2 * out[0], rtol=1e-6)


def test_asnumpy_inside_graph_mode_still_names_the_traced_value():
    @ms.jit
    def f(x):
        return x.asnumpy()

    with pytest.raises(TypeError, match="traced inside GRAPH_MODE / ms.jit"):
        f(ms.Tensor(np.ones(2, np.float32)))


def test_identical_builtin_cells_share_one_program_and_keep_their_own_weights():
    ms.set_seed(0)
    a, b = nn.Dense(5, 4), nn.Dense(5, 4)
    other = nn.Dense(5, 4, has_bias=False)
    x = ms.Tensor(np.ones((2, 5), np.float32))
    a(x)
    with _COMPILES as compiles:
        out_b = b(x)
    assert compiles.count == 0  # b runs a's compiled program with its own Parameters
    np.testing.assert_allclose(out_b.asnumpy(), x.asnumpy() @ b.weight.asnumpy().T + b.bias.asnumpy(), rtol=1e-6)
    assert not np.allclose(out_b.asnumpy(), a(x).asnumpy())
    with _COMPILES as compiles:
        other(x)
    assert compiles.count == 1  # another setting is another program


def test_a_builtin_cell_holding_a_constant_array_gets_its_own_program():
    from mindjax.transforms.jit import _structural_key

    dense = nn.Dense(2, 2)
    assert _structural_key(dense) is not None
    dense.offset = jax.numpy.ones(2)  # a constant a trace would capture: never shared
    assert _structural_key(dense) is None


def _compiled_program_names():
    """The names of the XLA programs compiled while the context is active."""
    names = []

    def listen(name, _duration, **kwargs):
        if listen.active and name == "/jax/core/compile/backend_compile_duration":
            names.append(kwargs.get("fun_name"))
    listen.active = False
    jax.monitoring.register_event_duration_secs_listener(listen)
    return names, listen


_NAMES, _LISTEN = _compiled_program_names()


def test_building_layers_and_optimizers_compiles_no_xla_program():
    # Initial values are cast on the host: a new network costs no XLA compilation per Parameter shape.
    _NAMES.clear()
    _LISTEN.active = True
    try:
        net = nn.SequentialCell([nn.Conv2d(3, 5, 3, weight_init="normal", has_bias=True, bias_init="zeros"),
                                 nn.Flatten(), nn.Dense(5 * 7 * 7, 6, weight_init="he_uniform"),
                                 nn.Dense(6, 2, weight_init="xavier_uniform")])
        nn.Momentum(net.trainable_params(), 0.1, 0.9)
        nn.SGD(net.trainable_params(), 0.1, momentum=0.5)
    finally:
        _LISTEN.active = False
    assert _NAMES == []
    assert net[0].weight.dtype == ms.float32 and net[0].weight.shape == (5, 3, 3, 3)


def test_pynative_train_step_compiles_only_cell_programs_and_builds_the_sensitivity_on_the_host():
    from mindjax.common.random import RNG_STATE

    class UserNet(nn.Cell):  # a user's construct: the step runs eagerly around the built-in Cells
        def __init__(self):
            super().__init__()
            self.fc1, self.relu, self.fc2 = nn.Dense(13, 11), nn.ReLU(), nn.Dense(11, 6)

        def construct(self, x):
            return self.fc2(self.relu(self.fc1(x)))

    # Odd shapes no other test uses, and a per-element loss: its sensitivity of ones has a new shape.
    net = UserNet()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss(reduction="none")),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    x, y = ms.Tensor(np.ones((7, 13), np.float32)), ms.Tensor(np.zeros((7, 6), np.float32))
    RNG_STATE._value  # the random key's programs are built once per process, not by the step
    _NAMES.clear()
    _LISTEN.active = True
    try:
        loss = step(x, y)
    finally:
        _LISTEN.active = False
    assert loss.shape == (7, 6) and np.isfinite(loss.asnumpy()).all()
    # only the built-in Cells' programs (forward, backward, optimizer): no eager broadcast or cast
    assert _NAMES and all("run_traced_program" in n for n in _NAMES), _NAMES
