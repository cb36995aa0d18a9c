"""MindSpore's ``mindspore.ops.function.fft_func``: discrete Fourier transforms over ``jnp.fft``.

Arguments follow MindSpore (``n``/``s`` sizes, ``dim`` axes, ``norm`` of ``'backward'``,
``'forward'`` or ``'ortho'``); integer inputs are promoted to float32, so results are
complex64 (complex128 under x64).

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> ops.fft(np.ones(4, np.float32)).tolist()
    [(4+0j), 0j, 0j, 0j]
"""
from __future__ import annotations

from typing import Any, Callable

import jax
import jax.numpy as jnp

from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import tensor_op
from mindjax.ops.function._build import _arr, _float, _named

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2",
           "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "fftshift", "ifftshift", "fftfreq", "rfftfreq"]

_M = __name__


def _norm(norm: Any) -> str:
    if norm is None:
        return "backward"
    if norm not in ("backward", "forward", "ortho"):
        raise ValueError(f"'norm' must be None, 'backward', 'forward' or 'ortho', got {norm!r}")
    return norm


def _input(x: Any) -> jax.Array:
    a = _arr(x)
    return a if jnp.iscomplexobj(a) else _float(a)


def _one_d(name: str, fn: Callable[..., Any], doc: str) -> Any:
    def op(input: Any, n: int | None = None, dim: int = -1, norm: str | None = None) -> jax.Array:
        return fn(_input(input), n=n, axis=dim, norm=_norm(norm))

    op.__name__ = op.__qualname__ = name
    op.__module__ = _M
    op.__doc__ = (f"{doc} along ``dim``.\n\n    Arguments:\n        input: an array.\n        n: the signal "
                  f"length (trimmed or zero-padded).\n        dim: the axis.\n        norm: 'backward' (default), "
                  f"'forward' or 'ortho'.\n\n    Returns:\n        the transform.\n")
    return tensor_op(_named(name)(op))


def _multi_d(name: str, fn: Callable[..., Any], doc: str, default_dim: Any) -> Any:
    def op(input: Any, s: Any = None, dim: Any = default_dim, norm: str | None = None) -> jax.Array:
        x = _input(input)
        axes = None if dim is None else tuple(dim) if isinstance(dim, (list, tuple)) else (dim,)
        if s is not None and axes is None:
            axes = tuple(range(-len(s), 0))
        return fn(x, s=None if s is None else tuple(s), axes=axes, norm=_norm(norm))

    op.__name__ = op.__qualname__ = name
    op.__module__ = _M
    op.__doc__ = (f"{doc} over the axes ``dim``.\n\n    Arguments:\n        input: an array.\n        s: the "
                  f"signal sizes per axis.\n        dim: the axes.\n        norm: 'backward' (default), 'forward' "
                  f"or 'ortho'.\n\n    Returns:\n        the transform.\n")
    return tensor_op(_named(name)(op))


def _hfftn(x: jax.Array, s: Any = None, axes: Any = None, norm: str = "backward") -> jax.Array:
    # hfftn = irfftn of the conjugate, with the norm's direction swapped.
    swap = {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]
    return jnp.fft.irfftn(jnp.conj(x), s=s, axes=axes, norm=swap)


def _ihfftn(x: jax.Array, s: Any = None, axes: Any = None, norm: str = "backward") -> jax.Array:
    swap = {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]
    return jnp.conj(jnp.fft.rfftn(x, s=s, axes=axes, norm=swap))


fft = _one_d("fft", jnp.fft.fft, "One-dimensional discrete Fourier transform")
ifft = _one_d("ifft", jnp.fft.ifft, "One-dimensional inverse discrete Fourier transform")
rfft = _one_d("rfft", jnp.fft.rfft, "One-dimensional Fourier transform of a real signal (half spectrum)")
irfft = _one_d("irfft", jnp.fft.irfft, "Inverse of :func:`rfft` (a real signal)")
hfft = _one_d("hfft", jnp.fft.hfft, "Fourier transform of a Hermitian-symmetric signal (real output)")
ihfft = _one_d("ihfft", jnp.fft.ihfft, "Inverse of :func:`hfft`")
fft2 = _multi_d("fft2", jnp.fft.fftn, "Two-dimensional discrete Fourier transform", (-2, -1))
ifft2 = _multi_d("ifft2", jnp.fft.ifftn, "Two-dimensional inverse discrete Fourier transform", (-2, -1))
rfft2 = _multi_d("rfft2", jnp.fft.rfftn, "Two-dimensional Fourier transform of a real signal", (-2, -1))
irfft2 = _multi_d("irfft2", jnp.fft.irfftn, "Inverse of :func:`rfft2`", (-2, -1))
hfft2 = _multi_d("hfft2", _hfftn, "Two-dimensional Fourier transform of a Hermitian signal", (-2, -1))
ihfft2 = _multi_d("ihfft2", _ihfftn, "Inverse of :func:`hfft2`", (-2, -1))
fftn = _multi_d("fftn", jnp.fft.fftn, "N-dimensional discrete Fourier transform", None)
ifftn = _multi_d("ifftn", jnp.fft.ifftn, "N-dimensional inverse discrete Fourier transform", None)
rfftn = _multi_d("rfftn", jnp.fft.rfftn, "N-dimensional Fourier transform of a real signal", None)
irfftn = _multi_d("irfftn", jnp.fft.irfftn, "Inverse of :func:`rfftn`", None)
hfftn = _multi_d("hfftn", _hfftn, "N-dimensional Fourier transform of a Hermitian signal", None)
ihfftn = _multi_d("ihfftn", _ihfftn, "Inverse of :func:`hfftn`", None)


@tensor_op
@_named("fftshift")
def fftshift(input: Any, dim: Any = None) -> jax.Array:
    """Move the zero-frequency term to the centre along ``dim`` (all axes by default)."""
    return jnp.fft.fftshift(_arr(input), axes=dim)


@tensor_op
@_named("ifftshift")
def ifftshift(input: Any, dim: Any = None) -> jax.Array:
    """The inverse of :func:`fftshift`."""
    return jnp.fft.ifftshift(_arr(input), axes=dim)


@tensor_op
@_named("fftfreq")
def fftfreq(n: int, d: float = 1.0, dtype: Any = None) -> jax.Array:
    """The sample frequencies of an ``n``-point FFT with spacing ``d``."""
    return jnp.fft.fftfreq(n, d).astype(jnp.float32 if dtype is None else to_jax_dtype(dtype))


@tensor_op
@_named("rfftfreq")
def rfftfreq(n: int, d: float = 1.0, dtype: Any = None) -> jax.Array:
    """The sample frequencies of an ``n``-point real FFT with spacing ``d``."""
    return jnp.fft.rfftfreq(n, d).astype(jnp.float32 if dtype is None else to_jax_dtype(dtype))
