"""ops.coo_* / ops.csr_*: each applies its value op to the stored values and keeps the structure."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops
from mindjax.ops.function import sparse_unary_func

VALUES = np.array([-0.5, 0.25, 0.75], np.float32)  # inside every op's domain except where noted
REFERENCE = {
    "abs": np.abs, "acos": np.arccos, "acosh": lambda v: np.arccosh(v + 2), "asin": np.arcsin,
    "asinh": np.arcsinh, "atan": np.arctan, "atanh": np.arctanh, "ceil": np.ceil, "cos": np.cos,
    "cosh": np.cosh, "exp": np.exp, "expm1": np.expm1, "floor": np.floor, "inv": lambda v: 1 / v,
    "isfinite": np.isfinite, "isinf": np.isinf, "isnan": np.isnan, "log": lambda v: np.log(v + 1),
    "log1p": np.log1p, "neg": np.negative, "relu": lambda v: np.maximum(v, 0),
    "relu6": lambda v: np.clip(v, 0, 6), "round": np.round, "sigmoid": lambda v: 1 / (1 + np.exp(-v)),
    "sin": np.sin, "sinh": np.sinh, "softsign": lambda v: v / (1 + np.abs(v)), "sqrt": lambda v: np.sqrt(v + 1),
    "square": np.square, "tan": np.tan, "tanh": np.tanh,
}
SHIFT = {"acosh": 2.0, "log": 1.0, "sqrt": 1.0}  # the inputs those references were given


def _coo(values):
    return ms.COOTensor(ms.Tensor([[0, 1], [1, 2], [2, 0]], ms.int32), ms.Tensor(values), (3, 4))


def _csr(values):
    return ms.CSRTensor(ms.Tensor([0, 1, 2, 3], ms.int32), ms.Tensor([1, 2, 0], ms.int32), ms.Tensor(values), (3, 4))


def test_every_mindspore_sparse_unary_op_is_exported():
    names = {f"{k}_{op}" for k in ("coo", "csr") for op in REFERENCE}
    assert set(sparse_unary_func.__all__) == names
    assert all(callable(getattr(ops, n)) for n in names)


@pytest.mark.parametrize("kind", ["coo", "csr"])
@pytest.mark.parametrize("op", sorted(REFERENCE))
def test_unary_op_maps_the_values_and_keeps_the_structure(kind, op):
    values = VALUES + SHIFT.get(op, 0.0)
    x = (_coo if kind == "coo" else _csr)(values)
    out = getattr(ops, f"{kind}_{op}")(x)
    assert type(out) is type(x) and out.shape == x.shape
    np.testing.assert_array_equal(out.indices.asnumpy(), x.indices.asnumpy())
    if kind == "csr":
        np.testing.assert_array_equal(out.indptr.asnumpy(), x.indptr.asnumpy())
    np.testing.assert_allclose(out.values.asnumpy(), REFERENCE[op](VALUES), rtol=1e-6, atol=1e-6)


def test_unary_ops_trace_under_jit_and_differentiate_the_values():
    @ms.jit
    def f(values):
        return ops.csr_sin(_csr(values)).values.sum() + ops.coo_square(_coo(values)).values.sum()

    v = ms.Tensor(VALUES)
    np.testing.assert_allclose(f(v).asnumpy(), np.sin(VALUES).sum() + np.square(VALUES).sum(), rtol=1e-6)
    grad = ms.grad(f)(v)
    np.testing.assert_allclose(grad.asnumpy(), np.cos(VALUES) + 2 * VALUES, rtol=1e-6)
    np.testing.assert_allclose(jax.grad(lambda v: jnp.asarray(ops.coo_exp(_coo(v)).values).sum())(jnp.asarray(VALUES)),
                               np.exp(VALUES), rtol=1e-6)


def test_unary_op_rejects_the_other_format_naming_op_and_argument():
    with pytest.raises(TypeError, match="For 'coo_abs', 'x' must be a COOTensor, got CSRTensor"):
        ops.coo_abs(_csr(VALUES))
    with pytest.raises(TypeError, match="For 'csr_relu6', 'x' must be a CSRTensor, got Tensor"):
        ops.csr_relu6(ms.Tensor(VALUES))
