"""``Tensor.max``/``Tensor.min``: MindSpore 2.10's overload selection and its bad-input errors."""
from __future__ import annotations

import numpy as np
import pytest

import mindjax

X = np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], np.float32)


def test_dim_keepdim_returns_values_and_indices() -> None:
    values, indices = mindjax.Tensor(X).max(0, True)
    np.testing.assert_array_equal(values.asnumpy(), [[4.0, 5.0, 6.0]])
    np.testing.assert_array_equal(indices.asnumpy(), [[1, 0, 1]])


def test_numpy_keyword_selects_values_only() -> None:
    out = mindjax.Tensor(X).min(0, True, initial=None)
    assert isinstance(out, mindjax.Tensor)
    np.testing.assert_array_equal(out.asnumpy(), [[1.0, 2.0, 3.0]])


def test_initial_bounds_the_result() -> None:
    np.testing.assert_array_equal(mindjax.Tensor(X).max(1, initial=5.5).asnumpy(), [5.5, 6.0])
    np.testing.assert_array_equal(mindjax.Tensor(X).min(axis=1, initial=1.5).asnumpy(), [1.0, 1.5])


def test_where_masks_with_initial() -> None:
    mask = mindjax.Tensor(np.array([[True, False, True], [False, True, True]]))
    out = mindjax.Tensor(X).max(axis=0, initial=0.0, where=mask)
    np.testing.assert_array_equal(out.asnumpy(), [1.0, 2.0, 6.0])


def test_where_mask_without_initial_names_the_argument() -> None:
    mask = mindjax.Tensor(np.array([[True, False, True], [False, True, True]]))
    with pytest.raises(ValueError, match=r"Tensor\.max.*'initial'"):
        mindjax.Tensor(X).max(axis=0, where=mask)


def test_non_scalar_initial_is_rejected() -> None:
    with pytest.raises(TypeError, match=r"Tensor\.min.*'initial' must be a scalar.*list"):
        mindjax.Tensor(X).min(axis=0, initial=[1.0])


def test_mixing_overload_keywords_is_rejected() -> None:
    with pytest.raises(TypeError, match=r"Tensor\.max.*'dim'.*'keepdims'"):
        mindjax.Tensor(X).max(dim=0, keepdims=True)


def test_unknown_keyword_and_bad_dim() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'keep'"):
        mindjax.Tensor(X).max(0, keep=True)
    with pytest.raises(ValueError, match=r"'dim' must be in \[-2, 2\), but got 2"):
        mindjax.Tensor(X).max(2)
    with pytest.raises(TypeError, match="'axis' must be an int, a tuple of ints or None, but got str"):
        mindjax.Tensor(X).max(axis="0")
