"""mindspore.ops.operations._grad_ops: the backward Primitives user code calls, against MindSpore 2.10's CPU kernels."""
from __future__ import annotations

import importlib

import mindspore
import numpy as np
import pytest

import mindjax

A = np.array([[-1.5, 0.3, 2.0], [0.8, -0.2, 7.0]], np.float32)
B = np.array([[0.5, -1.0, 2.0], [1.5, 3.0, -0.5]], np.float32)
POS = np.abs(A) + 0.1
CASES = [
    ("ReluGrad", (), (B, A)), ("ReLU6Grad", (), (B, A)), ("EluGrad", (), (B, A)), ("TanhGrad", (), (np.tanh(A), B)),
    ("SigmoidGrad", (), (1 / (1 + np.exp(-A)), B)), ("SqrtGrad", (), (POS, B)), ("RsqrtGrad", (), (POS, B)),
    ("ReciprocalGrad", (), (POS, B)), ("InvGrad", (), (A, B)), ("SoftplusGrad", (), (B, A)), ("AtanGrad", (), (A, B)),
    ("AsinGrad", (), (A / 8, B)), ("AsinhGrad", (), (A, B)), ("AcoshGrad", (), (POS + 1, B)), ("SiLUGrad", (), (B, A)),
    ("HSwishGrad", (), (B, A)), ("HSigmoidGrad", (), (B, A)), ("GeLUGrad", (), (B, A, A)),
    ("FastGeLUGrad", (), (B, A)), ("HShrinkGrad", (0.5,), (B, A)), ("SoftShrinkGrad", (0.5,), (B, A)),
    ("BiasAddGrad", (), (np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2),)),
    ("BiasAddGrad", ("NHWC",), (np.arange(24, dtype=np.float32).reshape(2, 2, 2, 3),)),
    ("LogSoftmaxGrad", (-1,), (A, B)), ("LogSoftmaxGrad", (0,), (A / 4, B)),
]


def _run(framework, name, init, args):
    grad_ops = importlib.import_module(framework.__name__ + ".ops.operations._grad_ops")
    return getattr(grad_ops, name)(*init)(*[framework.Tensor(a) for a in args])


@pytest.mark.parametrize("name,init,args", CASES, ids=[f"{c[0]}{c[1]}" for c in CASES])
def test_grad_primitive_matches_mindspore(name, init, args) -> None:
    expected, got = _run(mindspore, name, init, args), _run(mindjax, name, init, args)
    assert got.shape == expected.shape and str(got.dtype) == str(expected.dtype)
    np.testing.assert_allclose(got.asnumpy(), expected.asnumpy(), rtol=2e-5, atol=1e-5)
