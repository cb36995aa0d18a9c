"""Training wrappers: WithLossCell, WithEvalCell, TrainOneStepCell, loss scaling, ForwardValueAndGrad."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from tests.train.train_nets import BNNet, MLP, classification_batches


def _loss_fn():
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def _reference_grads(net, x, y):
    params = net.trainable_params()
    loss_cell = nn.WithLossCell(net, _loss_fn())

    def f(values):
        from mindjax.cells.state import substituted
        with substituted(params, values):
            return jnp.asarray(loss_cell(x, y))
    return jax.grad(f)([p._value for p in params])


def test_with_loss_cell_keeps_the_backbone_parameter_names():
    net = MLP()
    wrapped = nn.WithLossCell(net, _loss_fn())
    assert [p.name for p in wrapped.trainable_params()] == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert wrapped.backbone_network is net


def test_with_eval_cell_returns_loss_outputs_and_label_in_float32_when_asked():
    net = MLP()
    net.to_float(ms.float16)
    x, y = map(ms.Tensor, classification_batches(n_batches=1)[0])
    loss, out, label = nn.WithEvalCell(net, _loss_fn(), add_cast_fp32=True)(x, y)
    assert out.dtype == jnp.float32 and loss.dtype == jnp.float32 and label is not None


def test_train_one_step_cell_applies_the_gradients_of_the_loss(mode):
    net = MLP()
    x, y = map(ms.Tensor, classification_batches(n_batches=1)[0])
    before = [np.asarray(p._value) for p in net.trainable_params()]
    grads = _reference_grads(net, x, y)
    opt = nn.SGD(net.trainable_params(), learning_rate=0.5)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, _loss_fn()), opt)
    loss = step(x, y)
    assert np.isfinite(float(loss))
    for p, b, g in zip(net.trainable_params(), before, grads):
        np.testing.assert_allclose(np.asarray(p._value), b - 0.5 * np.asarray(g), rtol=1e-5, atol=1e-6)


def test_train_one_step_cell_writes_batchnorm_statistics_back(mode):
    net = BNNet()
    net.set_train()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, _loss_fn()), opt)
    x, y = map(ms.Tensor, classification_batches(n_batches=1)[0])
    step(x, y)
    mean = np.asarray(net.bn.moving_mean._value)
    assert not np.allclose(mean, 0.0)
    assert not isinstance(net.bn.moving_mean._value, jax.core.Tracer)


def test_train_one_step_cell_sens_scales_the_gradients():
    net = MLP()
    x, y = map(ms.Tensor, classification_batches(n_batches=1)[0])
    grads = _reference_grads(net, x, y)
    before = [np.asarray(p._value) for p in net.trainable_params()]
    step = nn.TrainOneStepCell(nn.WithLossCell(net, _loss_fn()), nn.SGD(net.trainable_params(), 1.0), sens=4.0)
    step(x, y)
    for p, b, g in zip(net.trainable_params(), before, grads):
        np.testing.assert_allclose(np.asarray(p._value), b - 4.0 * np.asarray(g), rtol=1e-5, atol=1e-5)


def test_train_one_step_cell_rejects_a_non_optimizer_naming_the_argument():
    with pytest.raises(TypeError, match="For 'TrainOneStepCell', the argument 'optimizer'"):
        nn.TrainOneStepCell(nn.WithLossCell(MLP(), _loss_fn()), object())
    with pytest.raises(TypeError, match="For 'WithLossCell', the argument 'backbone' must be a Cell"):
        nn.WithLossCell(lambda x: x, _loss_fn())


def test_forward_value_and_grad_returns_loss_and_weight_gradients(mode):
    net = MLP()
    x, y = map(ms.Tensor, classification_batches(n_batches=1)[0])
    loss_cell = nn.WithLossCell(net, _loss_fn())
    fvg = nn.ForwardValueAndGrad(loss_cell, weights=ms.ParameterTuple(net.trainable_params()), get_by_list=True)
    loss, grads = fvg(x, y)
    want = _reference_grads(net, x, y)
    assert np.isfinite(float(loss))
    for g, w in zip(grads, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-5, atol=1e-6)


def test_forward_value_and_grad_input_gradients_with_sens():
    w = ms.Parameter(ms.Tensor(np.array([2.0, 3.0], np.float32)), name="w")

    class Scale(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = w

        def construct(self, x):
            return x * self.w

    fvg = nn.ForwardValueAndGrad(Scale(), weights=[w], get_all=True, get_by_list=True, sens_param=True)
    out, (input_grads, weight_grads) = fvg(ms.Tensor(np.array([1.0, 5.0], np.float32)),
                                           ms.Tensor(np.array([10.0, 1.0], np.float32)))
    np.testing.assert_allclose(np.asarray(out), [2.0, 15.0])
    np.testing.assert_allclose(np.asarray(input_grads[0]), [20.0, 3.0])
    np.testing.assert_allclose(np.asarray(weight_grads[0]), [10.0, 5.0])


def _loss_scale_step(init_scale=2.0 ** 10):
    net = MLP()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    update = nn.DynamicLossScaleUpdateCell(init_scale, 2, 1000)
    step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, _loss_fn()), opt, update)
    return net, opt, step


def test_an_overflowing_step_leaves_parameters_unchanged_and_halves_the_scale(mode):
    net, opt, step = _loss_scale_step()
    x, y = map(ms.Tensor, classification_batches(n_batches=1)[0])
    loss, overflow, scale = step(x, y)
    assert not bool(overflow) and float(scale) == 1024.0
    before = {n: np.asarray(p._value) for n, p in opt.parameters_and_names()}
    bad_x = x.copy()
    bad_x[0, 0] = float("inf")
    loss, overflow, scale = step(bad_x, y)
    # As MindSpore, the returned scale is the scale_sense Parameter after this step's update.
    assert bool(overflow) and float(scale) == 512.0
    assert float(step.scale_sense) == 512.0
    for name, p in opt.parameters_and_names():
        np.testing.assert_array_equal(np.asarray(p._value), before[name], err_msg=name)
    _, overflow, _ = step(x, y)
    assert not bool(overflow)
    assert not np.array_equal(np.asarray(net.fc1.weight._value), before["fc1.weight"])


def test_dynamic_loss_scale_grows_after_scale_window_clean_steps():
    net = MLP()
    update = nn.DynamicLossScaleUpdateCell(8.0, 2, 2)
    step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, _loss_fn()),
                                            nn.SGD(net.trainable_params(), 0.01), update)
    x, y = map(ms.Tensor, classification_batches(n_batches=1)[0])
    scales = []
    for _ in range(4):
        step(x, y)
        scales.append(float(step.scale_sense))
    assert scales == [8.0, 16.0, 16.0, 32.0]


def test_loss_scale_update_cell_rejects_bad_window():
    with pytest.raises(ValueError, match="'scale_window' must be a positive int"):
        nn.DynamicLossScaleUpdateCell(2.0, 2, 0)
    with pytest.raises(TypeError, match="'scale_sense' must be a Cell or a Tensor"):
        nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(MLP(), _loss_fn()), nn.SGD(MLP().trainable_params()), 3)
