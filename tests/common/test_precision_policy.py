"""PrecisionPolicy.rule: what O1 and 'auto' policies do to one operator call."""
import jax.numpy as jnp
import numpy as np

from mindjax import ops
from mindjax.common.precision import (FP32, LOW, LOW_TO_FP32, NO_CAST, PROMOTE, PrecisionPolicy, policy_scope,
                                      run_as)


def _auto():
    return PrecisionPolicy.auto(jnp.float16, frozenset({"MatMul"}), frozenset({"Softmax"}), frozenset({"AddN"}))


def test_auto_rule_by_name_and_by_primitive():
    policy = _auto()
    assert policy.rule("MatMul") == LOW and policy.rule(ops.MatMul()) == LOW and policy.rule(ops.MatMul) == LOW
    assert policy.rule("Softmax") == FP32 and policy.rule(ops.Softmax()) == FP32
    assert policy.rule("AddN") == PROMOTE
    assert policy.rule("ReLU") is None and policy.rule(ops.ReLU()) is None
    assert policy.covers(ops.MatMul()) and not policy.covers(ops.Softmax())
    assert NO_CAST.rule("MatMul") is None


def test_o1_rule_by_class_and_forced_names():
    policy = PrecisionPolicy(jnp.float16, frozenset({ops.MatMul}))
    assert policy.rule(ops.MatMul()) == LOW_TO_FP32 and policy.rule("MatMul") == LOW_TO_FP32
    assert policy.rule(ops.ReLU()) is None and policy.rule("ReLU") is None
    forced = PrecisionPolicy(jnp.float16, None, cast_class=ops.Cast, forced_names=frozenset({"ReLU"}))
    assert forced.rule(ops.Softmax()) == LOW_TO_FP32 and forced.rule(ops.Cast()) is None
    assert forced.rule("ReLU") == LOW_TO_FP32 and forced.rule("Softmax") is None


def test_run_as_casts_by_rule():
    x16 = jnp.ones((2,), jnp.float16)
    x32 = jnp.ones((2,), jnp.float32)
    x64 = np.ones((2,), np.float64)
    with policy_scope(_auto()):
        assert run_as("MatMul", lambda a: a, x32).dtype == jnp.float16
        assert run_as("Softmax", lambda a: a, x16).dtype == jnp.float32
        a, b = run_as("AddN", lambda t: t, (x16, x32))
        assert a.dtype == b.dtype == jnp.float32
        assert run_as("ReLU", lambda a: a, x16).dtype == jnp.float16
        assert run_as("MatMul", lambda a: a, x64).dtype == jnp.float16
        assert run_as("MatMul", lambda a, k: k, x32, k=x32).dtype == jnp.float16  # keywords too
    with policy_scope(PrecisionPolicy(jnp.float16, frozenset({ops.MatMul}))):
        seen = []
        out = run_as("MatMul", lambda a, k: seen.append((a.dtype, k.dtype)) or a, x32, k=x32)
        assert seen == [(jnp.float16, jnp.float32)]  # O1 casts positional inputs only
        assert out.dtype == jnp.float32              # and its output back to float32
    assert run_as("MatMul", lambda a: a, x32).dtype == jnp.float32  # no policy
