"""Normalization layers with MindSpore 2.10's arguments, Parameter names and statistics.

BatchNorm follows MindSpore exactly: in training it normalizes with the batch
mean and the biased batch variance, and updates
``moving = momentum * moving + (1 - momentum) * batch`` where the variance that
enters the moving average is the unbiased one (``n / (n - 1)``). In eval it
uses the moving statistics. The statistics are written with ``set_data``, so a
GRAPH-mode (compiled) call writes them back as well.

Example:
    >>> import mindjax as ms
    >>> from mindjax import nn, ops
    >>> bn = nn.BatchNorm2d(3).set_train()
    >>> _ = bn(ops.ones((2, 3, 4, 4), ms.float32))
    >>> [p.name for p in bn.get_parameters()]
    ['mean', 'variance', 'gamma', 'beta']
"""
from __future__ import annotations

import numbers
from typing import Any, Sequence

import jax.numpy as jnp
import numpy as np

from mindjax.cells.cell import Cell
from mindjax.cells.layers._inputs import float_input, nonempty_axes
from mindjax.cells.layers.basic import _is_int
from mindjax.cells.parameter import Parameter
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.initializer import initializer
from mindjax.common.precision import run_as

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm",
           "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]


def _stat_dtype(dtype: Any) -> Any:
    """Statistics are accumulated in at least float32, as MindSpore's kernels do."""
    return jnp.promote_types(dtype, jnp.float32)


def _moments(x: Any, axes: tuple[int, ...]) -> tuple[Any, Any]:
    xf = x.astype(_stat_dtype(x.dtype))
    mean = jnp.mean(xf, axis=axes, keepdims=True)
    var = jnp.mean(jnp.square(xf - mean), axis=axes, keepdims=True)
    return mean, var


def _check_eps(owner: str, eps: Any, arg: str = "eps") -> None:
    if isinstance(eps, bool) or not isinstance(eps, numbers.Real) or not eps > 0 or eps != eps:
        raise ValueError(f"For '{owner}', '{arg}' must be a positive number (it keeps the variance away from 0), "
                         f"got {eps!r}")


class _BatchNorm(Cell):
    """Shared implementation of BatchNorm1d/2d (MindSpore's ``_BatchNorm``)."""

    _ranks: tuple[int, ...] = ()
    _layout = ""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9,
                 affine: bool = True, gamma_init: Any = "ones", beta_init: Any = "zeros",
                 moving_mean_init: Any = "zeros", moving_var_init: Any = "ones",
                 use_batch_statistics: bool | None = None, data_format: str = "NCHW",
                 dtype: Any = jnp.float32) -> None:
        super().__init__()
        name = type(self).__name__
        if not _is_int(num_features):
            raise TypeError(f"For '{name}', 'num_features' must be an int, got {num_features!r}")
        if num_features < 1:
            raise ValueError(f"For '{name}', 'num_features' must be at least 1, got {num_features}")
        if not isinstance(momentum, numbers.Real) or not 0 <= momentum <= 1:
            raise ValueError(f"For '{name}', 'momentum' must be a number in [0, 1], got {momentum!r}")
        _check_eps(name, eps)
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For '{name}', 'data_format' must be 'NCHW' or 'NHWC', got {data_format!r}")
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise ValueError(f"For '{name}', 'use_batch_statistics' must be a bool or None, "
                             f"got {use_batch_statistics!r}")
        self.format = data_format
        self.use_batch_statistics = use_batch_statistics
        self.num_features = int(num_features)
        self.eps = eps
        self.gamma_init, self.beta_init = gamma_init, beta_init
        self.moving_mean_init, self.moving_var_init = moving_mean_init, moving_var_init
        dtype = to_jax_dtype(dtype)
        n = self.num_features
        # MindSpore names these 'mean' and 'variance'; inside a parent they take the
        # attribute path ('bn1.moving_mean') like every other Parameter.
        self.moving_mean = Parameter(initializer(moving_mean_init, n, dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, n, dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, n, dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, n, dtype), name="beta", requires_grad=affine)
        # MindSpore stores the weight of the *batch* statistic here (1 - momentum).
        self.momentum = 1.0 - momentum

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={1.0 - self.momentum}, "
                f"gamma={self.gamma}, beta={self.beta}, moving_mean={self.moving_mean}, "
                f"moving_variance={self.moving_variance}")

    def _check_input(self, x: Any) -> int:
        shape = tuple(float_input(self._where(), "x", x).shape)
        if len(shape) not in self._ranks:
            raise ValueError(f"{self._where()}, expected input of rank "
                             f"{' or '.join(map(str, self._ranks))} {self._layout}, got shape {shape}")
        axis = len(shape) - 1 if self.format == "NHWC" else 1
        if shape[axis] != self.num_features:
            raise ValueError(f"{self._where()}, expected {self.num_features} channels at axis "
                             f"{axis}, got input of shape {shape}")
        # Statistics over no element are NaN: an empty batch or spatial axis is an error.
        nonempty_axes(self._where(), "x", x, [i for i in range(len(shape)) if i != axis], "batch or spatial")
        return axis

    def construct(self, x: Any) -> Any:
        return run_as("BatchNorm", self._normalize, x)  # MindSpore's BatchNorm Primitive, for mixed precision

    def _normalize(self, x: Any) -> Any:
        axis = self._check_input(x)
        reduce_axes = tuple(i for i in range(x.ndim) if i != axis)
        bshape = [1] * x.ndim
        bshape[axis] = self.num_features
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        sdtype = _stat_dtype(x.dtype)
        if use_batch:
            mean, var = _moments(x, reduce_axes)
            count = int(np.prod([x.shape[i] for i in reduce_axes]))
            unbiased = var * (count / max(count - 1, 1))
            keep = 1.0 - self.momentum
            self.moving_mean.set_data(keep * self.moving_mean._value
                                      + self.momentum * mean.reshape(-1))
            self.moving_variance.set_data(keep * self.moving_variance._value
                                          + self.momentum * unbiased.reshape(-1))
        else:
            mean = self.moving_mean._value.astype(sdtype).reshape(bshape)
            var = self.moving_variance._value.astype(sdtype).reshape(bshape)
        scale = self.gamma._value.astype(sdtype).reshape(bshape) / jnp.sqrt(var + self.eps)
        out = (x.astype(sdtype) - mean) * scale + self.beta._value.astype(sdtype).reshape(bshape)
        return out.astype(x.dtype)


class BatchNorm1d(_BatchNorm):
    """Batch normalization over ``(N, C)`` or ``(N, C, L)`` (MindSpore's ``nn.BatchNorm1d``).

    Arguments:
        num_features: ``C``.
        eps: added to the variance. Default 1e-5.
        momentum: weight of the old moving statistic. Default 0.9.
        affine: whether ``gamma`` and ``beta`` are trainable. Default ``True``.
        gamma_init, beta_init, moving_mean_init, moving_var_init: initializers
            (``'ones'``, ``'zeros'``, ``'zeros'``, ``'ones'``).
        use_batch_statistics: ``None`` (default): batch statistics in training and
            moving ones in eval; ``True``/``False`` force one of them.
        data_format: ``'NCHW'`` (channels at axis 1) or ``'NHWC'`` (channels last).
        dtype: dtype of the Parameters.

    Parameters:
        ``moving_mean`` (named 'mean'), ``moving_variance`` ('variance'), ``gamma``, ``beta``.

    Returns:
        the normalized input, same shape and dtype.
    """

    _ranks = (2, 3)
    _layout = "(N, C) or (N, C, L)"


class BatchNorm2d(_BatchNorm):
    """Batch normalization over ``(N, C, H, W)`` (MindSpore's ``nn.BatchNorm2d``).

    Arguments:
        as :class:`BatchNorm1d`.

    Returns:
        the normalized input, same shape and dtype.
    """

    _ranks = (4,)
    _layout = "(N, C, H, W)"


class BatchNorm3d(Cell):
    """Batch normalization over ``(N, C, D, H, W)`` (MindSpore's ``nn.BatchNorm3d``).

    As in MindSpore it holds a :class:`BatchNorm2d` named ``bn2d`` (Parameters
    ``bn2d.moving_mean`` ...) and folds ``D`` into ``H``.

    Arguments:
        as :class:`BatchNorm1d`, without ``data_format``.

    Returns:
        the normalized input, same shape and dtype.
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.9,
                 affine: bool = True, gamma_init: Any = "ones", beta_init: Any = "zeros",
                 moving_mean_init: Any = "zeros", moving_var_init: Any = "ones",
                 use_batch_statistics: bool | None = None, dtype: Any = jnp.float32) -> None:
        super().__init__()
        try:
            self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init,
                                    moving_mean_init, moving_var_init, use_batch_statistics, "NCHW",
                                    dtype)
        except (TypeError, ValueError) as exc:  # the arguments are BatchNorm3d's: name it, not its inner Cell
            raise type(exc)(str(exc).replace("For 'BatchNorm2d'", "For 'BatchNorm3d'", 1)) from None

    def construct(self, x: Any) -> Any:
        shape = tuple(float_input(self._where(), "x", x).shape)
        if len(shape) != 5:
            raise ValueError(f"{self._where()}, expected input of rank 5 (N, C, D, H, W), got shape {shape}")
        out = self.bn2d(x.reshape(shape[0], shape[1], shape[2] * shape[3], shape[4]))
        return out.reshape(shape)


class LayerNorm(Cell):
    """Layer normalization (MindSpore's ``nn.LayerNorm``).

    Normalizes over the axes from ``begin_norm_axis`` to the end, then applies
    ``gamma`` and ``beta`` (of shape ``normalized_shape``) over the axes from
    ``begin_params_axis``.

    Arguments:
        normalized_shape: a tuple or list: the shape of ``gamma`` and ``beta``.
        begin_norm_axis: first normalized axis. Default -1.
        begin_params_axis: first axis that ``gamma``/``beta`` cover. Default -1.
        gamma_init, beta_init: initializers (``'ones'``, ``'zeros'``).
        epsilon: added to the variance. Default 1e-7 (MindSpore's default).
        dtype: dtype of the Parameters.

    Returns:
        the normalized input, same shape and dtype.
    """

    def __init__(self, normalized_shape: Sequence[int], begin_norm_axis: int = -1,
                 begin_params_axis: int = -1, gamma_init: Any = "ones", beta_init: Any = "zeros",
                 epsilon: float = 1e-7, dtype: Any = jnp.float32) -> None:
        super().__init__()
        name = type(self).__name__
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For '{name}', 'normalized_shape' must be a tuple or list of ints, "
                            f"got {normalized_shape!r}")
        if not normalized_shape:
            raise ValueError(f"For '{name}', 'normalized_shape' must have at least one element, "
                             f"got {normalized_shape!r}")
        for arg, value in (("begin_norm_axis", begin_norm_axis), ("begin_params_axis", begin_params_axis)):
            if not _is_int(value):
                raise TypeError(f"For '{name}', '{arg}' must be an int, got {value!r}")
        self.normalized_shape = normalized_shape
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis
        _check_eps(name, epsilon, "epsilon")
        self.epsilon = epsilon
        dtype = to_jax_dtype(dtype)
        self.gamma = Parameter(initializer(gamma_init, normalized_shape, dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, normalized_shape, dtype), name="beta")
        # MindSpore's attribute: model-zoo subclasses call self.layer_norm(x, self.gamma, self.beta).
        from mindjax.ops.primitives import LayerNorm as _LayerNormPrimitive

        self.layer_norm = _LayerNormPrimitive(begin_norm_axis, begin_params_axis, epsilon)

    def extend_repr(self) -> str:
        # 'gamma{}' without '=' is MindSpore 2.10's text, kept so reprs compare equal
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma}, beta={self.beta}")

    def construct(self, x: Any) -> Any:
        float_input(self._where(), "x", x)
        return run_as("LayerNorm", self._normalize, x)  # MindSpore's LayerNorm Primitive, for mixed precision

    def _normalize(self, x: Any) -> Any:
        shape = tuple(getattr(x, "shape", ()))
        rank = len(shape)
        norm_axis = self.begin_norm_axis % rank if -rank <= self.begin_norm_axis < rank else None
        param_axis = self.begin_params_axis % rank if -rank <= self.begin_params_axis < rank else None
        if norm_axis is None or param_axis is None or shape[param_axis:] != tuple(self.gamma.shape):
            raise ValueError(f"{self._where()}, expected input whose dims from begin_params_axis="
                             f"{self.begin_params_axis} are {tuple(self.gamma.shape)} (and "
                             f"begin_norm_axis={self.begin_norm_axis} in range), got shape {shape}")
        mean, var = _moments(x, tuple(range(norm_axis, rank)))
        y = (x.astype(mean.dtype) - mean) / jnp.sqrt(var + self.epsilon)
        y = y.astype(x.dtype)
        return y * self.gamma._value.astype(x.dtype) + self.beta._value.astype(x.dtype)


class GroupNorm(Cell):
    """Group normalization over ``(N, C, *)`` (MindSpore's ``nn.GroupNorm``).

    Arguments:
        num_groups: groups the channels are split into.
        num_channels: ``C``; must be divisible by ``num_groups``.
        eps: added to the variance (a float). Default 1e-5.
        affine: whether ``gamma`` and ``beta`` are trainable.
        gamma_init, beta_init: initializers (``'ones'``, ``'zeros'``).
        dtype: dtype of the Parameters.

    Returns:
        the normalized input, same shape and dtype.
    """

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", dtype: Any = jnp.float32) -> None:
        super().__init__()
        name = type(self).__name__
        for arg, value in (("num_groups", num_groups), ("num_channels", num_channels)):
            if not _is_int(value) or value <= 0:
                raise ValueError(f"For '{name}', '{arg}' must be a positive int, got {value!r}")
        if num_channels % num_groups:
            raise ValueError(f"For '{name}', 'num_channels' must be divisible by 'num_groups', got "
                             f"num_channels={num_channels}, num_groups={num_groups}")
        if not isinstance(eps, float):
            raise TypeError(f"For '{name}', 'eps' must be a float, got {eps!r}")
        _check_eps(name, eps)
        if not isinstance(affine, bool):
            raise TypeError(f"For '{name}', 'affine' must be a bool, got {affine!r}")
        self.num_groups, self.num_channels = int(num_groups), int(num_channels)
        self.eps, self.affine = eps, affine
        dtype = to_jax_dtype(dtype)
        self.gamma = Parameter(initializer(gamma_init, self.num_channels, dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, self.num_channels, dtype), name="beta",
                              requires_grad=affine)

    def extend_repr(self) -> str:
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"

    def construct(self, x: Any) -> Any:
        float_input(self._where(), "x", x)
        return run_as("GroupNorm", self._normalize, x)  # MindSpore's GroupNorm Primitive, for mixed precision

    def _normalize(self, x: Any) -> Any:
        shape = tuple(getattr(x, "shape", ()))
        if len(shape) < 2 or shape[1] != self.num_channels:
            raise ValueError(f"{self._where()}, expected input of shape (N, {self.num_channels}, ...), "
                             f"got {shape}")
        nonempty_axes(self._where(), "x", x, range(2, len(shape)))
        grouped = x.reshape((shape[0], self.num_groups, -1))
        mean, var = _moments(grouped, (2,))
        y = ((grouped.astype(mean.dtype) - mean) / jnp.sqrt(var + self.eps)).reshape(shape)
        bshape = (1, self.num_channels) + (1,) * (len(shape) - 2)
        y = y * self.gamma._value.astype(y.dtype).reshape(bshape) \
            + self.beta._value.astype(y.dtype).reshape(bshape)
        return y.astype(x.dtype)


class _InstanceNorm(Cell):
    """Instance normalization: per sample and channel statistics, in training and eval.

    MindSpore's kernel exists only on GPU; its moving statistics are kept as
    Parameters (for checkpoints) but are not used or updated here.
    """

    _rank = 0

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1,
                 affine: bool = True, gamma_init: Any = "ones", beta_init: Any = "zeros",
                 dtype: Any = jnp.float32) -> None:
        super().__init__()
        name = type(self).__name__
        if not _is_int(num_features):
            raise TypeError(f"For '{name}', 'num_features' must be an int, got {num_features!r}")
        if num_features < 1:
            raise ValueError(f"For '{name}', 'num_features' must be at least 1, got {num_features}")
        if not isinstance(momentum, float) or not 0 <= momentum <= 1:
            raise ValueError(f"For '{name}', 'momentum' must be a float in [0, 1], got {momentum!r}")
        _check_eps(name, eps)
        if not isinstance(eps, float):
            raise TypeError(f"For '{name}', 'eps' must be a float, got {eps!r}")
        self.num_features, self.eps, self.momentum = int(num_features), eps, momentum
        dtype = to_jax_dtype(dtype)
        n = self.num_features
        self.moving_mean = Parameter(initializer("zeros", n, dtype), name="mean", requires_grad=False)
        self.moving_variance = Parameter(initializer("ones", n, dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, n, dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, n, dtype), name="beta", requires_grad=affine)

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"gamma={self.gamma}, beta={self.beta}, moving_mean={self.moving_mean}, "
                f"moving_variance={self.moving_variance}")

    def construct(self, x: Any) -> Any:
        shape = tuple(float_input(self._where(), "x", x).shape)
        if len(shape) != self._rank or shape[1] != self.num_features:
            spatial = ", ".join(["..."] * (self._rank - 2))
            raise ValueError(f"{self._where()}, expected input of shape (N, {self.num_features}, "
                             f"{spatial}), got {shape}")
        nonempty_axes(self._where(), "x", x, range(2, len(shape)))
        mean, var = _moments(x, tuple(range(2, x.ndim)))
        bshape = (1, self.num_features) + (1,) * (x.ndim - 2)
        y = (x.astype(mean.dtype) - mean) / jnp.sqrt(var + self.eps)
        y = y * self.gamma._value.astype(y.dtype).reshape(bshape) \
            + self.beta._value.astype(y.dtype).reshape(bshape)
        return y.astype(x.dtype)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization over ``(N, C, L)`` (MindSpore's ``nn.InstanceNorm1d``).

    Arguments:
        num_features: ``C``. eps (1e-5), momentum (0.1), affine, gamma_init, beta_init, dtype.

    Returns:
        the normalized input.
    """

    _rank = 3


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization over ``(N, C, H, W)`` (MindSpore's ``nn.InstanceNorm2d``).

    Arguments:
        as :class:`InstanceNorm1d`.

    Returns:
        the normalized input.
    """

    _rank = 4


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization over ``(N, C, D, H, W)`` (MindSpore's ``nn.InstanceNorm3d``).

    Arguments:
        as :class:`InstanceNorm1d`.

    Returns:
        the normalized input.
    """

    _rank = 5
