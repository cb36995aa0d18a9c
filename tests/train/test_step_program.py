"""Model's compiled step: its state aliases its own buffers, and good steps cost one flag read per block."""
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.train import NonFiniteLossError
from mindjax.train._step import StepProgram
from tests.train.train_nets import MLP, classification_batches, make_model, weights


def _alias_map(hlo_text):
    header = hlo_text.splitlines()[0]
    return {int(out): int(param) for out, param in re.findall(r"\{(\d+)\}: \((\d+), \{\}", header)}


@pytest.mark.parametrize("guard_loss", [True, False])
def test_each_state_output_aliases_its_own_donated_input(guard_loss):
    # JAX hands a donated buffer to the first output of its shape and dtype: with the loss first,
    # the loss took the learning rate's buffer and XLA copied every scalar Variable each step.
    ms.set_seed(0)
    net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 3))
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True)),
                                nn.Momentum(net.trainable_params(), 0.01, 0.9))
    program = StepProgram(train, guard_loss=guard_loss)
    batch = (jnp.ones((2, 4), jnp.float32), jnp.zeros((2,), jnp.int32))
    aliases = _alias_map(program.compile(batch).as_text())
    n_state = len(program.variables)
    assert n_state >= 8  # weights, moments, learning rate, momentum, global step, the random key, ...
    assert {out: aliases[out] for out in range(n_state)} == {i: i for i in range(n_state)}


def _count_transfers(monkeypatch):
    leaves = []
    real = jax.device_get

    def counting(tree):
        leaves.append(len(jax.tree_util.tree_leaves(tree)))
        return real(tree)

    monkeypatch.setattr(jax, "device_get", counting)
    return leaves


def test_good_steps_read_one_flag_per_block_of_steps(monkeypatch):
    model, net, _ = make_model(net=MLP())
    batches = classification_batches(n_batches=70, batch=4)
    model.train(1, batches[:2])
    transfers = _count_transfers(monkeypatch)
    model.train(1, batches)
    # 70 steps: two full blocks of 32 and the end of the epoch, one halt flag each.
    assert transfers == [1, 1, 1]


def _with_nan_at(batches, index):
    batches = list(batches)
    x, y = batches[index]
    bad = x.copy()
    bad[0, 0] = np.nan
    batches[index] = (bad, y)
    return batches


@pytest.mark.parametrize("bad", [5, 37, 69])
def test_a_nan_in_any_block_is_named_and_keeps_the_weights_before_it(bad):
    batches = classification_batches(n_batches=70, batch=4)
    ms.set_seed(0)
    reference, ref_net, _ = make_model(net=MLP())
    reference.train(1, batches[:bad])
    ms.set_seed(0)
    model, net, _ = make_model(net=MLP())
    with pytest.raises(NonFiniteLossError, match=rf"epoch 1, step {bad + 1}\b"):
        model.train(1, _with_nan_at(batches, bad))
    for name, value in weights(ref_net).items():
        np.testing.assert_allclose(weights(net)[name], value, rtol=1e-6, err_msg=name)


def test_skip_policy_counts_every_skipped_step_across_blocks():
    batches = _with_nan_at(_with_nan_at(classification_batches(n_batches=70, batch=4), 10), 50)
    ms.set_seed(0)
    model, net, _ = make_model(net=MLP(), nonfinite_loss="skip")
    with pytest.warns(RuntimeWarning, match=r"epoch 1 skipped 2 step\(s\) .*\(steps 11, 51\)"):
        model.train(1, batches)
    assert all(np.isfinite(v).all() for v in weights(net).values())
