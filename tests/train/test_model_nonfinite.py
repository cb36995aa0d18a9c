"""A NaN loss or an out-of-range label never changes the weights; Model.train says which step it was."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.common.checks import IndexValueError
from mindjax.train import LossMonitor, Model, NonFiniteLossError
from tests.train.train_nets import MLP, classification_batches, make_model, weights


def _with_nan_at(batches, index):
    batches = list(batches)
    x, y = batches[index]
    bad = x.copy()
    bad[0, 0] = np.nan
    batches[index] = (bad, y)
    return batches


def _reference_after(n_steps, batches):
    ms.set_seed(0)
    model, net, _ = make_model(net=_seeded_mlp())
    model.train(1, batches[:n_steps])
    return weights(net)


def _seeded_mlp():
    ms.set_seed(0)
    return MLP()


@pytest.mark.parametrize("sink", [False, True])
def test_nan_loss_raises_naming_epoch_and_step_and_keeps_the_weights_before_it(sink):
    batches = classification_batches(n_batches=5)
    expected = _reference_after(2, batches)
    model, net, _ = make_model(net=_seeded_mlp())
    with pytest.raises(NonFiniteLossError, match=r"For 'Model.train', the loss is NaN or Inf at epoch 1, step 3\. "
                                                 r"That step's update, and those of the steps dispatched after it, "
                                                 r"were not applied"):
        model.train(1, _with_nan_at(batches, 2), dataset_sink_mode=sink)
    for name, value in weights(net).items():
        np.testing.assert_array_equal(value, expected[name], err_msg=name)


def test_nan_loss_in_a_later_epoch_names_it_and_training_can_resume():
    batches = classification_batches(n_batches=3)
    model, net, _ = make_model(net=_seeded_mlp())
    model.train(1, batches)
    with pytest.raises(NonFiniteLossError, match=r"at epoch 1, step 2"):
        model.train(1, _with_nan_at(batches, 1))
    before = weights(net)
    model.train(1, batches)  # the halt is released: good steps update again
    assert not np.array_equal(weights(net)["fc1.weight"], before["fc1.weight"])


def test_nan_loss_with_loss_monitor_leaves_finite_weights():
    model, net, _ = make_model()
    with pytest.raises(ValueError):
        model.train(1, _with_nan_at(classification_batches(n_batches=3), 1), callbacks=[LossMonitor()])
    assert all(np.isfinite(v).all() for v in weights(net).values())


def test_nonfinite_loss_skip_keeps_going_without_applying_the_bad_step():
    batches = classification_batches(n_batches=3)
    ms.set_seed(0)
    model, net, _ = make_model(net=_seeded_mlp(), nonfinite_loss="skip")
    with pytest.warns(RuntimeWarning, match=r"epoch 1 skipped 1 step\(s\) with a NaN or Inf loss \(steps 2\)"):
        model.train(1, _with_nan_at(batches, 1))
    expected_model, expected_net, _ = make_model(net=_seeded_mlp())
    expected_model.train(1, [batches[0], batches[2]])
    for name, value in weights(net).items():
        np.testing.assert_allclose(value, weights(expected_net)[name], rtol=1e-6, err_msg=name)


def test_nonfinite_loss_apply_is_mindsporess_behaviour():
    model, net, _ = make_model(nonfinite_loss="apply")
    model.train(1, _with_nan_at(classification_batches(n_batches=2), 0))
    assert np.isnan(weights(net)["fc2.bias"]).all()


def test_nonfinite_loss_policy_is_checked():
    with pytest.raises(ValueError, match=r"For 'Model', 'nonfinite_loss' must be one of raise, skip, apply, "
                                         r"got 'ignore'"):
        make_model(nonfinite_loss="ignore")


@pytest.mark.parametrize("bad_label", [3, 100, -1])
@pytest.mark.parametrize("sink", [False, True])
def test_out_of_range_label_raises_naming_the_loss_and_range_and_updates_nothing(bad_label, sink):
    batches = classification_batches(n_batches=3)
    expected = _reference_after(1, batches)
    x, y = batches[1]
    y = y.copy()
    y[::2] = bad_label  # half the labels bad
    batches[1] = (x, y)
    model, net, _ = make_model(net=_seeded_mlp())
    with pytest.raises(IndexValueError, match=rf"For 'SoftmaxCrossEntropyWithLogits', the value of 'labels' must "
                                              rf"be in \[0, 3\), but got {bad_label} \(at position \(0,\)\)\. "
                                              rf"\(Model.train, epoch 1, step 2; "):
        model.train(1, batches, dataset_sink_mode=sink)
    for name, value in weights(net).items():
        np.testing.assert_array_equal(value, expected[name], err_msg=name)


def test_cross_entropy_loss_label_out_of_range_raises_in_model_train():
    ms.set_seed(0)
    net = MLP()
    model = Model(net, nn.CrossEntropyLoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    x, y = classification_batches(n_batches=1)[0]
    y = y.copy()
    y[5] = 7
    before = weights(net)
    with pytest.raises(IndexValueError, match=r"For 'CrossEntropyLoss', the value of 'labels' must be in \[0, 3\) "
                                              r"or equal -100 \(the ignore index\), but got 7 \(at position \(5,\)\)"):
        model.train(1, [(x, y)])
    for name, value in weights(net).items():
        np.testing.assert_array_equal(value, before[name], err_msg=name)


@pytest.mark.parametrize("bad_label", [3, 100])
@pytest.mark.parametrize("sink", [False, True])
def test_out_of_range_label_with_loss_monitor_names_the_label_not_a_nan_loss(bad_label, sink):
    # The bad label makes the loss NaN; LossMonitor reads it first, but the label is the cause.
    batches = classification_batches(n_batches=3)
    expected = _reference_after(1, batches)
    x, y = batches[1]
    y = y.copy()
    y[0] = bad_label
    batches[1] = (x, y)
    model, net, _ = make_model(net=_seeded_mlp())
    with pytest.raises(IndexValueError, match=rf"For 'SoftmaxCrossEntropyWithLogits', the value of 'labels' must "
                                              rf"be in \[0, 3\), but got {bad_label} .*epoch 1, step 2"):
        model.train(1, batches, callbacks=[LossMonitor()], dataset_sink_mode=sink)
    for name, value in weights(net).items():
        np.testing.assert_array_equal(value, expected[name], err_msg=name)


_OPTIMIZERS = {
    "momentum": lambda params: nn.Momentum(params, 0.01, 0.9),
    "nesterov": lambda params: nn.Momentum(params, 0.01, 0.9, use_nesterov=True),
    "adam": lambda params: nn.Adam(params, 0.01),
    "amsgrad": lambda params: nn.Adam(params, 0.01, use_amsgrad=True),
    "adamweightdecay": lambda params: nn.AdamWeightDecay(params, 0.01, weight_decay=0.01),
    "sgd": lambda params: nn.SGD(params, 0.01, momentum=0.9),
    "sgd_nesterov": lambda params: nn.SGD(params, 0.01, momentum=0.9, nesterov=True),
    "adamax": lambda params: nn.AdaMax(params, 0.01),
    "proximal_adagrad": lambda params: nn.ProximalAdagrad(params),
    "asgd": lambda params: nn.ASGD(params),
}


def _step_bytes(guard_loss, optimizer):
    import jax.numpy as jnp

    from mindjax.train._step import StepProgram

    ms.set_seed(0)
    net = nn.SequentialCell(nn.Dense(32, 64), nn.ReLU(), nn.Dense(64, 4))
    opt = _OPTIMIZERS[optimizer](net.trainable_params())
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    program = StepProgram(train, guard_loss=guard_loss)
    batch = (jnp.ones((8, 32), jnp.float32), jnp.zeros((8, 4), jnp.float32))
    cost = program.compile(batch).cost_analysis()
    cost = cost[0] if isinstance(cost, list) else cost
    return cost["bytes accessed"]


@pytest.mark.parametrize("optimizer", sorted(_OPTIMIZERS))
def test_the_guard_moves_no_more_bytes_than_an_unguarded_step(optimizer):
    # The guard's select used to make XLA copy every donated moment before its in-place write.
    assert _step_bytes(True, optimizer) <= 1.01 * _step_bytes(False, optimizer)


@pytest.mark.parametrize("optimizer", sorted(_OPTIMIZERS))
def test_guarded_optimizers_train_as_the_unguarded_step(optimizer):
    batches = [(np.full((4, 3), 0.5 * k, np.float32), np.ones((4, 2), np.float32)) for k in range(3)]
    results = []
    for nonfinite in ("raise", "apply"):
        ms.set_seed(0)
        net = nn.Dense(3, 2)
        model = Model(net, nn.MSELoss(), _OPTIMIZERS[optimizer](net.trainable_params()), nonfinite_loss=nonfinite)
        model.train(2, batches)
        results.append(weights(net))
    for name in results[0]:
        np.testing.assert_array_equal(results[0][name], results[1][name])
