"""MindSpore 2.10's math and image Cells: reductions, matrix diagonals and determinants, the gamma
family, image crops, gradients, SSIM and PSNR, and ``L1Regularizer``.

Each Cell checks its constructor arguments as MindSpore does and calls the functional op in
``mindjax.ops`` for its numbers.

Example:
    >>> import numpy as np
    >>> from mindjax import nn
    >>> nn.ReduceLogSumExp(1)(np.zeros((2, 3), np.float32)).shape
    (2,)
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.cells.cell import Cell
from mindjax.common.tensor import as_array as _arr
from mindjax.ops.function import array_func as _array
from mindjax.ops.function import math_func as _math
from mindjax.ops import functional as _F
from mindjax.ops import functional_math as _fmath

__all__ = ["Moments", "ReduceLogSumExp", "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag", "MatDet", "MatInverse",
           "LGamma", "DiGamma", "IGamma", "LBeta", "CentralCrop", "ImageGradients", "SSIM", "PSNR",
           "L1Regularizer", "MSSSIM"]


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _check_float_input(cls: str, name: str, x: jax.Array, allowed: tuple = (jnp.float16, jnp.float32)) -> None:
    if x.dtype not in [jnp.dtype(d) for d in allowed]:
        names = ", ".join(str(jnp.dtype(d)) for d in allowed)
        raise TypeError(f"For '{cls}', the type of '{name}' must be in [{names}], but got {x.dtype}")


class Moments(Cell):
    """The mean and (biased) variance of ``x`` along ``axis``.

    Arguments:
        axis: an int or a tuple of ints; ``None`` (default) reduces every axis.
        keep_dims: keep the reduced axes with length 1 (``None`` means ``False``).

    Inputs: ``x``, a float16 or float32 Tensor. Outputs: ``(mean, variance)``.

    Raises:
        TypeError: ``axis`` or ``keep_dims`` of the wrong type, or an input that is not float.
    """

    def __init__(self, axis: int | tuple[int, ...] | None = None, keep_dims: bool | None = None) -> None:
        super().__init__()
        if axis is None:
            axis = ()
        if isinstance(axis, tuple):
            for i, item in enumerate(axis):
                if not _is_int(item):
                    raise TypeError(f"For 'Moments', the type of 'axis[{i}]' should be 'int', but got "
                                    f"{type(item).__name__}")
        elif not _is_int(axis):
            raise TypeError(f"For 'Moments', the type of 'axis' should be 'int' or 'tuple', but got "
                            f"{type(axis).__name__}")
        if keep_dims is None:
            keep_dims = False
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'Moments', the type of 'keep_dims' should be 'bool', but got "
                            f"{type(keep_dims).__name__}")
        self.axis = axis
        self.keep_dims = keep_dims

    def construct(self, x: Any) -> tuple[jax.Array, jax.Array]:
        x = _arr(x)
        _check_float_input("Moments", "input x", x)
        axis = None if self.axis == () else self.axis
        var, mean = _math.var_mean(x.astype(jnp.float32), axis=axis, ddof=0, keepdims=self.keep_dims)
        return mean.astype(x.dtype), var.astype(x.dtype)


class ReduceLogSumExp(Cell):
    """``log(sum(exp(x), axis))``, computed stably.

    Arguments:
        axis: an int, list or tuple of ints (``()`` reduces every axis).
        keep_dims: keep the reduced axes with length 1 (default ``False``).

    Raises:
        TypeError: ``axis`` not an int/list/tuple, or ``keep_dims`` not a bool.
    """

    def __init__(self, axis: int | list[int] | tuple[int, ...], keep_dims: bool = False) -> None:
        super().__init__()
        if not (_is_int(axis) or isinstance(axis, (list, tuple))):
            raise TypeError(f"For 'ReduceLogSumExp', the type of 'axis' should be one of ['int', 'list', "
                            f"'tuple'], but got {type(axis).__name__}")
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'ReduceLogSumExp', the type of 'keep_dims' should be 'bool', but got "
                            f"{type(keep_dims).__name__}")
        self.axis = axis
        self.keep_dims = keep_dims

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        axis = self.axis
        if isinstance(axis, (list, tuple)):
            axis = tuple(axis) if len(axis) else tuple(range(x.ndim))
        return _arr(_fmath.logsumexp(x, axis, self.keep_dims))


class MatrixDiag(Cell):
    """Batched diagonal matrices: an input ``(..., n)`` becomes ``(..., n, n)`` with it on the diagonal."""

    def construct(self, x: Any) -> jax.Array:
        return _arr(_array.matrix_diag(_arr(x)))


class MatrixDiagPart(Cell):
    """The main diagonals of a batch of matrices: ``(..., m, n)`` becomes ``(..., min(m, n))``.

    Raises:
        ValueError: an input of rank below 2.
    """

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        if x.ndim < 2:
            raise ValueError(f"{self._where()}, the input must have rank >= 2, got shape {tuple(x.shape)}")
        return _arr(_array.matrix_diag_part(x, 0, 0))


class MatrixSetDiag(Cell):
    """Replace the main diagonals of a batch of matrices ``x`` with ``diagonal``.

    Raises:
        ValueError: ``diagonal``'s shape is not ``x.shape[:-2] + (min(m, n),)``.
    """

    def construct(self, x: Any, diagonal: Any) -> jax.Array:
        x, diagonal = _arr(x), _arr(diagonal)
        want = tuple(x.shape[:-2]) + (min(x.shape[-2:]),)
        if tuple(diagonal.shape) != want:
            raise ValueError(f"For 'MatrixSetDiag', the diagonal shape should be = x shape excluding the last "
                             f"dimension: {list(want)}, but got {list(diagonal.shape)}.")
        return _arr(_array.matrix_set_diag(x, diagonal))


class MatDet(Cell):
    """The determinants of a batch of positive-definite Hermitian matrices ``(..., M, M)`` (float16/32)."""

    def construct(self, a: Any) -> jax.Array:
        a = _arr(a)
        _check_float_input("MatDet", "input_a", a)
        return _arr(_math.det(a))


class MatInverse(Cell):
    """The inverses of a batch of positive-definite Hermitian matrices ``(..., M, M)`` (float16/32)."""

    def construct(self, a: Any) -> jax.Array:
        a = _arr(a)
        _check_float_input("MatInverse", "input_a", a)
        return _arr(_math.inverse(a))


class LGamma(Cell):
    """``log|Gamma(x)|`` elementwise, for float16/float32 inputs."""

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        _check_float_input("LGamma", "x", x)
        return _arr(_math.lgamma(x))


class DiGamma(Cell):
    """The digamma function ``d/dx log Gamma(x)`` elementwise, for float16/float32 inputs."""

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        _check_float_input("DiGamma", "x", x)
        return _arr(_math.digamma(x))


class IGamma(Cell):
    """The regularised lower incomplete gamma function ``P(a, x)``, for float32 inputs of one dtype."""

    def construct(self, a: Any, x: Any) -> jax.Array:
        a, x = _arr(a), _arr(x)
        _check_float_input("IGamma", "a", a, (jnp.float32,))
        _check_float_input("IGamma", "x", x, (a.dtype,))
        return _arr(_math.igamma(a, x))


class LBeta(Cell):
    """``log|Beta(x, y)| = lgamma(x) + lgamma(y) - lgamma(x + y)`` elementwise (float16/float32)."""

    def construct(self, x: Any, y: Any) -> jax.Array:
        x, y = _arr(x), _arr(y)
        _check_float_input("LBeta", "x", x)
        _check_float_input("LBeta", "y", y, (x.dtype,))
        x, y = jnp.broadcast_arrays(x, y)
        return _arr(_math.lgamma(x)) + _arr(_math.lgamma(y)) - _arr(_math.lgamma(x + y))


class CentralCrop(Cell):
    """Crop the central ``central_fraction`` of the last two (spatial) axes of a 3-D or 4-D image.

    Arguments:
        central_fraction: a float in ``(0, 1]``.

    Raises:
        TypeError: ``central_fraction`` not a float.
        ValueError: ``central_fraction`` out of ``(0, 1]``, or an input that is not 3-D or 4-D.
    """

    def __init__(self, central_fraction: float) -> None:
        super().__init__()
        if not isinstance(central_fraction, float):
            raise TypeError(f"For 'CentralCrop', the type of 'central_fraction' should be 'float', but got "
                            f"{type(central_fraction).__name__}")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"For 'CentralCrop', the 'central_fraction' must be in range (0, 1.0], but got "
                             f"{central_fraction}")
        self.central_fraction = central_fraction

    def construct(self, image: Any) -> jax.Array:
        image = _arr(image)
        if image.ndim not in (3, 4):
            raise ValueError(f"CentralCrop image must be 3d or 4d, but got shape {tuple(image.shape)}")
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2:]
        top = int((h - h * self.central_fraction) / 2)
        left = int((w - w * self.central_fraction) / 2)
        return image[..., top:h - top, left:w - left]


class ImageGradients(Cell):
    """The forward-difference gradients ``(dy, dx)`` of an ``NCHW`` image, zero in the last row/column.

    Raises:
        ValueError: an input that is not 4-D.
    """

    def construct(self, images: Any) -> tuple[jax.Array, jax.Array]:
        images = _arr(images)
        if images.ndim != 4:
            raise ValueError(f"For 'ImageGradients', the dimension of 'images' must be 4d, but got "
                             f"{images.ndim}.")
        dy = images[:, :, 1:, :] - images[:, :, :-1, :]
        dx = images[:, :, :, 1:] - images[:, :, :, :-1]
        dy = jnp.pad(dy, ((0, 0), (0, 0), (0, 1), (0, 0)))
        dx = jnp.pad(dx, ((0, 0), (0, 0), (0, 0), (0, 1)))
        return dy, dx


def _check_max_val(cls: str, max_val: Any) -> None:
    if isinstance(max_val, bool) or not isinstance(max_val, (int, float)):
        raise TypeError(f"For '{cls}', the type of 'max_val' should be one of ['int', 'float'], but got "
                        f"{type(max_val).__name__}")
    if max_val <= 0:
        raise ValueError(f"For '{cls}', the 'max_val' must be greater than 0, but got {max_val}")


def _dtype_max(dtype: Any) -> float:
    return float(np.iinfo(dtype).max) if jnp.issubdtype(dtype, jnp.integer) else 1.0


def _to_float(img: Any, max_val: float) -> jax.Array:
    ret = jnp.asarray(img, jnp.float32)
    return ret * (1.0 / max_val) if max_val > 1.0 else ret


def _check_pair(cls: str, img1: jax.Array, img2: jax.Array) -> None:
    if img1.ndim != 4:
        raise ValueError(f"For '{cls}', the dimension of 'img1' must be 4d, but got {img1.ndim}.")
    if img1.shape != img2.shape or img1.dtype != img2.dtype:
        raise ValueError(f"For '{cls}', 'img1' and 'img2' must have the same shape and dtype, got "
                         f"{tuple(img1.shape)} {img1.dtype} and {tuple(img2.shape)} {img2.dtype}")


def _gaussian_window(size: int, sigma: float) -> np.ndarray:
    """The normalised ``(1, 1, size, size)`` Gaussian window MindSpore's SSIM convolves with."""
    grid = np.arange(-size // 2 + 1, size // 2 + 1, dtype=np.float32) ** 2
    g = np.exp(-(grid[:, None] + grid[None, :]) / (2 * sigma ** 2))
    return (g / g.sum())[None, None].astype(np.float32)


class SSIM(Cell):
    """The structural similarity index of two ``NCHW`` image batches, one value per image.

    Arguments:
        max_val: the dynamic range of the pixels (default ``1.0``).
        filter_size: the Gaussian window's size, an int >= 1 (default ``11``).
        filter_sigma: the Gaussian's standard deviation, a positive float (default ``1.5``).
        k1, k2: the luminance and contrast constants (defaults ``0.01``, ``0.03``).

    Raises:
        TypeError: arguments of the wrong type, or an input that is not float16/float32.
        ValueError: ``max_val``/``filter_sigma`` not positive, ``filter_size`` < 1, an input that is not
            4-D or smaller than the window.
    """

    def __init__(self, max_val: float = 1.0, filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01,
                 k2: float = 0.03) -> None:
        super().__init__()
        _check_max_val("SSIM", max_val)
        if not _is_int(filter_size):
            raise TypeError(f"For 'SSIM', the type of 'filter_size' should be 'int', but got "
                            f"{type(filter_size).__name__}")
        if filter_size < 1:
            raise ValueError(f"For 'SSIM', 'filter_size' must be >= 1, but got {filter_size}")
        if not isinstance(filter_sigma, float) or filter_sigma <= 0:
            raise ValueError(f"For 'SSIM', the 'filter_sigma' must be a positive float, but got {filter_sigma}")
        for name, v in (("k1", k1), ("k2", k2)):
            if not isinstance(v, float):
                raise TypeError(f"For 'SSIM', the type of '{name}' should be 'float', but got {type(v).__name__}")
        self.max_val, self.filter_size, self.filter_sigma, self.k1, self.k2 = max_val, filter_size, filter_sigma, k1, k2
        self._window = _gaussian_window(filter_size, filter_sigma)

    def construct(self, img1: Any, img2: Any) -> jax.Array:
        img1, img2 = _arr(img1), _arr(img2)
        _check_float_input("SSIM", "img1", img1)
        _check_pair("SSIM", img1, img2)
        if min(img1.shape[2:]) < self.filter_size:
            raise ValueError(f"For 'SSIM', the img1 shape[2] and shape[3] must be >= filter_size "
                             f"{self.filter_size}, but got {tuple(img1.shape)}")
        dmax = _dtype_max(img1.dtype)
        max_val = float(self.max_val) / dmax if dmax > 1.0 else float(self.max_val)
        x, y = _to_float(img1, dmax), _to_float(img2, dmax)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        n, c, h, w = x.shape
        window = jnp.asarray(self._window)

        def conv(v: jax.Array) -> jax.Array:
            return _arr(_F.conv2d(v.reshape(n * c, 1, h, w), window)).reshape(n, c, h - self.filter_size + 1, -1)

        mu1, mu2 = conv(x), conv(y)
        s11, s22, s12 = conv(x * x) - mu1 * mu1, conv(y * y) - mu2 * mu2, conv(x * y) - mu1 * mu2
        ssim = ((2 * mu1 * mu2 + c1) * (2 * s12 + c2)) / ((mu1 * mu1 + mu2 * mu2 + c1) * (s11 + s22 + c2))
        return jnp.mean(ssim, axis=(1, 2, 3))


class PSNR(Cell):
    """The peak signal-to-noise ratio of two ``NCHW`` image batches, one value per image.

    Arguments:
        max_val: the dynamic range of the pixels (default ``1.0``).

    Raises:
        TypeError: ``max_val`` not an int or float.
        ValueError: ``max_val`` not positive, or inputs that are not 4-D or differ in shape/dtype.
    """

    def __init__(self, max_val: float = 1.0) -> None:
        super().__init__()
        _check_max_val("PSNR", max_val)
        self.max_val = max_val

    def construct(self, img1: Any, img2: Any) -> jax.Array:
        img1, img2 = _arr(img1), _arr(img2)
        _check_pair("PSNR", img1, img2)
        dmax = _dtype_max(img1.dtype)
        max_val = _to_float(self.max_val, dmax)
        x, y = _to_float(img1, dmax), _to_float(img2, dmax)
        mse = jnp.mean(jnp.square(x - y), axis=(1, 2, 3))
        return 10 * jnp.log10(max_val * max_val / mse)


class L1Regularizer(Cell):
    """``scale * sum(|weights|)``, a 0-D Tensor.

    Arguments:
        scale: a positive int or float.

    Raises:
        TypeError: ``scale`` not an int or float.
        ValueError: ``scale`` not positive or not finite.
    """

    def __init__(self, scale: int | float) -> None:
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise TypeError(f"For 'L1Regularizer', the type of 'scale' should be one of ['int', 'float'], but got "
                            f"{type(scale).__name__}")
        if scale <= 0:
            raise ValueError(f"For 'L1Regularizer', the 'scale' must be greater than 0, but got {scale}.")
        if not np.isfinite(scale):
            raise ValueError(f"For 'L1Regularizer', the 'scale' can not be INF or NAN, but got {scale}")
        self.scale = float(scale)

    def construct(self, weights: Any) -> jax.Array:
        weights = _arr(weights)
        return jnp.asarray(self.scale, weights.dtype) * jnp.sum(jnp.abs(weights))


class CosineSimilarity(Cell):
    """The cosine similarity of ``x1`` and ``x2`` along ``dim``: ``mindspore.nn.layer.math.CosineSimilarity``.

    Not the metric of the same name that ``mindspore.nn`` exports (``train.metrics.CosineSimilarity``);
    as in MindSpore this Cell is reached through ``nn.layer.math``.

    Arguments:
        dim: the axis to reduce (default ``1``).
        eps: the lower bound of the norms' product (default ``1e-8``).

    Raises:
        TypeError: inputs that are not Tensors.
    """

    def __init__(self, dim: int = 1, eps: float = 1e-08) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def construct(self, x1: Any, x2: Any) -> jax.Array:
        for name, v in (("x1", x1), ("x2", x2)):
            if not isinstance(v, (jax.Array, np.ndarray)) and not hasattr(v, "_raw"):
                raise TypeError(f"For 'CosineSimilarity', '{name}' must be a tensor, but got {type(v)}")
        return _arr(_fmath.cosine_similarity(x1, x2, self.dim, self.eps))


class MSSSIM(Cell):
    """The multi-scale structural similarity of two ``NCHW`` image batches, one value per image.

    At each of ``len(power_factors)`` scales the contrast-structure term ``cs`` is kept
    (clipped at 0) and the images are halved by a 2x2 average pool; at the last scale
    the SSIM is kept instead. The result is ``prod(term_i ** power_factors[i])``, averaged
    over the channels. The Gaussian windows are the Parameters
    ``multi_convs_list.<i>.weight`` (``requires_grad=False``), as in MindSpore.

    Arguments:
        max_val: the dynamic range of the pixels, > 0. Default 1.0.
        power_factors: the weight of each scale. Default (0.0448, 0.2856, 0.3001, 0.2363, 0.1333).
        filter_size: the Gaussian window's size, an int >= 1. Default 11.
        filter_sigma: the Gaussian's standard deviation, a float > 0. Default 1.5.
        k1, k2: the luminance and contrast constants. Defaults 0.01, 0.03.

    Inputs:
        img1, img2: 4-D Tensors of one shape and dtype (float64, float32, float16 or uint8),
            large enough for the window at the coarsest scale.

    Outputs:
        a float32 Tensor of shape ``(N,)``.

    Raises:
        TypeError: arguments of the wrong type, inputs of another dtype.
        ValueError: arguments out of range, inputs not 4-D or of different shapes.
    """

    def __init__(self, max_val: float = 1.0,
                 power_factors: tuple[float, ...] = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                 filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01, k2: float = 0.03) -> None:
        super().__init__()
        from mindjax.cells.containers import CellList
        from mindjax.cells.layers.conv import Conv2d
        from mindjax.common.tensor import Tensor
        where = "For 'MSSSIM'"
        if isinstance(max_val, bool) or not isinstance(max_val, (int, float)):
            raise TypeError(f"{where}, the type of 'max_val' should be one of '['int', 'float']', "
                            f"but got type '{type(max_val).__name__}'.")
        if max_val <= 0:
            raise ValueError(f"{where}, the argument 'max_val' must > 0.0, but got {max_val}.")
        self.max_val = max_val
        if not isinstance(power_factors, (tuple, list)):
            raise TypeError(f"{where}, the type of 'power_factors' should be one of '['tuple', 'list']', "
                            f"but got type '{type(power_factors).__name__}'.")
        if not _is_int(filter_size):
            raise TypeError(f"{where}, the 'filter_size' must be int, but got '{type(filter_size).__name__}'")
        if filter_size < 1:
            raise ValueError(f"{where}, the 'filter_size' must be int and must >= 1, but got '{filter_size}' "
                             f"with type 'int'.")
        if isinstance(filter_sigma, bool) or not isinstance(filter_sigma, float):
            raise TypeError(f"{where}, the 'filter_sigma' must be float, but got '{type(filter_sigma).__name__}'")
        if filter_sigma <= 0:
            raise ValueError(f"{where}, the 'filter_sigma' must be float and must > 0, but got '{filter_sigma}' "
                             f"with type 'float'.")
        for name, value in (("k1", k1), ("k2", k2)):
            if not isinstance(value, float):
                raise TypeError(f"{where}, the type of '{name}' should be 'float', but got type "
                                f"'{type(value).__name__}'.")
        self.filter_size, self.filter_sigma, self.k1, self.k2 = int(filter_size), filter_sigma, k1, k2
        window = Tensor(_gaussian_window(self.filter_size, filter_sigma))
        self.level = len(power_factors)
        convs = []
        for _ in range(self.level):
            conv = Conv2d(1, 1, self.filter_size, pad_mode="valid", weight_init=window)
            conv.weight.requires_grad = False
            convs.append(conv)
        self.multi_convs_list = CellList(convs)
        self.weight_tensor = jnp.asarray(power_factors, jnp.float32)

    def construct(self, img1: Any, img2: Any) -> jax.Array:
        img1, img2 = _arr(img1), _arr(img2)
        for name, img in (("img1", img1), ("img2", img2)):
            if img.ndim != 4:
                raise ValueError(f"For 'MSSSIM', the dimension of '{name}' must be 4d, but got {img.ndim}.")
        _check_float_input("MSSSIM", "img1", img1, (jnp.float64, jnp.float32, jnp.float16, jnp.uint8))
        _check_pair("MSSSIM", img1, img2)
        dmax = _dtype_max(img1.dtype)
        max_val = float(self.max_val) / dmax if dmax > 1.0 else float(self.max_val)
        x, y = _to_float(img1, dmax), _to_float(img2, dmax)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        terms = []
        ssim = None
        for i in range(self.level):
            n, c, h, w = x.shape
            if min(h, w) < self.filter_size:
                raise ValueError(f"For 'MSSSIM', the images at scale {i} are {h}x{w}, smaller than the window "
                                 f"(filter_size {self.filter_size}): give images of at least "
                                 f"{self.filter_size * 2 ** (self.level - 1)} pixels a side")
            conv = self.multi_convs_list[i]

            def blur(v: jax.Array) -> jax.Array:
                return _arr(conv(v.reshape(n * c, 1, h, w))).reshape(n, c, h - self.filter_size + 1, -1)

            mu1, mu2 = blur(x), blur(y)
            s11, s22, s12 = blur(x * x) - mu1 * mu1, blur(y * y) - mu2 * mu2, blur(x * y) - mu1 * mu2
            v1, v2 = 2 * s12 + c2, s11 + s22 + c2
            ssim = jnp.mean(((2 * mu1 * mu2 + c1) * v1) / ((mu1 * mu1 + mu2 * mu2 + c1) * v2), axis=(2, 3))
            terms.append(jax.nn.relu(jnp.mean(v1 / v2, axis=(2, 3))))
            x, y = (v[:, :, :h // 2 * 2, :w // 2 * 2].reshape(n, c, h // 2, 2, w // 2, 2).mean(axis=(3, 5))
                    for v in (x, y))
        stacked = jnp.stack(terms[:-1] + [jax.nn.relu(ssim)], axis=-1)
        return jnp.mean(jnp.prod(jnp.power(stacked, self.weight_tensor), axis=-1), axis=-1)
