"""The bad-step guard as code inside a training step sees it."""
import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.step_guard import guarded, note_loss, step_guard


def test_guarded_is_the_new_value_outside_a_guarded_step():
    assert float(guarded(jnp.float32(1.0), jnp.float32(2.0))) == 2.0


def test_guarded_is_the_new_value_until_the_loss_is_known():
    with step_guard(jnp.asarray(False), []):
        assert float(guarded(jnp.float32(1.0), jnp.float32(2.0))) == 2.0


def _select(loss, halted=False, guard_loss=True):
    def run(loss):
        with step_guard(jnp.asarray(halted), [], guard_loss) as guard:
            note_loss((loss, "aux"))
            out = guarded(jnp.zeros(3), jnp.ones(3))
            assert guard.selected[id(out)] is out and guard.keep_value is not None
            return out
    return np.asarray(jax.jit(run)(jnp.float32(loss)))


def test_guarded_keeps_the_old_value_when_the_loss_is_not_finite():
    assert _select(np.nan).tolist() == [0.0, 0.0, 0.0]
    assert _select(np.inf).tolist() == [0.0, 0.0, 0.0]
    assert _select(0.5).tolist() == [1.0, 1.0, 1.0]


def test_guarded_keeps_the_old_value_after_an_earlier_failed_step():
    assert _select(0.5, halted=True).tolist() == [0.0, 0.0, 0.0]


def test_guarded_ignores_the_loss_when_the_step_does_not_guard_it():
    assert _select(np.nan, guard_loss=False).tolist() == [1.0, 1.0, 1.0]
