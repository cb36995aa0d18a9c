"""MindSpore's ``mindspore.ops.function.linalg_func``: decompositions, pseudo-inverse and condition number.

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> q, r = ops.qr(np.eye(3, dtype=np.float32))
    >>> q.shape, r.shape
    ((3, 3), (3, 3))
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import tensor_op
from mindjax.ops.function._build import _arr, _float, _named, check_bool
# Existing ops of this family, re-exported under MindSpore's module path.
from mindjax.ops.functional import norm  # noqa: F401

__all__ = ["cond", "eig", "eigvals", "geqrf", "pinv", "qr", "svd"]


def _matrix(op: str, A: Any) -> jax.Array:
    a = _float(_arr(A))
    if a.ndim < 2:
        raise ValueError(f"the input must be at least 2-D, got shape {a.shape}")
    return a


@tensor_op
@_named("qr")
def qr(input: Any, mode: str = "reduced") -> tuple[jax.Array, jax.Array]:
    """QR decomposition ``input = Q R``; ``mode`` is ``'reduced'``, ``'complete'`` or ``'r'`` (Q empty)."""
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"'mode' must be 'reduced', 'complete' or 'r', got {mode!r}")
    a = _matrix("qr", input)
    if mode == "r":
        return jnp.zeros((0,), a.dtype), jnp.linalg.qr(a, mode="r")
    q, r = jnp.linalg.qr(a, mode=mode)
    return q, r


@tensor_op
@_named("svd")
def svd(input: Any, full_matrices: bool = False, compute_uv: bool = True) -> Any:
    """Singular value decomposition ``input = U diag(S) V^H``.

    Returns:
        ``(S, U, V)`` as MindSpore orders them (``V``, not ``V^H``), or ``S`` alone when not ``compute_uv``.
    """
    a = _matrix("svd", input)
    if not check_bool("compute_uv", compute_uv):
        return jnp.linalg.svd(a, compute_uv=False)
    u, s, vh = jnp.linalg.svd(a, full_matrices=check_bool("full_matrices", full_matrices))
    return s, u, jnp.conj(jnp.swapaxes(vh, -1, -2))


@tensor_op
@_named("eig")
def eig(A: Any) -> tuple[jax.Array, jax.Array]:
    """Eigenvalues and right eigenvectors of (a batch of) square matrices (complex; eager, on CPU)."""
    a = _matrix("eig", A)
    w, v = np.linalg.eig(np.asarray(a))
    ctype = jnp.complex128 if a.dtype == jnp.float64 else jnp.complex64
    return jnp.asarray(w, ctype), jnp.asarray(v, ctype)


@tensor_op
@_named("eigvals")
def eigvals(A: Any) -> jax.Array:
    """Eigenvalues of (a batch of) square matrices (complex; eager, on CPU)."""
    a = _matrix("eigvals", A)
    ctype = jnp.complex128 if a.dtype == jnp.float64 else jnp.complex64
    return jnp.asarray(np.linalg.eigvals(np.asarray(a)), ctype)


def _lax_geqrf(a: jax.Array) -> tuple[jax.Array, jax.Array]:
    # JAX registers the geqrf primitive on every backend but exports it from jax.lax.linalg only in some versions.
    fn = getattr(jax.lax.linalg, "geqrf", None)
    if fn is None:
        from jax._src.lax import linalg as _lax_linalg

        fn = _lax_linalg.geqrf
    return fn(a)


@tensor_op
@_named("geqrf")
def geqrf(input: Any) -> tuple[jax.Array, jax.Array]:
    """LAPACK's ``geqrf``: R above the diagonal and the Householder vectors below, plus ``tau``."""
    a = _matrix("geqrf", input)
    h, tau = _lax_geqrf(a)
    return h, tau


@tensor_op
@_named("pinv")
def pinv(x: Any, *, atol: Any = None, rtol: Any = None, hermitian: bool = False) -> jax.Array:
    """Moore-Penrose pseudo-inverse; singular values below ``max(atol, rtol * s_max)`` are dropped."""
    a = _matrix("pinv", x)
    check_bool("hermitian", hermitian)
    u, s, vh = jnp.linalg.svd(a, full_matrices=False)
    smax = jnp.max(s, axis=-1, keepdims=True)
    if rtol is None:
        rtol_v = (jnp.finfo(a.dtype).eps * max(a.shape[-2:])) if atol is None else 0.0
    else:
        rtol_v = _arr(rtol) if not isinstance(rtol, (int, float)) else rtol
    atol_v = 0.0 if atol is None else (_arr(atol) if not isinstance(atol, (int, float)) else atol)
    cutoff = jnp.maximum(atol_v, rtol_v * smax)
    s_inv = jnp.where(s > cutoff, 1.0 / jnp.where(s > cutoff, s, 1.0), 0.0)
    return jnp.conj(jnp.swapaxes(vh, -1, -2)) @ (s_inv[..., None] * jnp.conj(jnp.swapaxes(u, -1, -2)))


@tensor_op
@_named("cond")
def cond(A: Any, p: Any = None) -> jax.Array:
    """The condition number of ``A`` in norm ``p`` (None or 2: ratio of extreme singular values)."""
    a = _matrix("cond", A)
    if p is None or p == 2:
        s = jnp.linalg.svd(a, compute_uv=False)
        return s[..., 0] / s[..., -1]
    if p == -2:
        s = jnp.linalg.svd(a, compute_uv=False)
        return s[..., -1] / s[..., 0]
    if p not in ("fro", "nuc", 1, -1, float("inf"), float("-inf")):
        raise ValueError(f"'p' must be None, 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got {p!r}")
    return jnp.linalg.norm(a, ord=p, axis=(-2, -1)) * jnp.linalg.norm(jnp.linalg.inv(a), ord=p, axis=(-2, -1))
