"""MindSpore's ``mindspore.ops.operations.math_ops``: math Primitives.

The Primitives MindJAX had before this module (``MatMul``, ``ReduceSum`` ...) are
re-exported from ``mindjax.ops.primitives*``; the rest are defined here, each applying
one functional op of ``mindjax.ops.function``, with MindSpore's constructor arguments
(kept as attributes) and call signature.

Example:
    >>> import numpy as np
    >>> from mindjax.ops import operations as P
    >>> P.IsClose(atol=0.1)(np.array([1.0, 2.0]), np.array([1.05, 2.5])).tolist()
    [True, False]
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import jax.scipy.special as jss
import numpy as np

from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import as_array
from mindjax.ops import functional as F
from mindjax.ops.function import math_func as M
from mindjax.ops.operations._base import Primitive, check_bool, check_int, op_primitive, record
from mindjax.ops.primitives import _Reduce
# Existing Primitives of this family, re-exported under MindSpore's module path.
from mindjax.ops.primitives import (  # noqa: F401
    Abs, Add, BatchMatMul, Div, Equal, Exp, Greater, Less, Log, MatMul, Maximum, Minimum, Mul, Neg, Pow, RealDiv,
    ReduceMax, ReduceMean, ReduceMin, ReduceProd, ReduceSum, Sqrt, Square, Sub,
)
from mindjax.ops.primitives_extra import (  # noqa: F401
    AssignAdd, AssignSub, Erf, Floor, LogicalAnd, LogicalNot, Rsqrt, Sign, SquaredDifference,
)

_M = __name__
_IN, _IO, _XY = ("input",), ("input", "other"), ("x", "y")

_SIMPLE = [
    # name, functional op, call arguments, doc
    ("ACos", M.acos, _IN, "Inverse cosine"), ("Acosh", M.acosh, _IN, "Inverse hyperbolic cosine"),
    ("Asin", M.asin, _IN, "Inverse sine"), ("Asinh", M.asinh, _IN, "Inverse hyperbolic sine"),
    ("Atan", M.atan, _IN, "Inverse tangent"), ("Atanh", M.atanh, _IN, "Inverse hyperbolic tangent"),
    ("Cos", F.cos, _IN, "Cosine"), ("Cosh", M.cosh, _IN, "Hyperbolic cosine"), ("Sin", F.sin, _IN, "Sine"),
    ("Sinh", M.sinh, _IN, "Hyperbolic sine"), ("Tan", M.tan, _IN, "Tangent"), ("Ceil", F.ceil, _IN, "Round up"),
    ("Expm1", M.expm1, _IN, "``exp(x) - 1``"), ("Log1p", M.log1p, _IN, "``log(1 + x)``"),
    ("Erfc", M.erfc, _IN, "Complementary error function"), ("Erfinv", M.erfinv, _IN, "Inverse error function"),
    ("Lgamma", M.lgamma, _IN, "Log-gamma"), ("Digamma", M.digamma, _IN, "Digamma"),
    ("Reciprocal", F.reciprocal, _IN, "``1 / x``"), ("Inv", M.inv, ("x",), "``1 / x``"),
    ("Invert", M.invert, ("x",), "Bitwise NOT"), ("IsNan", F.isnan, ("x",), "True where NaN"),
    ("IsInf", M.isinf, _IN, "True where infinite"), ("IsFinite", F.isfinite, _IN, "True where finite"),
    ("Trunc", F.trunc, _IN, "Round towards zero"), ("Rint", lambda x: jnp.round(as_array(x)), _IN,
                                                   "Round half to even"),
    ("Sinc", M.sinc, _IN, "Normalised sinc"), ("BesselI0", M.bessel_i0, ("x",), "Modified Bessel I0"),
    ("BesselI0e", M.bessel_i0e, ("x",), "Scaled modified Bessel I0"),
    ("BesselI1", M.bessel_i1, ("x",), "Modified Bessel I1"),
    ("BesselI1e", M.bessel_i1e, ("x",), "Scaled modified Bessel I1"),
    ("BesselJ0", M.bessel_j0, ("x",), "Bessel J0"), ("BesselJ1", M.bessel_j1, ("x",), "Bessel J1"),
    ("BesselY0", M.bessel_y0, ("x",), "Bessel Y0"), ("BesselY1", M.bessel_y1, ("x",), "Bessel Y1"),
    ("BesselK0", M.bessel_k0, ("x",), "Modified Bessel K0"), ("BesselK1", M.bessel_k1, ("x",), "Modified Bessel K1"),
    ("BesselK0e", M.bessel_k0e, ("x",), "Scaled modified Bessel K0"),
    ("BesselK1e", M.bessel_k1e, ("x",), "Scaled modified Bessel K1"),
    ("Real", M.real, _IN, "Real part"), ("Imag", M.imag, _IN, "Imaginary part"),
    ("Conj", M.conj, _IN, "Complex conjugate"), ("Angle", M.angle, _IN, "Argument of each element"),
    ("Atan2", M.atan2, _IO, "``atan(input / other)`` by quadrant"),
    ("FloorDiv", F.floor_div, _IO, "Division rounded down"), ("FloorMod", M.floor_mod, _XY, "Floor remainder"),
    ("Mod", M.truncate_mod, _XY, "Remainder with the dividend's sign"),
    ("TruncateDiv", M.truncate_div, _XY, "Division rounded towards zero"),
    ("TruncateMod", M.truncate_mod, _XY, "Remainder with the dividend's sign"),
    ("NotEqual", F.not_equal, _IO, "``input != other``"), ("GreaterEqual", M.greater_equal, _IO, "``input >= other``"),
    ("LessEqual", M.less_equal, _IO, "``input <= other``"), ("LogicalOr", F.logical_or, _XY, "Logical OR"),
    ("LogicalXor", M.logical_xor, _IO, "Logical XOR"), ("Xlogy", M.xlogy, _IO, "``x * log(y)``, 0 where x is 0"),
    ("Xdivy", M.xdivy, _XY, "``x / y``, 0 where x is 0"), ("Hypot", M.hypot, ("x1", "x2"), "``sqrt(x1^2 + x2^2)``"),
    ("Fmax", M.fmax, ("x1", "x2"), "Maximum ignoring NaN"), ("Fmin", M.fmin, ("x1", "x2"), "Minimum ignoring NaN"),
    ("Gcd", M.gcd, ("x1", "x2"), "Greatest common divisor"), ("Lcm", M.lcm, ("x1", "x2"), "Least common multiple"),
    ("BitwiseAnd", M.bitwise_and, _XY, "Bitwise AND"), ("BitwiseOr", M.bitwise_or, _XY, "Bitwise OR"),
    ("BitwiseXor", M.bitwise_xor, _XY, "Bitwise XOR"), ("LeftShift", M.bitwise_left_shift, ("x1", "x2"), "``x1 << x2``"),
    ("RightShift", M.bitwise_right_shift, ("input_x", "input_y"), "``x >> y``"),
    ("NextAfter", M.nextafter, ("x1", "x2"), "Next representable value towards x2"),
    ("Heaviside", M.heaviside, ("x", "values"), "Heaviside step"),
    ("Igamma", M.igamma, ("a", "x"), "Regularised lower incomplete gamma"),
    ("Igammac", M.igammac, ("a", "x"), "Regularised upper incomplete gamma"),
    ("Zeta", M.zeta, ("x", "q"), "Hurwitz zeta"), ("Polygamma", M.polygamma, ("a", "x"), "Polygamma"),
    ("TensorAdd", F.add, _XY, "``x + y``"),
    ("DivNoNan", lambda x, y: (lambda a, b: jnp.where(b == 0, jnp.zeros((), jnp.result_type(a, b)), a / jnp.where(
        b == 0, 1, b)))(as_array(x), as_array(y)), _XY, "``x / y``, 0 where y is 0"),
    ("MulNoNan", lambda x, y: (lambda a, b: jnp.where(b == 0, jnp.zeros((), jnp.result_type(a, b)), a * b))(
        as_array(x), as_array(y)), _XY, "``x * y``, 0 where y is 0 (even for inf or NaN x)"),
    ("Lerp", M.lerp, ("input", "end", "weight"), "``input + weight * (end - input)``"),
    ("Addcdiv", M.addcdiv, ("input_data", "x1", "x2", "value"), "``input_data + value * x1 / x2``"),
    ("Addcmul", M.addcmul, ("input_data", "x1", "x2", "value"), "``input_data + value * x1 * x2``"),
    ("MatrixDeterminant", M.det, ("x",), "Determinant"),
    ("LogMatrixDeterminant", M.log_matrix_determinant, ("x",), "``(sign, log|det|)``"),
    ("MatrixExp", M.matrix_exp, ("x",), "Matrix exponential"), ("Trace", F.trace, ("x",), "Sum of the diagonal"),
    ("Ger", F.ger, ("x1", "x2"), "Outer product of vectors"),
    ("Complex", lambda real, imag: jax.lax.complex(as_array(real), as_array(imag)), ("real", "imag"),
     "``real + 1j * imag``"),
    ("AddN", M.addn, ("inputs",), "Sum of a list of arrays"),
    ("AccumulateNV2", M.accumulate_n, ("inputs",), "Sum of a list of arrays"),
    ("Betainc", lambda a, b, x: (lambda a, b, x: jss.betainc(a, b, x).astype(x.dtype))(
        as_array(a), as_array(b), as_array(x)), ("a", "b", "x"), "Regularised incomplete beta function"),
    ("ComplexAbs", lambda x: jnp.abs(as_array(x)), ("x",), "Modulus of complex elements"),
    ("Polar", M.polar, ("abs", "angle"), "``abs * (cos(angle) + 1j * sin(angle))``"),
    ("LerpScalar", M.lerp, ("input", "end", "weight"), "``input + weight * (end - input)`` with a scalar weight"),
]

for _name, _fn, _args, _doc in _SIMPLE:
    globals()[_name] = op_primitive(_name, _fn, _args, _doc, _M)
del _name, _fn, _args, _doc


class Round(Primitive):
    """Round half to even, to ``decimals`` places. Call: ``Round()(input, decimals=0)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any, decimals: int = 0) -> jax.Array:
        return F.round(input, decimals=decimals)


class IsClose(Primitive):
    """``|input - other| <= atol + rtol * |other|``.

    Arguments:
        rtol, atol: the tolerances.
        equal_nan: count two NaNs as close.

    Call: ``IsClose()(input, other)`` -> bool array.
    """

    _strategy_inputs = 2

    def __init__(self, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> None:
        super().__init__()
        record(self, rtol=float(rtol), atol=float(atol), equal_nan=check_bool(self.name, "equal_nan", equal_nan))

    def __call__(self, input: Any, other: Any) -> jax.Array:
        return M.isclose(input, other, self.rtol, self.atol, self.equal_nan)


class ApproximateEqual(Primitive):
    """``|x - y| < tolerance``. Call: ``ApproximateEqual(tolerance)(x, y)``."""

    _strategy_inputs = 2

    def __init__(self, tolerance: float = 1e-05) -> None:
        super().__init__()
        record(self, tolerance=float(tolerance))

    def __call__(self, x: Any, y: Any) -> jax.Array:
        return M.approximate_equal(x, y, self.tolerance)


class CumProd(Primitive):
    """Cumulative product along ``axis``.

    Arguments:
        exclusive: start each product from 1 (the element itself excluded).
        reverse: accumulate from the end.

    Call: ``CumProd()(x, axis)`` -> array.
    """

    def __init__(self, exclusive: bool = False, reverse: bool = False) -> None:
        super().__init__()
        record(self, exclusive=check_bool(self.name, "exclusive", exclusive),
               reverse=check_bool(self.name, "reverse", reverse))

    def __call__(self, x: Any, axis: int) -> jax.Array:
        a = as_array(x)
        ax = F._axis(self.name, axis, a.ndim)
        if self.reverse:
            a = jnp.flip(a, ax)
        out = jnp.cumprod(a, axis=ax)
        if self.exclusive:
            out = jnp.concatenate([jnp.ones_like(jax.lax.slice_in_dim(out, 0, 1, axis=ax)),
                                   jax.lax.slice_in_dim(out, 0, a.shape[ax] - 1, axis=ax)], axis=ax)
        return jnp.flip(out, ax) if self.reverse else out


class ReduceAll(_Reduce):
    """Logical AND over ``axis`` (None or ``()``: all axes). Call: ``ReduceAll(keep_dims)(input, axis=None)``."""

    _fn = staticmethod(jnp.all)

    def __call__(self, input: Any, axis: Any = None) -> jax.Array:
        return super().__call__(input, () if axis is None else axis)


class ReduceAny(_Reduce):
    """Logical OR over ``axis`` (``()``: all axes). Call: ``ReduceAny(keep_dims)(x, axis=())``."""

    _fn = staticmethod(jnp.any)


class ReduceStd(Primitive):
    """Standard deviation and mean over ``axis`` (``[]``: all axes).

    Arguments:
        axis: an int, a tuple or a list of ints.
        unbiased: use Bessel's correction.
        keep_dims: keep reduced axes with size 1.

    Call: ``ReduceStd(...)(x)`` -> ``(std, mean)``.
    """

    def __init__(self, axis: Any = (), unbiased: bool = True, keep_dims: bool = False) -> None:
        super().__init__()
        record(self, axis=axis, unbiased=check_bool(self.name, "unbiased", unbiased),
               keep_dims=check_bool(self.name, "keep_dims", keep_dims))

    def __call__(self, x: Any) -> tuple[jax.Array, jax.Array]:
        axis = None if isinstance(self.axis, (list, tuple)) and not self.axis else self.axis
        return M.std_mean(x, axis, int(self.unbiased), self.keep_dims)


class Cdist(Primitive):
    """``p``-norm distances between the rows of two batches. Call: ``Cdist(p)(x1, x2)``."""

    _strategy_inputs = 2

    def __init__(self, p: float = 2.0) -> None:
        super().__init__()
        record(self, p=float(p))

    def __call__(self, x1: Any, x2: Any) -> jax.Array:
        return F.cdist(x1, x2, self.p)


class _AxisScan(Primitive):
    _fn: Any = None

    def __init__(self, axis: int) -> None:
        super().__init__()
        record(self, axis=check_int(self.name, "axis", axis))

    def __call__(self, input: Any) -> tuple[jax.Array, jax.Array]:
        return type(self)._fn(input, self.axis)


class Cummax(_AxisScan):
    """Running maximum along ``axis`` and its indices. Call: ``Cummax(axis)(input)`` -> ``(values, indices)``."""

    _fn = staticmethod(M.cummax)


class Cummin(_AxisScan):
    """Running minimum along ``axis`` and its indices. Call: ``Cummin(axis)(input)`` -> ``(values, indices)``."""

    _fn = staticmethod(M.cummin)


class MatrixInverse(Primitive):
    """Inverse of (a batch of) square matrices (of the adjoint when ``adjoint``). Call: ``MatrixInverse()(x)``."""

    def __init__(self, adjoint: bool = False) -> None:
        super().__init__()
        record(self, adjoint=check_bool(self.name, "adjoint", adjoint))

    def __call__(self, x: Any) -> jax.Array:
        return M.inverse(M.adjoint(x) if self.adjoint else x)


class Cholesky(Primitive):
    """Cholesky factor (upper when ``upper``). Call: ``Cholesky(upper)(input_x)``."""

    def __init__(self, upper: bool = False) -> None:
        super().__init__()
        record(self, upper=check_bool(self.name, "upper", upper))

    def __call__(self, input_x: Any) -> jax.Array:
        return M.cholesky(input_x, self.upper)


class MatrixSolve(Primitive):
    """Solve ``matrix @ X = rhs`` (with the adjoint when ``adjoint``). Call: ``MatrixSolve()(matrix, rhs)``."""

    _strategy_inputs = 2

    def __init__(self, adjoint: bool = False) -> None:
        super().__init__()
        record(self, adjoint=check_bool(self.name, "adjoint", adjoint))

    def __call__(self, matrix: Any, rhs: Any) -> jax.Array:
        return M.matrix_solve(matrix, rhs, self.adjoint)


class MatrixPower(Primitive):
    """``x`` to the integer power ``n``. Call: ``MatrixPower(n)(x)``."""

    def __init__(self, n: int) -> None:
        super().__init__()
        record(self, n=check_int(self.name, "n", n))

    def __call__(self, x: Any) -> jax.Array:
        return M.matrix_power(x, self.n)


class Einsum(Primitive):
    """Einstein summation. Call: ``Einsum(equation)(inputs)`` with a tuple of arrays."""

    _strategy_inputs = None

    def __init__(self, equation: str) -> None:
        super().__init__()
        if not isinstance(equation, str):
            raise TypeError(f"For '{self.name}', 'equation' must be a str, got {type(equation).__name__}")
        record(self, equation=equation.replace(" ", ""))

    def __call__(self, *inputs: Any) -> jax.Array:
        operands = inputs[0] if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)) else inputs
        return jnp.einsum(self.equation, *[as_array(v) for v in operands])


class LinSpace(Primitive):
    """``num`` evenly spaced values from ``start`` to ``stop``. Call: ``LinSpace()(start, stop, num)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, start: Any, stop: Any, num: int) -> jax.Array:
        return F.linspace(start, stop, num)


class Cross(Primitive):
    """Cross product of 3-vectors along ``dim``. Call: ``Cross(dim)(x1, x2)``."""

    _strategy_inputs = 2

    def __init__(self, dim: int = -65530) -> None:
        super().__init__()
        record(self, dim=check_int(self.name, "dim", dim))

    def __call__(self, x1: Any, x2: Any) -> jax.Array:
        return M.cross(x1, x2, None if self.dim == -65530 else self.dim)


class InTopK(Primitive):
    """Whether each target is among its row's ``k`` largest entries. Call: ``InTopK(k)(x1, x2)``."""

    _strategy_inputs = 2

    def __init__(self, k: int) -> None:
        super().__init__()
        record(self, k=check_int(self.name, "k", k))

    def __call__(self, x1: Any, x2: Any) -> jax.Array:
        from mindjax.ops.function.nn_func import intopk

        return intopk(x1, x2, self.k)


class SquareSumAll(Primitive):
    """The sums of squares of two arrays. Call: ``SquareSumAll()(x, y)`` -> ``(sum(x ** 2), sum(y ** 2))``."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, y: Any) -> tuple[jax.Array, jax.Array]:
        a, b = as_array(x), as_array(y)
        return jnp.sum(a * a), jnp.sum(b * b)


class NanToNum(Primitive):
    """Replace NaN and infinities. Call: ``NanToNum(nan, posinf, neginf)(x)``."""

    def __init__(self, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None) -> None:
        super().__init__()
        record(self, nan=nan, posinf=posinf, neginf=neginf)

    def __call__(self, x: Any) -> jax.Array:
        return M.nan_to_num(x, self.nan, self.posinf, self.neginf)


class Logit(Primitive):
    """``log(p / (1 - p))`` with optional clamping. Call: ``Logit(eps)(x)``."""

    def __init__(self, eps: float = -1.0) -> None:
        super().__init__()
        record(self, eps=float(eps))

    def __call__(self, x: Any) -> jax.Array:
        return M.logit(x, None if self.eps < 0 else self.eps)


class CountNonZero(Primitive):
    """The number of non-zero elements over ``dims``. Call: ``CountNonZero(dims)(x)``."""

    def __init__(self, dims: Any = None) -> None:
        super().__init__()
        record(self, dims=dims)

    def __call__(self, x: Any) -> jax.Array:
        return F.count_nonzero(x, self.dims)


class Bucketize(Primitive):
    """The bucket of each element in the sorted ``boundaries`` list. Call: ``Bucketize(boundaries)(input)``."""

    def __init__(self, boundaries: Any) -> None:
        super().__init__()
        record(self, boundaries=[float(b) for b in boundaries])

    def __call__(self, input: Any) -> jax.Array:
        return M.bucketize(input, self.boundaries, right=True)


class LpNorm(Primitive):
    """The ``p``-norm over ``axis``. Call: ``LpNorm(axis, p, keep_dims, epsilon)(input)``."""

    def __init__(self, axis: Any, p: int = 2, keep_dims: bool = False, epsilon: float = 1e-12) -> None:
        super().__init__()
        record(self, axis=axis, p=check_int(self.name, "p", p), keep_dims=check_bool(self.name, "keep_dims", keep_dims),
               epsilon=float(epsilon))

    def __call__(self, input: Any) -> jax.Array:
        return M.vector_norm(input, self.p, self.axis, self.keep_dims)


class EuclideanNorm(Primitive):
    """The 2-norm over ``axes``. Call: ``EuclideanNorm(keep_dims)(x, axes)``."""

    def __init__(self, keep_dims: bool = False) -> None:
        super().__init__()
        record(self, keep_dims=check_bool(self.name, "keep_dims", keep_dims))

    def __call__(self, x: Any, axes: Any) -> jax.Array:
        ax = axes if isinstance(axes, (int, list, tuple)) else as_array(axes).tolist()
        return M.vector_norm(x, 2, ax, self.keep_dims)


class Histogram(Primitive):
    """Counts in ``bins`` equal bins over ``[min, max]``. Call: ``Histogram(bins, min, max)(x)``."""

    def __init__(self, bins: int = 100, min: float = 0.0, max: float = 0.0) -> None:  # noqa: A002
        super().__init__()
        record(self, bins=check_int(self.name, "bins", bins), min=float(min), max=float(max))

    def __call__(self, x: Any) -> jax.Array:
        return F.histc(x, self.bins, self.min, self.max)


class Eps(Primitive):
    """The machine epsilon of the input's dtype, in its shape. Call: ``Eps()(x)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any) -> jax.Array:
        return M.eps(x)


class IndexAdd(Primitive):
    """Add ``updates`` at ``indices`` along ``axis``; a Parameter ``input_x`` is updated.
    Call: ``IndexAdd(axis)(input_x, indices, updates)``."""

    _strategy_inputs = 3

    def __init__(self, axis: int, use_lock: bool = True, check_index_bound: bool = True) -> None:
        super().__init__()
        record(self, axis=check_int(self.name, "axis", axis), use_lock=use_lock, check_index_bound=check_index_bound)

    def __call__(self, input_x: Any, indices: Any, updates: Any) -> jax.Array:
        from mindjax.ops.function.parameter_func import index_add

        return index_add(input_x, indices, updates, self.axis, self.use_lock, self.check_index_bound)


class _Inplace(Primitive):
    _fn: Any = None

    def __init__(self, indices: Any) -> None:
        super().__init__()
        record(self, indices=indices)

    def __call__(self, x: Any, v: Any) -> jax.Array:
        return type(self)._fn(x, v, self.indices)


class InplaceAdd(_Inplace):
    """``x`` with ``v`` added at the rows ``indices``. Call: ``InplaceAdd(indices)(x, v)``."""

    _fn = staticmethod(M.inplace_add)


class InplaceSub(_Inplace):
    """``x`` with ``v`` subtracted at the rows ``indices``. Call: ``InplaceSub(indices)(x, v)``."""

    _fn = staticmethod(M.inplace_sub)


class InplaceUpdate(_Inplace):
    """``x`` with the rows ``indices`` set to ``v``. Call: ``InplaceUpdate(indices)(x, v)``."""

    _fn = staticmethod(M.inplace_update)


class Median(Primitive):
    """The median (and its index) along ``axis``, or over all elements when ``global_median``.
    Call: ``Median(global_median, axis, keep_dims)(input)`` -> ``(values, indices)``."""

    def __init__(self, global_median: bool = False, axis: int = 0, keep_dims: bool = False,
                 ignore_nan: bool = False) -> None:
        super().__init__()
        record(self, global_median=check_bool(self.name, "global_median", global_median),
               axis=check_int(self.name, "axis", axis), keep_dims=check_bool(self.name, "keep_dims", keep_dims),
               ignore_nan=check_bool(self.name, "ignore_nan", ignore_nan))

    def __call__(self, input: Any) -> tuple[jax.Array, jax.Array]:
        fn = M.nanmedian if self.ignore_nan else M.median
        if self.global_median:
            return fn(as_array(input).reshape(-1), 0, False)
        return fn(input, self.axis, self.keep_dims)


class Gamma(Primitive):
    """Gamma samples. Call: ``Gamma(seed, seed2)(shape, alpha, beta)``."""

    def __init__(self, seed: int = 0, seed2: int = 0) -> None:
        super().__init__()
        record(self, seed=check_int(self.name, "seed", seed), seed2=check_int(self.name, "seed2", seed2))

    def __call__(self, shape: Any, alpha: Any, beta: Any) -> jax.Array:
        from mindjax.ops.function.random_func import gamma

        return gamma(shape, alpha, beta, (self.seed or None) and self.seed + self.seed2)



class EqualCount(Primitive):
    """The number of equal elements, as a ``(1,)`` array of the inputs' dtype. Call: ``EqualCount()(x, y)``."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, y: Any) -> jax.Array:
        a, b = as_array(x), as_array(y)
        if a.shape != b.shape:
            raise ValueError(f"For '{self.name}', 'x' and 'y' must have the same shape, but got {a.shape} and {b.shape}.")
        return jnp.sum(a == b).astype(a.dtype).reshape(1)


class HistogramFixedWidth(Primitive):
    """Counts of ``x`` in ``nbins`` equal bins over ``range = [low, high)``; values below go to the first bin,
    values at or above ``high`` to the last.

    Arguments:
        nbins: the number of bins (positive).
        dtype: the counts' dtype; only ``'int32'``. Default: ``'int32'``.

    Call: ``HistogramFixedWidth(nbins)(x, range)`` -> int32 array of ``nbins``.
    """

    def __init__(self, nbins: int, dtype: str = "int32") -> None:
        super().__init__()
        if check_int(self.name, "nbins", nbins) < 1:
            raise ValueError(f"For '{self.name}', 'nbins' must be >= 1, but got {nbins}.")
        if dtype != "int32":
            raise ValueError(f"For '{self.name}', 'dtype' must be 'int32', but got {dtype!r}.")
        record(self, nbins=nbins, dtype=dtype)

    def __call__(self, x: Any, range: Any) -> jax.Array:  # noqa: A002
        a, r = as_array(x), as_array(range)
        if r.shape != (2,):
            raise ValueError(f"For '{self.name}', 'range' must have shape (2,), but got {r.shape}.")
        lo, hi = r[0].astype(jnp.float64 if a.dtype == jnp.float64 else jnp.float32), r[1]
        scaled = (a - lo) / (hi - lo) * self.nbins
        bins = jnp.clip(jnp.floor(scaled), 0, self.nbins - 1).astype(jnp.int32)
        return jnp.zeros(self.nbins, jnp.int32).at[bins.reshape(-1)].add(1)


class CumulativeLogsumexp(Primitive):
    """Cumulative ``log(sum(exp(x)))`` along ``axis``.

    Arguments:
        exclusive: leave each element out of its own sum (the first is the dtype's lowest value). Default: ``False``.
        reverse: accumulate from the end. Default: ``False``.

    Call: ``CumulativeLogsumexp()(x, axis)`` -> array.
    """

    def __init__(self, exclusive: bool = False, reverse: bool = False) -> None:
        super().__init__()
        record(self, exclusive=check_bool(self.name, "exclusive", exclusive),
               reverse=check_bool(self.name, "reverse", reverse))

    def __call__(self, x: Any, axis: Any) -> jax.Array:
        a = as_array(x)
        if not isinstance(axis, int):
            axis_value = as_array(axis)
            if isinstance(axis_value, jax.core.Tracer):
                raise ValueError(f"For '{self.name}', 'axis' must be a constant (an int), but got a traced value.")
            axis = int(axis_value)
        ax = F._axis(self.name, axis, a.ndim)
        if self.reverse:
            a = jnp.flip(a, ax)
        out = jax.lax.cumlogsumexp(a, axis=ax)
        if self.exclusive:
            # MindSpore starts an exclusive sum at the dtype's lowest finite value, not at -inf.
            first = jnp.full_like(jax.lax.slice_in_dim(out, 0, 1, axis=ax), jnp.finfo(out.dtype).min)
            out = jnp.concatenate([first, jax.lax.slice_in_dim(out, 0, a.shape[ax] - 1, axis=ax)], axis=ax)
        return jnp.flip(out, ax) if self.reverse else out


class _TriangleIndices(Primitive):
    _strategy_inputs = 0
    _fn: Any = None

    def __init__(self, row: int, col: int, offset: int = 0, dtype: Any = None) -> None:
        super().__init__()
        from mindjax.common import dtype as mstype

        dtype = mstype.int32 if dtype is None else dtype
        for arg, value in (("row", row), ("col", col)):
            if check_int(self.name, arg, value) < 0:
                raise ValueError(f"For '{self.name}', '{arg}' must be non-negative, but got {value}.")
        if str(dtype).lower() not in ("int32", "int64"):
            raise TypeError(f"For '{self.name}', 'dtype' must be int32 or int64, but got {dtype}.")
        record(self, row=row, col=col, offset=check_int(self.name, "offset", offset), dtype=dtype)

    def __call__(self) -> jax.Array:
        return type(self)._fn(self.row, self.col, self.offset, dtype=self.dtype)


class TrilIndices(_TriangleIndices):
    """The ``(2, N)`` coordinates of the lower triangle (``offset`` diagonals up) of a ``row x col`` matrix.

    Arguments:
        row, col: the matrix's size. offset: the diagonal. Default: ``0``. dtype: ``int32`` (default) or ``int64``.

    Call: ``TrilIndices(row, col)()`` -> array.
    """

    _fn = staticmethod(M.tril_indices)


class TriuIndices(_TriangleIndices):
    """The ``(2, N)`` coordinates of the upper triangle (from ``offset``) of a ``row x col`` matrix.

    Arguments:
        row, col: the matrix's size. offset: the diagonal. Default: ``0``. dtype: ``int32`` (default) or ``int64``.

    Call: ``TriuIndices(row, col)()`` -> array.
    """

    _fn = staticmethod(M.triu_indices)


class Renorm(Primitive):
    """Rescale each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm`` to norm ``maxnorm``.

    Arguments:
        p: the norm's order (positive int). dim: the axis of the slices. maxnorm: the largest norm kept.

    Call: ``Renorm(p, dim, maxnorm)(x)`` -> array.
    """

    def __init__(self, p: int, dim: int, maxnorm: float) -> None:
        super().__init__()
        if check_int(self.name, "p", p) <= 0:
            raise ValueError(f"For '{self.name}', 'p' must be positive, but got {p}.")
        if not isinstance(maxnorm, (int, float)) or isinstance(maxnorm, bool):
            raise TypeError(f"For '{self.name}', 'maxnorm' must be a float, but got {type(maxnorm).__name__}.")
        if maxnorm < 0:
            raise ValueError(f"For '{self.name}', 'maxnorm' must be >= 0, but got {maxnorm}.")
        record(self, p=p, dim=check_int(self.name, "dim", dim), maxnorm=float(maxnorm))

    def __call__(self, x: Any) -> jax.Array:
        return M.renorm(x, self.p, self.dim, self.maxnorm)


class Quantile(Primitive):
    """The ``q``-quantiles (linear interpolation) along ``dim``, or over all elements.

    Arguments:
        dim: the axis, or None for all elements. Default: ``None``.
        keep_dims: keep the reduced axis. Default: ``False``.
        ignore_nan: skip NaNs (``nanquantile``). Default: ``False``.

    Call: ``Quantile()(input, q)`` -> array.
    """

    _strategy_inputs = 2

    def __init__(self, dim: int | None = None, keep_dims: bool = False, ignore_nan: bool = False) -> None:
        super().__init__()
        record(self, dim=None if dim is None else check_int(self.name, "dim", dim),
               keep_dims=check_bool(self.name, "keep_dims", keep_dims),
               ignore_nan=check_bool(self.name, "ignore_nan", ignore_nan))

    def __call__(self, input: Any, q: Any) -> jax.Array:
        fn = M.nanquantile if self.ignore_nan else M.quantile
        return fn(input, q, self.dim, self.keep_dims)


class InplaceIndexAdd(Primitive):
    """Add the slices ``updates`` at ``indices`` along ``axis`` into ``var``, written back to a Parameter.

    Arguments:
        axis: the axis indexed.

    Call: ``InplaceIndexAdd(axis)(var, indices, updates)`` -> the new ``var``.
    """

    _strategy_inputs = 3

    def __init__(self, axis: int) -> None:
        super().__init__()
        record(self, axis=check_int(self.name, "axis", axis))

    def __call__(self, var: Any, indices: Any, updates: Any) -> jax.Array:
        from mindjax.ops.function.parameter_func import index_add

        return index_add(var, indices, updates, self.axis)


class InplaceUpdateV2(Primitive):
    """``x`` with its rows ``indices`` set to ``v`` (``indices`` an input, unlike :class:`InplaceUpdate`).

    Call: ``InplaceUpdateV2()(x, indices, v)`` -> array.
    """

    _strategy_inputs = 3

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, indices: Any, v: Any) -> jax.Array:
        idx = indices if isinstance(indices, (int, tuple, list)) else as_array(indices)
        return M.inplace_update(x, v, idx)


# --- linear algebra ------------------------------------------------------------------------------------

class Svd(Primitive):
    """Singular value decomposition ``input = U diag(S) V^H``.

    Arguments:
        full_matrices: square ``U`` and ``V``. Default: ``False``.
        compute_uv: compute ``U`` and ``V`` (else they are zero-filled). Default: ``True``.

    Call: ``Svd()(input)`` -> ``(s, u, v)``.
    """

    def __init__(self, full_matrices: bool = False, compute_uv: bool = True) -> None:
        super().__init__()
        record(self, full_matrices=check_bool(self.name, "full_matrices", full_matrices),
               compute_uv=check_bool(self.name, "compute_uv", compute_uv))

    def __call__(self, input: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
        from mindjax.ops.function.linalg_func import svd

        s, u, v = svd(input, self.full_matrices, True)
        if not self.compute_uv:
            u, v = jnp.zeros_like(u), jnp.zeros_like(v)
        return s, u, v


class Qr(Primitive):
    """QR decomposition. Arguments: full_matrices: complete (square) ``Q``. Default: ``False``.
    Call: ``Qr()(x)`` -> ``(q, r)``."""

    def __init__(self, full_matrices: bool = False) -> None:
        super().__init__()
        record(self, full_matrices=check_bool(self.name, "full_matrices", full_matrices))

    def __call__(self, x: Any) -> tuple[jax.Array, jax.Array]:
        from mindjax.ops.function.linalg_func import qr

        return qr(x, "complete" if self.full_matrices else "reduced")


class Eig(Primitive):
    """Eigenvalues (and right eigenvectors when ``compute_v``) of square matrices; eager, on CPU.

    Arguments:
        compute_v: also compute the eigenvectors. Default: ``False``.

    Call: ``Eig()(x)`` -> ``(w, v)``; ``v`` is None unless ``compute_v``.
    """

    def __init__(self, compute_v: bool = False) -> None:
        super().__init__()
        record(self, compute_v=check_bool(self.name, "compute_v", compute_v))

    def __call__(self, x: Any) -> tuple[jax.Array, Any]:
        from mindjax.ops.function.linalg_func import eig

        w, v = eig(x)
        return w, (v if self.compute_v else None)


class Geqrf(Primitive):
    """LAPACK's ``geqrf``: R above the diagonal, Householder vectors below, and their ``tau``.
    Call: ``Geqrf()(input)`` -> ``(y, tau)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any) -> tuple[jax.Array, jax.Array]:
        from mindjax.ops.function.linalg_func import geqrf

        return geqrf(input)


class Orgqr(Primitive):
    """The ``Q`` of ``geqrf``'s reflectors (first ``n`` columns). Call: ``Orgqr()(x, tau)``."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, tau: Any) -> jax.Array:
        return M.orgqr(x, tau)


class Ormqr(Primitive):
    """``other`` multiplied by the Householder product of ``geqrf``'s output.

    Arguments:
        left: ``Q @ other`` (default) or ``other @ Q``. transpose: use ``Q^H``. Default: ``False``.

    Call: ``Ormqr()(x, tau, other)`` -> array.
    """

    _strategy_inputs = 3

    def __init__(self, left: bool = True, transpose: bool = False) -> None:
        super().__init__()
        record(self, left=check_bool(self.name, "left", left), transpose=check_bool(self.name, "transpose", transpose))

    def __call__(self, x: Any, tau: Any, other: Any) -> jax.Array:
        return M.ormqr(x, tau, other, self.left, self.transpose)


class LuSolve(Primitive):
    """Solve ``A X = x`` from ``A``'s LU factors and (1-based) pivots. Call: ``LuSolve()(x, lu_data, lu_pivots)``."""

    _strategy_inputs = 3

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, lu_data: Any, lu_pivots: Any) -> jax.Array:
        return M.lu_solve(x, lu_data, lu_pivots)


class LuUnpack(Primitive):
    """The permutation matrix and ``L``, ``U`` factors from packed LU data and pivots.

    Arguments:
        unpack_data: return ``L`` and ``U``. unpack_pivots: return the permutation. Default: ``True`` both.

    Call: ``LuUnpack()(LU_data, LU_pivots)`` -> ``(pivots, L, U)``.
    """

    _strategy_inputs = 2

    def __init__(self, unpack_data: bool = True, unpack_pivots: bool = True) -> None:
        super().__init__()
        record(self, unpack_data=check_bool(self.name, "unpack_data", unpack_data),
               unpack_pivots=check_bool(self.name, "unpack_pivots", unpack_pivots))

    def __call__(self, LU_data: Any, LU_pivots: Any) -> tuple[jax.Array, jax.Array, jax.Array]:  # noqa: N803
        return M.lu_unpack(LU_data, LU_pivots, self.unpack_data, self.unpack_pivots)


class MatrixTriangularSolve(Primitive):
    """Solve ``matrix @ X = rhs`` for triangular ``matrix``.

    Arguments:
        lower: ``matrix`` is lower triangular. Default: ``True``.
        adjoint: solve with ``matrix``'s conjugate transpose. Default: ``False``.

    Call: ``MatrixTriangularSolve()(matrix, rhs)`` -> array of ``rhs``' shape.
    """

    _strategy_inputs = 2

    def __init__(self, lower: bool = True, adjoint: bool = False) -> None:
        super().__init__()
        record(self, lower=check_bool(self.name, "lower", lower), adjoint=check_bool(self.name, "adjoint", adjoint))

    def __call__(self, matrix: Any, rhs: Any) -> jax.Array:
        a, b = as_array(matrix), as_array(rhs)
        if a.ndim < 2 or a.shape[-1] != a.shape[-2] or b.shape[-2] != a.shape[-1]:
            raise ValueError(f"For '{self.name}', 'matrix' must be (*, M, M) and 'rhs' (*, M, K), but got shapes "
                             f"{a.shape} and {b.shape}.")
        return jax.lax.linalg.triangular_solve(a, b, left_side=True, lower=self.lower,
                                               transpose_a=self.adjoint, conjugate_a=self.adjoint)


class CholeskySolve(Primitive):
    """Solve ``A X = x1`` from ``A``'s Cholesky factor ``x2``.

    Arguments:
        upper: ``x2`` is upper triangular. Default: ``False``.

    Call: ``CholeskySolve()(x1, x2)`` -> array.
    """

    _strategy_inputs = 2

    def __init__(self, upper: bool = False) -> None:
        super().__init__()
        record(self, upper=check_bool(self.name, "upper", upper))

    def __call__(self, x1: Any, x2: Any) -> jax.Array:
        return M.cholesky_solve(x1, x2, self.upper)


class CholeskyInverse(Primitive):
    """The inverse of ``A`` from its Cholesky factor.

    Arguments:
        upper: the factor is upper triangular. Default: ``False``.

    Call: ``CholeskyInverse()(input_x)`` -> array.
    """

    def __init__(self, upper: bool = False) -> None:
        super().__init__()
        record(self, upper=check_bool(self.name, "upper", upper))

    def __call__(self, input_x: Any) -> jax.Array:
        return M.cholesky_inverse(input_x, self.upper)


class MatrixSolveLs(Primitive):
    """Regularised least squares: ``argmin ||matrix @ X - rhs||^2 + l2_regularizer * ||X||^2``.

    Arguments:
        fast: solve the normal equations (Cholesky); otherwise a complete orthogonal decomposition, which only
            allows ``l2_regularizer == 0``. Default: ``True``.

    Call: ``MatrixSolveLs()(matrix, rhs, l2_regularizer)`` -> ``(*, N, K)``.
    """

    _strategy_inputs = 3

    def __init__(self, fast: bool = True) -> None:
        super().__init__()
        record(self, fast=check_bool(self.name, "fast", fast))

    def __call__(self, matrix: Any, rhs: Any, l2_regularizer: Any) -> jax.Array:
        a, b = as_array(matrix), as_array(rhs)
        if a.ndim < 2 or b.ndim != a.ndim or b.shape[-2] != a.shape[-2]:
            raise ValueError(f"For '{self.name}', 'matrix' must be (*, M, N) and 'rhs' (*, M, K), but got shapes "
                             f"{a.shape} and {b.shape}.")
        l2 = as_array(l2_regularizer).astype(a.dtype).reshape(())
        ah = jnp.conj(jnp.swapaxes(a, -1, -2))
        m, n = a.shape[-2:]
        if not self.fast:
            if not isinstance(l2, jax.core.Tracer) and float(jnp.abs(l2)) != 0.0:
                raise ValueError(f"For '{self.name}', 'l2_regularizer' must be 0 when 'fast' is False, but got "
                                 f"{float(l2)}.")
            return jnp.linalg.pinv(a) @ b
        if m >= n:
            gram = ah @ a + l2 * jnp.eye(n, dtype=a.dtype)
            return jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(gram, lower=True), ah @ b)
        gram = a @ ah + l2 * jnp.eye(m, dtype=a.dtype)
        return ah @ jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(gram, lower=True), b)


class MatrixLogarithm(Primitive):
    """The principal matrix logarithm of complex square matrices (by eigendecomposition: eager, on CPU).
    Call: ``MatrixLogarithm()(x)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any) -> jax.Array:
        a = as_array(x)
        if not jnp.iscomplexobj(a):
            raise TypeError(f"For '{self.name}', 'x' must be complex64 or complex128, but got {a.dtype}.")
        if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
            raise ValueError(f"For '{self.name}', 'x' must be (*, N, N), but got shape {a.shape}.")
        from mindjax.ops.function.linalg_func import eig

        w, v = eig(a)
        return (v * jnp.log(w)[..., None, :]) @ jnp.linalg.inv(v)


class TridiagonalMatMul(Primitive):
    """The product of a tridiagonal matrix (its three ``(*, 1, M)`` diagonals) with ``rhs`` ``(*, M, N)``;
    ``superdiag``'s last and ``subdiag``'s first entries are ignored.

    Call: ``TridiagonalMatMul()(superdiag, maindiag, subdiag, rhs)`` -> ``(*, M, N)``.
    """

    _strategy_inputs = 4

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, superdiag: Any, maindiag: Any, subdiag: Any, rhs: Any) -> jax.Array:
        up, mid, low, b = (as_array(v) for v in (superdiag, maindiag, subdiag, rhs))
        m = b.shape[-2] if b.ndim >= 2 else -1
        for arg, d in (("superdiag", up), ("maindiag", mid), ("subdiag", low)):
            if d.ndim < 2 or d.shape[-2:] != (1, m):
                raise ValueError(f"For '{self.name}', '{arg}' must have shape (*, 1, {m}) to match 'rhs' {b.shape}, "
                                 f"but got {d.shape}.")
        col = lambda d: jnp.swapaxes(d, -1, -2)  # noqa: E731 - (*, M, 1)
        zero = jnp.zeros_like(b[..., :1, :])
        below = jnp.concatenate([b[..., 1:, :], zero], axis=-2)
        above = jnp.concatenate([zero, b[..., :-1, :]], axis=-2)
        return col(up) * below + col(mid) * b + col(low) * above


class NMSWithMask(Primitive):
    """Non-maximum suppression of boxes sorted by score.

    Arguments:
        iou_threshold: a box is dropped when its IoU with a kept, higher-scoring box exceeds this. Default:
            ``0.5``.

    Call: ``NMSWithMask(iou_threshold)(bboxes)`` with ``bboxes`` ``(N, 5)`` rows ``(x1, y1, x2, y2, score)`` ->
    ``(selected_boxes, selected_idx, selected_mask)``: the boxes sorted by score (descending), ``arange(N)``
    (int32, as MindSpore's CPU kernel returns) and which of the sorted boxes are kept (bool).
    """

    def __init__(self, iou_threshold: float = 0.5) -> None:
        super().__init__()
        if not isinstance(iou_threshold, float):
            raise TypeError(f"For '{self.name}', the type of 'iou_threshold' should be 'float', but got type "
                            f"'{type(iou_threshold).__name__}'.")
        record(self, iou_threshold=iou_threshold)

    def __call__(self, bboxes: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
        b = as_array(bboxes)
        if b.ndim != 2 or b.shape[1] != 5:
            raise ValueError(f"For '{self.name}', 'bboxes' must be of shape (N, 5), but got {tuple(b.shape)}.")
        n = b.shape[0]
        order = jnp.argsort(-b[:, 4], stable=True)
        boxes = b[order]
        x1, y1, x2, y2 = (boxes[:, i].astype(jnp.float32) for i in range(4))
        area = (x2 - x1) * (y2 - y1)
        iw = jnp.maximum(jnp.minimum(x2[:, None], x2[None]) - jnp.maximum(x1[:, None], x1[None]), 0.0)
        ih = jnp.maximum(jnp.minimum(y2[:, None], y2[None]) - jnp.maximum(y1[:, None], y1[None]), 0.0)
        inter = iw * ih
        iou = inter / (area[:, None] + area[None] - inter)
        overlap = iou > self.iou_threshold

        def step(i: jax.Array, keep: jax.Array) -> jax.Array:
            return jnp.where(keep[i], keep & ~(overlap[i] & (jnp.arange(n) > i)), keep)
        keep = jax.lax.fori_loop(0, n, step, jnp.ones((n,), jnp.bool_))
        return boxes, jnp.arange(n, dtype=jnp.int32), keep



class CompareAndBitpack(Primitive):
    """``x > threshold`` packed along the last axis into uint8, eight values per byte, the first in the
    most significant bit; a bool ``x`` is packed as it is, the first in the least significant bit, as
    MindSpore's CPU kernel does (deprecated in MindSpore 2.8).

    Call: ``CompareAndBitpack()(x, threshold)`` -> uint8 ``(..., n / 8)``; ``n`` must be a multiple of 8 and
    ``threshold`` a 0-D tensor of ``x``'s dtype.
    """

    _strategy_inputs = 2

    def __call__(self, x: Any, threshold: Any) -> jax.Array:
        a, t = as_array(x), as_array(threshold)
        allowed = (jnp.bool_, jnp.float16, jnp.float32, jnp.float64, jnp.int8, jnp.int16, jnp.int32, jnp.int64)
        if a.dtype not in allowed:
            raise TypeError(f"For '{self.name}', 'x' must be bool, float16, float32, float64, int8, int16, int32 "
                            f"or int64, but got {a.dtype}.")
        if t.dtype != a.dtype:
            raise TypeError(f"For '{self.name}', 'threshold' must have the dtype of 'x' ({a.dtype}), but got "
                            f"{t.dtype}.")
        if t.ndim != 0:
            raise ValueError(f"For '{self.name}', 'threshold' must be 0-D, but got shape {t.shape}.")
        if a.ndim == 0 or a.shape[-1] % 8:
            raise ValueError(f"For '{self.name}', the last dimension of 'x' must be a multiple of 8, but got shape "
                             f"{a.shape}.")
        # Measured on MindSpore 2.10 (CPU): a bool input is packed as it is, the first value in the least
        # significant bit, whatever the threshold.
        bits = (a if a.dtype == jnp.bool_ else a > t).reshape(a.shape[:-1] + (a.shape[-1] // 8, 8)).astype(jnp.uint8)
        weights = jnp.asarray([1, 2, 4, 8, 16, 32, 64, 128] if a.dtype == jnp.bool_ else
                              [128, 64, 32, 16, 8, 4, 2, 1], jnp.uint8)
        return jnp.sum(bits * weights, axis=-1, dtype=jnp.uint8)


class RaggedRange(Primitive):
    """The concatenated ranges ``range(starts[i], limits[i], deltas[i])`` and their row splits.

    Arguments:
        Tsplits: the splits' dtype, ``mindjax.int32`` or ``mindjax.int64``.

    Call: ``RaggedRange(Tsplits)(starts, limits, deltas)`` -> ``(rt_nested_splits, rt_dense_values)``; the
    inputs are 0-D or 1-D of one dtype (int32, int64, float32 or float64). The output's length depends on the
    values, so this op runs eagerly (not under ``jit``).
    """

    _strategy_inputs = 3

    def __init__(self, Tsplits: Any) -> None:
        super().__init__()
        try:
            dt = to_jax_dtype(Tsplits)
        except (TypeError, ValueError, KeyError):
            dt = None
        if dt not in (jnp.int32, jnp.int64):
            raise TypeError(f"For '{self.name}', 'Tsplits' must be int32 or int64, but got {Tsplits!r}.")
        record(self, Tsplits=Tsplits)
        self._splits_dtype = dt

    def __call__(self, starts: Any, limits: Any, deltas: Any) -> tuple[jax.Array, jax.Array]:
        name = self.name
        arrays = [as_array(v) for v in (starts, limits, deltas)]
        dtype = arrays[0].dtype
        if dtype not in (jnp.int32, jnp.int64, jnp.float32, jnp.float64):
            raise TypeError(f"For '{name}', 'starts' must be int32, int64, float32 or float64, but got {dtype}.")
        for arg, a in zip(("limits", "deltas"), arrays[1:]):
            if a.dtype != dtype:
                raise TypeError(f"For '{name}', '{arg}' must have the dtype of 'starts' ({dtype}), but got {a.dtype}.")
            if a.shape != arrays[0].shape:
                raise ValueError(f"For '{name}', '{arg}' must have the shape of 'starts' {arrays[0].shape}, but got "
                                 f"{a.shape}.")
        if arrays[0].ndim > 1:
            raise ValueError(f"For '{name}', the inputs must be 0-D or 1-D, but got shape {arrays[0].shape}.")
        try:
            s, lim, d = (np.asarray(a).reshape(-1) for a in arrays)
        except jax.errors.TracerArrayConversionError:
            raise TypeError(f"For '{name}', the output's length depends on the input values: call it eagerly, "
                            f"not under jit.") from None
        if np.any(d == 0):
            raise ValueError(f"For '{name}', 'deltas' must not contain 0, but got {d.tolist()}.")
        if np.issubdtype(s.dtype, np.floating):
            # MindSpore's count is ceil((limit - start) / delta) and each value start + k * delta.
            rows = [a + np.arange(max(int(np.ceil((b - a) / c)), 0), dtype=s.dtype) * c for a, b, c in zip(s, lim, d)]
        else:
            rows = [np.arange(a, b, c, dtype=s.dtype) for a, b, c in zip(s, lim, d)]
        splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(self._splits_dtype)
        values = np.concatenate(rows).astype(s.dtype) if rows else np.zeros((0,), s.dtype)
        return jnp.asarray(splits), jnp.asarray(values)

from mindjax.ops.operations.random_ops import Cauchy  # noqa: E402,F401  (MindSpore keeps it in math_ops)
