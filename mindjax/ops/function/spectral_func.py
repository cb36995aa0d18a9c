"""MindSpore's ``mindspore.ops.function.spectral_func``: the Bartlett and Blackman windows, and ``stft``
(MindSpore keeps it in ``math_func``; it is re-exported there by name through ``ops``).

Example:
    >>> from mindjax import ops
    >>> ops.bartlett_window(5, periodic=False).tolist()
    [0.0, 0.5, 1.0, 0.5, 0.0]
"""
from __future__ import annotations

import math
from typing import Any

import jax
import jax.numpy as jnp

from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import tensor_op
from mindjax.ops.function._build import _named, check_bool, check_int

__all__ = ["bartlett_window", "blackman_window", "stft"]


def _setup(window_length: Any, periodic: Any, dtype: Any) -> tuple[int, int, Any]:
    n = check_int("window_length", window_length, 0)
    m = n + 1 if check_bool("periodic", periodic) else n
    return n, m, jnp.float32 if dtype is None else to_jax_dtype(dtype)


@tensor_op
@_named("bartlett_window")
def bartlett_window(window_length: int, periodic: bool = True, *, dtype: Any = None) -> jax.Array:
    """The triangular Bartlett window ``1 - |2 n / (N - 1) - 1|`` (periodic: computed for ``N + 1``)."""
    n, m, dt = _setup(window_length, periodic, dtype)
    if n <= 1:
        return jnp.ones((n,), dt)
    k = jnp.arange(n, dtype=jnp.float32)
    return (1 - jnp.abs(2 * k / (m - 1) - 1)).astype(dt)


@tensor_op
@_named("blackman_window")
def blackman_window(window_length: int, periodic: bool = True, *, dtype: Any = None) -> jax.Array:
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``."""
    n, m, dt = _setup(window_length, periodic, dtype)
    if n <= 1:
        return jnp.ones((n,), dt)
    k = jnp.arange(n, dtype=jnp.float32)
    w = 0.42 - 0.5 * jnp.cos(2 * math.pi * k / (m - 1)) + 0.08 * jnp.cos(4 * math.pi * k / (m - 1))
    return w.astype(dt)


def _frames_stft(x: jax.Array, n_fft: int, hop: int, window: jax.Array, normalized: bool, onesided: bool,
                 return_complex: bool) -> jax.Array:
    """The STFT of already padded ``x`` (..., L): ``(..., n_freq, n_frames)``, complex or a trailing (re, im)."""
    count = 1 + (x.shape[-1] - n_fft) // hop
    if count < 1:
        raise ValueError(f"the input's last dimension ({x.shape[-1]}) must be at least 'n_fft' ({n_fft})")
    index = jnp.arange(count)[:, None] * hop + jnp.arange(n_fft)[None, :]
    frames = x[..., index] * window
    spec = jnp.fft.rfft(frames, axis=-1) if onesided else jnp.fft.fft(frames, axis=-1)
    if normalized:
        spec = spec / math.sqrt(n_fft)
    spec = jnp.swapaxes(spec, -1, -2).astype(jnp.complex128 if x.dtype in (jnp.float64, jnp.complex128)
                                              else jnp.complex64)
    return spec if return_complex else jnp.stack([spec.real, spec.imag], axis=-1)


def _stft_window(window: Any, n_fft: int, win_length: int, dtype: Any) -> jax.Array:
    if window is None:
        w = jnp.ones((win_length,), dtype)
    else:
        w = jnp.asarray(window)
        if w.shape != (win_length,):
            raise ValueError(f"'window' must have shape ({win_length},) (win_length), got {w.shape}")
    left = (n_fft - win_length) // 2
    return jnp.pad(w, (left, n_fft - win_length - left))


@tensor_op
@_named("stft")
def stft(x: Any, n_fft: int, hop_length: int | None = None, win_length: int | None = None, window: Any = None,
         center: bool = True, pad_mode: str = "REFLECT", normalized: bool = False, onesided: bool | None = None,
         return_complex: bool | None = None) -> jax.Array:
    """The short-time Fourier transform of ``x`` (L,) or (batch, L).

    Arguments:
        x: a 1-D or 2-D real or complex tensor.
        n_fft: the FFT size (positive).
        hop_length: the step between frames. Default: ``n_fft // 4``.
        win_length: the window's size, at most ``n_fft``. Default: ``n_fft``.
        window: a 1-D ``(win_length,)`` tensor, zero-padded on both sides to ``n_fft``. Default: ones.
        center: pad ``x`` by ``n_fft // 2`` on both sides first. Default: ``True``.
        pad_mode: ``'REFLECT'`` or ``'CONSTANT'`` (zeros), the padding of ``center``. Default: ``'REFLECT'``.
        normalized: divide by ``sqrt(n_fft)``. Default: ``False``.
        onesided: keep the ``n_fft // 2 + 1`` non-negative frequencies. Default: ``True`` for real input,
            ``False`` for complex.
        return_complex: a complex result; otherwise a trailing axis of (real, imag). Default: ``False`` for
            real input and window, ``True`` otherwise.

    Returns:
        ``(batch?, n_freq, n_frames)`` complex, or ``(batch?, n_freq, n_frames, 2)`` real.
    """
    a = jnp.asarray(x)
    if a.ndim not in (1, 2):
        raise ValueError(f"'x' must be 1-D or 2-D, got shape {a.shape}")
    n_fft = check_int("n_fft", n_fft, 1)
    hop = n_fft // 4 if hop_length is None else check_int("hop_length", hop_length, 1)
    win = n_fft if win_length is None else check_int("win_length", win_length, 1)
    if hop <= 0:
        raise ValueError(f"'hop_length' must be positive, got {hop} (n_fft // 4 with n_fft={n_fft})")
    if win > n_fft:
        raise ValueError(f"'win_length' ({win}) must be at most 'n_fft' ({n_fft})")
    if not isinstance(pad_mode, str) or pad_mode.upper() not in ("REFLECT", "CONSTANT"):
        raise ValueError(f"'pad_mode' must be 'REFLECT' or 'CONSTANT', got {pad_mode!r}")
    is_complex = jnp.iscomplexobj(a) or (window is not None and jnp.iscomplexobj(jnp.asarray(window)))
    onesided = (not is_complex) if onesided is None else check_bool("onesided", onesided)
    return_complex = is_complex if return_complex is None else check_bool("return_complex", return_complex)
    if onesided and is_complex:
        raise ValueError("'onesided' must be False for a complex input or window")
    if not jnp.issubdtype(a.dtype, jnp.inexact):
        a = a.astype(jnp.float32)
    if check_bool("center", center):
        pad = n_fft // 2
        if pad_mode.upper() == "REFLECT" and a.shape[-1] <= pad:
            raise ValueError(f"reflect padding of {pad} needs more than {pad} samples, got {a.shape[-1]}")
        widths = [(0, 0)] * (a.ndim - 1) + [(pad, pad)]
        a = jnp.pad(a, widths, mode="reflect" if pad_mode.upper() == "REFLECT" else "constant")
    w = _stft_window(window, n_fft, win, jnp.float32 if not jnp.iscomplexobj(a) else a.dtype)
    return _frames_stft(a, n_fft, hop, w, check_bool("normalized", normalized), onesided, return_complex)
