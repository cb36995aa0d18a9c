"""The modified Bessel functions I0, I1 (and their scaled forms) are correctly rounded in float32,
and so are their derivatives, at every order: MindSpore's higher-order gradients through them are
exact to the float32 ulp (tests/st/pynative/grad/test_pynative_high_grad::test_nested_highgrad_net3)."""
import numpy as np
import pytest
import scipy.special as sp

import mindjax as ms

_X = np.concatenate([np.linspace(-30.0, 30.0, 401), [1e-3, -1e-3, 1e-6, 4.0, 2.0]]).astype(np.float32)


def _ulps(got: np.ndarray, want: np.ndarray) -> int:
    assert got.dtype == want.dtype == np.float32
    return int(np.abs(got.view(np.int32).astype(np.int64) - want.view(np.int32).astype(np.int64)).max())


@pytest.mark.parametrize("name, exact", [("bessel_i0", sp.i0), ("i0", sp.i0), ("bessel_i1", sp.i1),
                                         ("bessel_i0e", sp.i0e), ("bessel_i1e", sp.i1e)])
def test_bessel_i_float32_values_are_the_exact_values_rounded_once(name, exact):
    got = getattr(ms.ops, name)(ms.Tensor(_X)).asnumpy()
    assert _ulps(got, exact(_X.astype(np.float64)).astype(np.float32)) == 0


def test_bessel_i0_derivative_is_i1_correctly_rounded_and_zero_at_zero():
    x = np.append(_X, [0.0, -0.0]).astype(np.float32)
    got = ms.grad(ms.ops.bessel_i0)(ms.Tensor(x)).asnumpy()
    assert _ulps(np.abs(got), np.abs(sp.i1(x.astype(np.float64)).astype(np.float32))) == 0
    assert got[-2] == 0.0 and got[-1] == 0.0   # MindSpore: BesselI1(0); exp(|x|) * i0e(x) would give 1


def test_bessel_i1_derivative_is_i0_minus_i1_over_x_correctly_rounded_and_one_half_at_zero():
    nonzero = _X[_X != 0]
    x = nonzero.astype(np.float64)
    got = ms.grad(ms.ops.bessel_i1)(ms.Tensor(nonzero)).asnumpy()
    assert _ulps(got, (sp.i0(x) - sp.i1(x) / x).astype(np.float32)) == 0
    # the limit I0(0) - 1/2; MindSpore 2.10's CPU kernel gives 1 there (and 0.49999988 at 1e-6)
    assert ms.grad(ms.ops.bessel_i1)(ms.Tensor(np.zeros(1, np.float32))).asnumpy()[0] == 0.5


def test_bessel_i_keeps_half_and_double_precision_dtypes():
    assert ms.ops.bessel_i0(ms.Tensor(np.array([1.0, 2.0], np.float16))).dtype == ms.float16
    got = ms.ops.bessel_i1(ms.Tensor(np.array([1.0, 2.0], np.float64)))
    assert got.dtype == ms.float64
    np.testing.assert_allclose(got.asnumpy(), sp.i1(np.array([1.0, 2.0])), rtol=1e-14)
    assert ms.ops.bessel_i0(ms.Tensor(np.array([1, 2], np.int32))).dtype == ms.float32


def test_second_order_gradient_through_bessel_i0_is_mindspores_float32_value():
    # d/dx (I0'(2x))^2 = 4 I1(2x) I1'(2x); at x = 2 the exact value 345.95569376 rounds to float32 345.9557,
    # which MindSpore 2.10 returns bit for bit.
    class BesselI0(ms.nn.Cell):
        def construct(self, x):
            return ms.ops.BesselI0()(x)

    class SquaredGrad(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = BesselI0()

        def construct(self, x):
            dx = ms.grad(self.inner)(x + x)
            return dx * dx

    got = ms.grad(SquaredGrad())(ms.Tensor(np.array([2.0], np.float32))).asnumpy()
    assert got.dtype == np.float32 and got[0] == np.float32(345.9557)
