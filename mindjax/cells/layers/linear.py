"""``Linear`` (MindSpore 2.x's torch-style fully connected layer), ``BiDense`` and ``SyncBatchNorm``.

Example:
    >>> import numpy as np
    >>> from mindjax import nn
    >>> nn.Linear(4, 2)(np.ones((3, 4), np.float32)).shape
    (3, 2)
"""
from __future__ import annotations

import math
from typing import Any

import jax

from mindjax.cells.cell import Cell
from mindjax.cells.layers.basic import Dense
from mindjax.cells.layers.normalization import _BatchNorm
from mindjax.cells.parameter import Parameter
from mindjax.common import dtype as mstype
from mindjax.common.initializer import Uniform, initializer
from mindjax.common.tensor import as_array as _arr
from mindjax.ops.function.nn_func import bidense

__all__ = ["Linear", "BiDense", "SyncBatchNorm"]


class Linear(Dense):
    """``x @ weight.T + bias`` with weight ``(out_features, in_features)``.

    Arguments:
        in_features, out_features: the input and output sizes.
        bias: whether to add a bias.
        weight_init, bias_init: initializers (default ``HeUniform(sqrt(5))`` and ``Uniform(1 / sqrt(in))``).
        dtype: the Parameters' dtype (float32 by default).
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, weight_init: Any = None,
                 bias_init: Any = None, dtype: Any = None) -> None:
        if not isinstance(bias, bool):
            raise TypeError(f"For 'Linear', 'bias' must be a bool, got {type(bias).__name__}")
        super().__init__(in_features, out_features, weight_init, bias_init, bias,
                         dtype=mstype.float32 if dtype is None else dtype)
        self.in_features, self.out_features = self.in_channels, self.out_channels


class BiDense(Cell):
    """Bilinear layer ``y = x1^T A x2 + b`` with weight ``(out_channels, in1_channels, in2_channels)``.

    Arguments:
        in1_channels, in2_channels, out_channels: the sizes.
        weight_init, bias_init: initializers (default ``Uniform(1 / sqrt(in1_channels))`` for both).
        has_bias: whether to add a bias.
        dtype: the Parameters' dtype.
    """

    def __init__(self, in1_channels: int, in2_channels: int, out_channels: int, weight_init: Any = None,
                 bias_init: Any = None, has_bias: bool = True, dtype: Any = mstype.float32) -> None:
        super().__init__()
        for name, v in (("in1_channels", in1_channels), ("in2_channels", in2_channels),
                        ("out_channels", out_channels)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"For 'BiDense', '{name}' must be a positive int, got {v!r}")
        self.in1_channels, self.in2_channels, self.out_channels = in1_channels, in2_channels, out_channels
        self.has_bias = bool(has_bias)
        bound = 1 / math.sqrt(in1_channels)
        dt = mstype.to_jax_dtype(dtype)
        self.weight = Parameter(initializer(Uniform(bound) if weight_init is None else weight_init,
                                            (out_channels, in1_channels, in2_channels), dt), name="weight")
        self.bias = Parameter(initializer(Uniform(bound) if bias_init is None else bias_init, (out_channels,), dt),
                              name="bias") if self.has_bias else None

    def construct(self, input1: Any, input2: Any) -> jax.Array:
        a, b = _arr(input1), _arr(input2)
        if a.shape[-1] != self.in1_channels or b.shape[-1] != self.in2_channels:
            raise ValueError(f"{self._where()}, expected last dimensions {self.in1_channels} and {self.in2_channels}, "
                             f"got shapes {a.shape} and {b.shape}")
        return bidense(a, b, self.weight, self.bias)


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation whose statistics MindSpore synchronises across devices.

    In one process the batch is the whole batch, so this is ``BatchNorm`` over ``(N, C)`` or
    ``(N, C, H, W)``; under ``jax.jit`` with a sharded batch the mean over the batch axis is
    already global (GSPMD inserts the all-reduce). Arguments as ``BatchNorm2d``; ``process_groups``
    is accepted for compatibility.
    """

    _ranks = (2, 3, 4, 5)
    _layout = "(N, C, ...)"

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: float = 0.9, affine: bool = True,
                 gamma_init: Any = "ones", beta_init: Any = "zeros", moving_mean_init: Any = "zeros",
                 moving_var_init: Any = "ones", use_batch_statistics: bool | None = None, process_groups: Any = None,
                 dtype: Any = mstype.float32) -> None:
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, "NCHW", dtype)
        self.process_groups = process_groups

