"""The mint-style ``*Ext`` layers MindSpore 2.10 exports in ``mindspore.nn``.

``AvgPool1dExt``/``AvgPool2dExt``/``AvgPool3dExt``, ``MaxPool2dExt``, ``DropoutExt``, ``Dropout2dExt``,
``EmbeddingExt``, ``LayerNormExt``, ``PReLUExt``, ``LogSoftmaxExt`` and ``L1LossExt`` take MindSpore's
(PyTorch-style) constructor arguments and defaults, keep its attribute and parameter names, and call
the functional op in ``mindjax.ops`` for their numbers.

Example:
    >>> import numpy as np
    >>> from mindjax import nn
    >>> nn.AvgPool2dExt(2)(np.zeros((1, 1, 4, 4), np.float32)).shape
    (1, 1, 2, 2)
"""
from __future__ import annotations

import numbers
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.cells.cell import Cell
from mindjax.cells.loss import LossBase
from mindjax.cells.parameter import Parameter
from mindjax.common import dtype as mstype
from mindjax.common.initializer import Normal, initializer
from mindjax.common.tensor import Tensor
from mindjax.common.tensor import as_array as _arr
from mindjax.ops import functional as _F
from mindjax.ops import functional_random_nn as _rnn
from mindjax.ops.function import nn_func as _nn
from mindjax.ops.function._build import implicit_softmax_dim

__all__ = ["AvgPool1dExt", "AvgPool2dExt", "AvgPool3dExt", "MaxPool2dExt", "DropoutExt", "Dropout2dExt",
           "EmbeddingExt", "LayerNormExt", "PReLUExt", "LogSoftmaxExt", "L1LossExt"]


def _stride(kernel_size: Any, stride: Any) -> Any:
    return kernel_size if stride is None else stride


class AvgPool1dExt(Cell):
    """1-D average pooling over ``(N, C, L)`` or ``(C, L)``; ``stride`` defaults to ``kernel_size``.

    Arguments:
        kernel_size, stride, padding: ints or 1-tuples (zero padding on both sides).
        ceil_mode: round the output length up.
        count_include_pad: count the padded zeros in each average (default ``True``).
    """

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def construct(self, input: Any) -> jax.Array:  # noqa: A002 (MindSpore's name)
        return _nn.avg_pool1d(input, self.kernel_size, _stride(self.kernel_size, self.stride), self.padding,
                              self.ceil_mode, self.count_include_pad)


class AvgPool2dExt(Cell):
    """2-D average pooling over ``(N, C, H, W)`` or ``(C, H, W)``; ``stride`` defaults to ``kernel_size``.

    Arguments:
        kernel_size, stride, padding: ints or pairs (zero padding on both sides).
        ceil_mode: round output sizes up.
        count_include_pad: count the padded zeros in each average (default ``True``).
        divisor_override: divide by this instead of the window size (``None``: the window size).
    """

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def construct(self, input: Any) -> jax.Array:  # noqa: A002
        return _F.avg_pool2d(input, self.kernel_size, _stride(self.kernel_size, self.stride), self.padding,
                             self.ceil_mode, self.count_include_pad, self.divisor_override or 0)


class AvgPool3dExt(AvgPool2dExt):
    """3-D average pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)``; ``stride`` defaults to ``kernel_size``.

    Arguments: as :class:`AvgPool2dExt`, with ints or triples.
    """

    def construct(self, input: Any) -> jax.Array:  # noqa: A002
        return _nn.avg_pool3d(input, self.kernel_size, _stride(self.kernel_size, self.stride), self.padding,
                              self.ceil_mode, self.count_include_pad, self.divisor_override or 0)


class MaxPool2dExt(Cell):
    """2-D max pooling over ``(N, C, H, W)`` or ``(C, H, W)``; ``stride`` defaults to ``kernel_size``.

    Arguments:
        kernel_size, stride, padding, dilation: ints or pairs (padding is ``-inf`` on both sides).
        return_indices: also return the flat indices of the maxima.
        ceil_mode: round output sizes up.
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = _stride(kernel_size, stride)
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def construct(self, input: Any) -> Any:  # noqa: A002
        return _F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                             self.return_indices, self.ceil_mode)


def _check_p(cls: str, p: Any) -> float:
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError(f"For '{cls}', the type of 'p' should be 'float', but got {type(p).__name__}")
    if not 0 <= p <= 1:
        raise ValueError(f"For '{cls}', the 'p' must be in range [0, 1], but got {p}")
    return float(p)


class DropoutExt(Cell):
    """Zero each element with probability ``p`` in training, scaling the kept ones by ``1 / (1 - p)``.

    Arguments:
        p: the probability of zeroing an element, in ``[0, 1]`` (default ``0.5``).
        inplace: accepted for MindSpore's signature; the result is always a new Tensor.

    Raises:
        TypeError / ValueError: ``p`` not a number in ``[0, 1]``.
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        self.p = _check_p("DropoutExt", p)
        self.inplace = inplace

    def construct(self, input: Any) -> Any:  # noqa: A002
        if not self.training or self.p == 0:
            return input
        return _F.dropout(input, self.p, True)


class Dropout2dExt(Cell):
    """Zero whole channels of ``(N, C, H, W)`` or ``(C, H, W)`` with probability ``p`` in training.

    Arguments:
        p: the probability of zeroing a channel, in ``[0, 1]`` (default ``0.5``).
        inplace: accepted for MindSpore's signature; the result is always a new Tensor.
    """

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        self.p = _check_p("Dropout2dExt", p)
        self.inplace = inplace

    def construct(self, input: Any) -> Any:  # noqa: A002
        if not self.training or self.p == 0:
            return input
        x = _arr(input)
        if x.ndim == 3:  # (C, H, W): one sample without its batch axis
            return _nn.dropout2d(x[None], self.p, True)[0]
        return _nn.dropout2d(x, self.p, True)


class EmbeddingExt(Cell):
    """A lookup table ``weight[input]`` of ``num_embeddings`` vectors of size ``embedding_dim``.

    Arguments:
        num_embeddings, embedding_dim: the table's shape.
        padding_idx: a row kept at zero at initialisation (negative counts from the end).
        max_norm: renormalise looked-up rows whose ``norm_type``-norm exceeds it.
        norm_type: the norm for ``max_norm`` (default ``2.0``).
        scale_grad_by_freq: scale gradients by the inverse frequency of each index.
        sparse: must be ``False`` (as in MindSpore).
        _weight: an initial table of shape ``(num_embeddings, embedding_dim)``; else ``Normal(1, 0)``.
        _freeze: make ``weight`` not trainable.
        dtype: the table's dtype (default float32).

    Raises:
        TypeError: arguments of the wrong type.
        ValueError: ``sparse=True``, ``padding_idx`` out of range, or a ``_weight`` of the wrong shape.
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Any = None, _freeze: bool = False, dtype: Any = None) -> None:
        super().__init__()
        if not isinstance(sparse, bool):
            raise TypeError(f"For 'EmbeddingExt', the type of 'sparse' should be 'bool', but got "
                            f"{type(sparse).__name__}")
        if sparse:
            raise ValueError("For Embedding, the scenerio, where `sparse` is True, has not be supported.")
        for name, v in (("num_embeddings", num_embeddings), ("embedding_dim", embedding_dim)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"For 'EmbeddingExt', the type of '{name}' should be 'int', but got "
                                f"{type(v).__name__}")
        self.sparse = sparse
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.dtype = mstype.float32 if dtype is None else dtype
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx <= num_embeddings:
                raise ValueError(f"For 'EmbeddingExt', the 'padding_idx' must be in range "
                                 f"[{-num_embeddings}, {num_embeddings}], but got {padding_idx}.")
            if padding_idx < 0:
                padding_idx += num_embeddings
        self.padding_idx = padding_idx
        if _weight is None:
            table = np.asarray(_arr(initializer(Normal(1, 0), [num_embeddings, embedding_dim], self.dtype)))
            if padding_idx is not None:
                table = table.copy()
                table[padding_idx] = 0
            self.weight = Parameter(Tensor(table, self.dtype), name="weight", requires_grad=not _freeze)
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError(f"For Embedding, shape of weight should be match with num_embeddings and "
                                 f"embedding_dim, but got weight.shape: {tuple(_weight.shape)}, and "
                                 f"(num_embeddings, embedding_dim): ({num_embeddings}, {embedding_dim})")
            self.weight = Parameter(_weight, name="weight", requires_grad=not _freeze)
        if max_norm is not None and not isinstance(max_norm, float):
            raise TypeError(f"For 'EmbeddingExt', the type of 'max_norm' should be 'float', but got "
                            f"{type(max_norm).__name__}")
        if norm_type is not None and not isinstance(norm_type, float):
            raise TypeError(f"For 'EmbeddingExt', the type of 'norm_type' should be 'float', but got "
                            f"{type(norm_type).__name__}")
        if scale_grad_by_freq is not None and not isinstance(scale_grad_by_freq, bool):
            raise TypeError(f"For 'EmbeddingExt', the type of 'scale_grad_by_freq' should be 'bool', but got "
                            f"{type(scale_grad_by_freq).__name__}")
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq

    def construct(self, input: Any) -> jax.Array:  # noqa: A002
        return _rnn.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                              self.scale_grad_by_freq)

    def extend_repr(self) -> str:
        """``num_embeddings=..., embedding_dim=..., padding_idx=...``."""
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
                f"padding_idx={self.padding_idx}")


class LayerNormExt(Cell):
    """Layer normalisation over the trailing ``normalized_shape`` axes.

    Arguments:
        normalized_shape: an int or a tuple/list of ints.
        eps: added to the variance (default ``1e-5``).
        elementwise_affine: learn ``weight`` (ones) and ``bias`` (zeros).
        bias: learn ``bias`` too (when ``elementwise_affine``).
        dtype: the parameters' dtype (default float32).

    Raises:
        TypeError: ``normalized_shape`` not an int, tuple or list.
        ValueError: an empty ``normalized_shape``.
    """

    def __init__(self, normalized_shape: Any, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, dtype: Any = None) -> None:
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For 'LayerNormExt', the type of 'normalized_shape' must be tuple[int] or "
                            f"list[int], but got {normalized_shape} and the type is {type(normalized_shape)}.")
        if not normalized_shape:
            raise ValueError(f"Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
                             f"one element, but got normalized_shape = {normalized_shape}")
        self.normalized_shape = tuple(int(d) for d in normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        ms_dtype = mstype.float32 if dtype is None else dtype
        if elementwise_affine:
            self.weight = Parameter(Tensor(np.ones(self.normalized_shape), ms_dtype), name="weight")
            self.bias = Parameter(Tensor(np.zeros(self.normalized_shape), ms_dtype), name="bias") if bias else None
        else:
            self.weight = None
            self.bias = None

    def construct(self, input: Any) -> jax.Array:  # noqa: A002
        return _F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extend_repr(self) -> str:
        """``normalized_shape=..., eps=..., elementwise_affine=...``."""
        return f"normalized_shape={self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class PReLUExt(Cell):
    """``max(0, x) + weight * min(0, x)`` with a learnt slope per channel (``num_parameters``) or one.

    Arguments:
        num_parameters: the number of slopes, 1 or the channel count (default ``1``).
        init: the slopes' initial value (default ``0.25``).
        dtype: the slopes' dtype (default float32).
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, dtype: Any = None) -> None:
        super().__init__()
        w = np.full((num_parameters,), init, np.float32)
        self.weight = Parameter(Tensor(w, mstype.float32 if dtype is None else dtype), name="weight")

    def construct(self, input: Any) -> jax.Array:  # noqa: A002
        return _rnn.prelu(input, self.weight)


class LogSoftmaxExt(Cell):
    """``log(softmax(x, dim))``; ``dim=None`` picks axis 0 for ranks 0, 1 and 3 and axis 1 otherwise.

    Arguments:
        dim: the axis (default ``None``).
    """

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int)):
            raise TypeError(f"For 'LogSoftmaxExt', the type of 'dim' should be 'int', but got {type(dim).__name__}")
        self.dim = dim

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        dim = implicit_softmax_dim(x.ndim) if self.dim is None else self.dim
        return _F.log_softmax(x, dim)


class L1LossExt(LossBase):
    """The mean (``'mean'``), sum (``'sum'``) or elementwise (``'none'``) absolute error.

    Arguments:
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Raises:
        ValueError: another ``reduction``.
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.reduction = reduction

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        return _F.l1_loss(logits, labels, self.reduction)
