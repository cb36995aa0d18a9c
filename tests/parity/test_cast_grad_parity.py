"""Casts to integer and bool dtypes against MindSpore 2.10: CPU values, and the gradient through them.

MindSpore differentiates a cast as the identity, an integer tensor's gradient kept in its own dtype
(truncated, wrapped) on the way; JAX gives integers no gradient. Each case computes the same function's
gradient with respect to a float input on both frameworks.
"""
from __future__ import annotations

from typing import Any, Callable

import mindspore
import numpy as np
import pytest

import mindjax

X = np.array([1.5, -2.3, 3.7], np.float32)


def _cases(ms: Any) -> dict[str, Callable[[Any], Any]]:
    ops = ms.ops
    return {
        "byte": lambda x: x.byte().sum(),
        "int": lambda x: x.int().sum(),
        "long": lambda x: x.long().sum(),
        "short": lambda x: x.short().sum(),
        "bool": lambda x: x.bool().sum(),
        "astype": lambda x: x.astype(ms.int32).sum(),
        "to": lambda x: x.to(ms.int32).sum(),
        "type": lambda x: x.type(ms.int32).sum(),
        "ops.cast": lambda x: ops.cast(x, ms.int32).sum(),
        "Cast()": lambda x: ops.Cast()(x, ms.int32).sum(),
        "cast-twice-squared": lambda x: (ops.cast(ops.cast(x, ms.int32), ms.float32) ** 2).sum(),
        "int-times-float": lambda x: (x.long() * x).sum(),
        "bool-mask-as-float": lambda x: ops.cast(x, ms.bool_).astype(ms.float32).sum(),
        "uint8-wraps-gradient": lambda x: ((x * 100).byte().astype(ms.float32) ** 2).sum(),
        "round-is-not-a-cast": lambda x: ops.round(x).sum(),
        "int-index-keeps-zero": lambda x: ops.gather(x, ops.cast(x, ms.int32).abs().clip(0, 2), 0).sum(),
        "bitwise-after-cast": lambda x: ((x.int() & 1).astype(ms.float32) * x).sum(),
    }


@pytest.mark.parametrize("name", list(_cases(mindjax)))
def test_grad_through_integer_cast_matches_mindspore(name: str) -> None:
    expected = mindspore.grad(_cases(mindspore)[name])(mindspore.Tensor(X))
    got = mindjax.grad(_cases(mindjax)[name])(mindjax.Tensor(X))
    assert str(got.dtype) == str(expected.dtype)
    np.testing.assert_allclose(got.asnumpy(), expected.asnumpy(), rtol=1e-6)


def test_grad_operation_of_cell_with_cast_matches_mindspore() -> None:
    def net(ms: Any) -> Any:
        class Net(ms.nn.Cell):
            def construct(self, x):
                return (ms.ops.cast(x, ms.int32) * 2).sum()
        return Net()
    expected = mindspore.ops.GradOperation()(net(mindspore))(mindspore.Tensor(X))
    got = mindjax.ops.GradOperation()(net(mindjax))(mindjax.Tensor(X))
    np.testing.assert_allclose(got.asnumpy(), expected.asnumpy())


def test_vjp_through_integer_cast_matches_mindspore() -> None:
    def run(ms: Any) -> np.ndarray:
        _, fn = ms.vjp(lambda x: x.int().astype(ms.float32) * 3, ms.Tensor(X))
        return fn(ms.Tensor(np.ones(3, np.float32)))[0].asnumpy()
    np.testing.assert_allclose(run(mindjax), run(mindspore))


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "bool_"])
def test_float_to_integer_cast_values_match_mindspore_cpu(dtype: str) -> None:
    values = np.array([150.0, -230.0, 370.0, -1.5, 255.9, 1e10, -1e10, np.nan, np.inf, 3e9, -3e9], np.float32)
    expected = mindspore.ops.cast(mindspore.Tensor(values), getattr(mindspore, dtype)).asnumpy()
    got = mindjax.ops.cast(mindjax.Tensor(values), getattr(mindjax, dtype)).asnumpy()
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
