"""MindSpore's ``mindspore.ops.operations.spectral_ops``: window Primitives.

Example:
    >>> from mindjax.ops import operations as P
    >>> P.BartlettWindow()(4).tolist()
    [0.0, 0.5, 1.0, 0.5]
"""
from __future__ import annotations

from typing import Any

import jax
import numpy as np

from mindjax.common import dtype as mstype
from mindjax.common.tensor import as_array
from mindjax.ops.function import spectral_func as S
from mindjax.ops.operations._base import Primitive, check_bool, check_int, record


class _Window(Primitive):
    _strategy_inputs = 0
    _fn: Any = None

    def __init__(self, periodic: bool = True, dtype: Any = mstype.float32) -> None:
        super().__init__()
        if str(dtype).lower() not in ("float16", "float32", "float64"):
            raise TypeError(f"For '{self.name}', 'dtype' must be float16, float32 or float64, but got {dtype}.")
        record(self, periodic=check_bool(self.name, "periodic", periodic), dtype=dtype)

    def __call__(self, window_length: Any) -> jax.Array:
        if isinstance(window_length, jax.core.Tracer):
            raise ValueError(f"For '{self.name}', 'window_length' sets the output shape, so it must be a constant.")
        n = np.asarray(as_array(window_length))
        if n.size != 1 or n.dtype.kind not in "iu":
            raise TypeError(f"For '{self.name}', 'window_length' must be an int scalar, but got {n.dtype} of shape "
                            f"{n.shape}.")
        if int(n.reshape(())) < 0:
            raise ValueError(f"For '{self.name}', 'window_length' must be >= 0, but got {int(n.reshape(()))}.")
        return type(self)._fn(int(n.reshape(())), self.periodic, dtype=self.dtype)


class BartlettWindow(_Window):
    """A Bartlett (triangular) window of ``window_length`` points.

    Arguments:
        periodic: a periodic rather than symmetric window. Default: ``True``. dtype: Default: ``float32``.

    Call: ``BartlettWindow()(window_length)`` -> 1-D array.
    """

    _fn = staticmethod(S.bartlett_window)


class BlackmanWindow(_Window):
    """A Blackman window of ``window_length`` points.

    Arguments:
        periodic: a periodic rather than symmetric window. Default: ``True``. dtype: Default: ``float32``.

    Call: ``BlackmanWindow()(window_length)`` -> 1-D array.
    """

    _fn = staticmethod(S.blackman_window)


class STFT(Primitive):
    """The short-time Fourier transform of already padded frames (``ops.stft`` without ``center``).

    Arguments:
        n_fft, hop_length, win_length: ints as :func:`mindjax.ops.stft` takes them.
        normalized, onesided, return_complex: bools as :func:`mindjax.ops.stft` takes them.

    Call: ``STFT(n_fft, hop_length, win_length, normalized, onesided, return_complex)(x, window)`` ->
    ``(batch?, n_freq, n_frames)`` complex, or with a trailing (real, imag) axis.
    """

    _strategy_inputs = 2

    def __init__(self, n_fft: int, hop_length: int, win_length: int, normalized: bool, onesided: bool,
                 return_complex: bool) -> None:
        super().__init__()
        name = self.name
        ints = {}
        for arg, value in (("n_fft", n_fft), ("hop_length", hop_length), ("win_length", win_length)):
            ints[arg] = check_int(name, arg, value)
            if ints[arg] <= 0:
                raise ValueError(f"For '{name}', '{arg}' must be a positive int, but got {value}.")
        record(self, **ints, normalized=check_bool(name, "normalized", normalized),
               onesided=check_bool(name, "onesided", onesided),
               return_complex=check_bool(name, "return_complex", return_complex))

    def __call__(self, x: Any, window: Any) -> jax.Array:
        return S.stft(x, self.n_fft, self.hop_length, self.win_length, window, False, "REFLECT", self.normalized,
                      self.onesided, self.return_complex)
