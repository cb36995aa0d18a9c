"""``mindspore.mint.nn.functional``: the ``mindjax.ops`` functions under mint's (PyTorch-style) argument names.

The functions are the ops ones called through mint's signatures (:mod:`mindjax.mint._signature`);
where mint's semantics differ (``stride=None`` meaning the kernel size, a string ``padding`` of
the convolutions, ``dim=None`` of softmax, ``log_target`` of ``kl_div`` ...) the difference is
one small function here. The ``inplace=True`` variants and the ``*_`` functions write the
result into their input Tensor.
"""
from __future__ import annotations

from typing import Any

from mindjax import ops as _ops
from mindjax.common.tensor import Tensor
from mindjax.mint._signature import KW_ONLY as _KW, REQUIRED as _REQUIRED, in_place as _in_place, \
    mint_signature as _mint_signature, table as _table
from mindjax.ops import (adaptive_avg_pool2d, cross_entropy, embedding, interpolate, layer_norm, mse_loss, prelu,
                         relu)
from mindjax.ops.function._build import implicit_softmax_dim as _implicit_softmax_dim

_MODULE = "mint.nn.functional"


def _inplace_arg(fn: Any) -> Any:
    """``fn`` taking mint's ``inplace=False``: with ``True`` the result is written into ``input``."""
    def call(input: Any, *args: Any, inplace: bool = False, **kwargs: Any) -> Any:  # noqa: A002
        out = fn(input, *args, **kwargs)
        if inplace and isinstance(input, Tensor):
            return input.assign_value(out)
        return out
    call.__name__ = getattr(fn, "__name__", "call")
    call.__module__ = getattr(fn, "__module__", __name__)
    return call


def _adapt_stride(kw: dict[str, Any]) -> dict[str, Any]:
    """Pooling's ``stride=None`` (the kernel size) and ``divisor_override=None`` (none)."""
    if kw.get("stride") is None:
        kw["stride"] = kw["kernel_size"]
    if "divisor_override" in kw and kw["divisor_override"] is None:
        kw["divisor_override"] = 0
    return kw


def _adapt_conv_padding(kw: dict[str, Any]) -> dict[str, Any]:
    """The convolutions' ``padding``: ``'same'``/``'valid'``, or zero padding (an int or one per spatial axis)."""
    padding = kw["padding"]
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"For 'mint.nn.functional.conv', 'padding' must be 'same', 'valid', an int or a tuple, "
                             f"but got '{padding}'")
        kw["pad_mode"], kw["padding"] = padding, 0
    else:
        kw["pad_mode"] = "pad"
    return kw


def _softmax_dim(fn: Any) -> Any:
    """``fn(input, axis)`` with mint's ``dim=None`` (the implicit axis) and ``dtype`` (``input`` cast first)."""
    def call(input: Any, dim: Any = None, dtype: Any = None) -> Any:  # noqa: A002
        x = input if dtype is None else _ops.cast(input, dtype)
        return fn(x, _implicit_softmax_dim(len(_ops.shape(x))) if dim is None else dim)
    call.__name__ = fn.__name__
    call.__module__ = fn.__module__
    return call


def _kl_div(input: Any, target: Any, reduction: str = "mean", log_target: bool = False) -> Any:  # noqa: A002
    return _ops.kl_div(input, _ops.exp(target) if log_target else target, reduction)


def _adaptive_max_pool1d(input: Any, output_size: int, return_indices: bool = False) -> Any:  # noqa: A002
    if not return_indices:
        return _ops.adaptive_max_pool1d(input, output_size)
    values, indices = _ops.adaptive_max_pool2d(_ops.unsqueeze(input, -2), (1, output_size), True)
    return _ops.squeeze(values, -2), _ops.squeeze(indices, -2)


def _normalize(input: Any, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Any:  # noqa: A002
    return _ops.div(input, _ops.clamp(_ops.vector_norm(input, p, dim, True), eps))


def _one_hot(tensor: Any, num_classes: int = -1) -> Any:
    if num_classes == -1:
        num_classes = int(_ops.max(tensor)[0]) + 1
    from mindjax.common.dtype import int64
    return _ops.cast(_ops.one_hot(tensor, num_classes, 1, 0), int64)


_R = _REQUIRED
_POOL = (("input", _R), ("kernel_size", _R), ("stride", None), ("padding", 0), ("ceil_mode", False),
         ("count_include_pad", True))
_CONV = (("input", _R), ("weight", _R), ("bias", None), ("stride", 1), ("padding", 0), ("dilation", 1), ("groups", 1))
_SPECS: dict[str, tuple[Any, ...]] = {
    # pooling
    "adaptive_avg_pool1d": (_ops.adaptive_avg_pool1d, (("input", _R), ("output_size", _R))),
    "adaptive_avg_pool3d": (_ops.adaptive_avg_pool3d, (("input", _R), ("output_size", _R))),
    "adaptive_avg_pool3d_ext": (_ops.adaptive_avg_pool3d, (("input", _R), ("output_size", _R))),
    "adaptive_max_pool1d": (_adaptive_max_pool1d, (("input", _R), ("output_size", _R), ("return_indices", False))),
    "adaptive_max_pool2d": (_ops.adaptive_max_pool2d, (("input", _R), ("output_size", _R), ("return_indices", False))),
    "avg_pool1d": (_ops.avg_pool1d, _POOL, {"input": "input_x"}, _adapt_stride),
    "avg_pool2d": (_ops.avg_pool2d, (*_POOL, ("divisor_override", None)), {"input": "input_x"}, _adapt_stride),
    "avg_pool3d": (_ops.avg_pool3d, (*_POOL, ("divisor_override", None)), {"input": "input_x"}, _adapt_stride),
    "max_pool2d": (_ops.max_pool2d, (("input", _R), ("kernel_size", _R), ("stride", None), ("padding", 0),
                                     ("dilation", 1), ("ceil_mode", False), ("return_indices", False)),
                   {"input": "x"}),
    "max_unpool2d": (_ops.max_unpool2d, (("input", _R), ("indices", _R), ("kernel_size", _R), ("stride", None),
                                         ("padding", 0), ("output_size", None)), {"input": "x"}),
    # convolution and linear
    "conv1d": (_ops.conv1d, _CONV, None, _adapt_conv_padding),
    "conv2d": (_ops.conv2d, _CONV, None, _adapt_conv_padding),
    "conv3d": (_ops.conv3d, _CONV, None, _adapt_conv_padding),
    "conv_transpose2d": (_ops.conv_transpose2d, (("input", _R), ("weight", _R), ("bias", None), ("stride", 1),
                                                 ("padding", 0), ("output_padding", 0), ("groups", 1),
                                                 ("dilation", 1))),
    "linear": (_ops.dense, (("input", _R), ("weight", _R), ("bias", None))),
    "fold": (_ops.fold, (("input", _R), ("output_size", _R), ("kernel_size", _R), ("dilation", 1), ("padding", 0),
                         ("stride", 1))),
    "unfold": (_ops.unfold, (("input", _R), ("kernel_size", _R), ("dilation", 1), ("padding", 0), ("stride", 1))),
    # normalisation, dropout
    "batch_norm": (_ops.batch_norm, (("input", _R), ("running_mean", _R), ("running_var", _R), ("weight", None),
                                     ("bias", None), ("training", False), ("momentum", 0.1), ("eps", 1e-05)),
                   {"input": "input_x"}),
    "group_norm": (_ops.group_norm, (("input", _R), ("num_groups", _R), ("weight", None), ("bias", None),
                                     ("eps", 1e-05))),
    "normalize": (_normalize, (("input", _R), ("p", 2.0), ("dim", 1), ("eps", 1e-12))),
    "dropout": (_inplace_arg(_ops.dropout), (("input", _R), ("p", 0.5), ("training", True), ("inplace", False))),
    "dropout2d": (_inplace_arg(_ops.dropout2d), (("input", _R), ("p", 0.5), ("training", True), ("inplace", False))),
    # activations
    "elu": (_inplace_arg(_ops.elu), (("input", _R), ("alpha", 1.0), ("inplace", False))),
    "elu_ext": (_ops.elu, (("input", _R), ("alpha", 1.0)), {"input": "input_x"}),
    "gelu": (_ops.gelu, (("input", _R), _KW, ("approximate", "none"))),
    "glu": (_ops.glu, (("input", _R), ("dim", -1)), {"input": "x", "dim": "axis"}),
    "hardshrink": (_ops.hardshrink, (("input", _R), ("lambd", 0.5))),
    "softshrink": (_ops.softshrink, (("input", _R), ("lambd", 0.5))),
    "hardsigmoid": (_ops.hardsigmoid, (("input", _R),)),
    "hardswish": (_ops.hardswish, (("input", _R),)),
    "hardtanh": (_inplace_arg(_ops.hardtanh), (("input", _R), ("min_val", -1.0), ("max_val", 1.0),
                                               ("inplace", False))),
    "leaky_relu": (_ops.leaky_relu, (("input", _R), ("negative_slope", 0.01)), {"negative_slope": "alpha"}),
    "log_softmax": (_softmax_dim(_ops.log_softmax), (("input", _R), ("dim", None), _KW, ("dtype", None))),
    "softmax": (_softmax_dim(_ops.softmax), (("input", _R), ("dim", None), ("dtype", None))),
    "logsigmoid": (_ops.logsigmoid, (("input", _R),), {"input": "x"}),
    "mish": (_ops.mish, (("input", _R),), {"input": "x"}),
    "relu6": (_inplace_arg(_ops.relu6), (("input", _R), ("inplace", False))),
    "selu": (_ops.selu, (("input", _R),), {"input": "input_x"}),
    "sigmoid": (_ops.sigmoid, (("input", _R),), {"input": "x"}),
    "silu": (_inplace_arg(_ops.silu), (("input", _R), ("inplace", False))),
    "silu_func": (_ops.silu, (("input", _R),), {"input": "x"}),
    "tanh": (_ops.tanh, (("input", _R),), {"input": "x"}),
    "softplus": (_ops.softplus, (("input", _R), ("beta", 1), ("threshold", 20))),
    "threshold": (_inplace_arg(_ops.threshold), (("input", _R), ("threshold", _R), ("value", _R), ("inplace", False)),
                  {"threshold": "thr"}),
    # losses
    "binary_cross_entropy": (_ops.binary_cross_entropy, (("input", _R), ("target", _R), ("weight", None),
                                                         ("reduction", "mean")),
                             {"input": "logits", "target": "labels"}),
    "binary_cross_entropy_with_logits": (_ops.binary_cross_entropy_with_logits,
                                         (("input", _R), ("target", _R), ("weight", None), ("reduction", "mean"),
                                          ("pos_weight", None))),
    "cosine_embedding_loss": (_ops.cosine_embedding_loss, (("input1", _R), ("input2", _R), ("target", _R),
                                                           ("margin", 0.0), ("reduction", "mean"))),
    "kl_div": (_kl_div, (("input", _R), ("target", _R), ("reduction", "mean"), ("log_target", False))),
    "l1_loss": (_ops.l1_loss, (("input", _R), ("target", _R), ("reduction", "mean"))),
    "nll_loss": (_ops.nll_loss, (("input", _R), ("target", _R), ("weight", None), ("ignore_index", -100),
                                 ("reduction", "mean")), {"input": "inputs"}),
    "smooth_l1_loss": (_ops.smooth_l1_loss, (("input", _R), ("target", _R), ("reduction", "mean"), ("beta", 1.0))),
    "soft_margin_loss": (_ops.soft_margin_loss, (("input", _R), ("target", _R), ("reduction", "mean"))),
    # resampling, padding, shapes
    "grid_sample": (_ops.grid_sample, (("input", _R), ("grid", _R), ("mode", "bilinear"), ("padding_mode", "zeros"),
                                       ("align_corners", None))),
    "upsample": (_ops.upsample, (("input", _R), ("size", None), ("scale_factor", None), ("mode", "nearest"),
                                 ("align_corners", None))),
    "pad": (_ops.pad, (("input", _R), ("pad", _R), ("mode", "constant"), ("value", None)),
            {"input": "input_x", "pad": "padding"}),
    "pixel_shuffle": (_ops.pixel_shuffle, (("input", _R), ("upscale_factor", _R))),
    "one_hot": (_one_hot, (("tensor", _R), ("num_classes", -1))),
}
_table(globals(), _SPECS, module=_MODULE)

_IN_PLACE: dict[str, tuple[Any, ...]] = {
    "relu_": (relu, (("input", _R),)),
    "elu_": (_ops.elu, (("input", _R), ("alpha", 1.0)), {"input": "input_x"}),
    "inplace_elu": (_ops.elu, (("input", _R), ("alpha", 1.0)), {"input": "input_x"}),
    "hardtanh_": (_ops.hardtanh, (("input", _R), ("min_val", -1), ("max_val", 1))),
    "inplace_silu": (_ops.silu, (("input", _R),), {"input": "x"}),
    "sigmoid_": (_ops.sigmoid, (("input", _R),), {"input": "x"}),
    "threshold_": (_ops.threshold, (("input", _R), ("threshold", _R), ("value", _R)), {"threshold": "thr"}),
}
for _name, (_fn, _params, *_rename) in _IN_PLACE.items():
    globals()[_name] = _in_place(_name, _mint_signature(_name, _fn, _params, *_rename, module=_MODULE))
del _name, _fn, _params, _rename

from mindjax.mint import broadcast_to, clamp, flatten, norm as norm_ext  # noqa: E402

__all__ = ["interpolate", "layer_norm", "relu", "prelu", "cross_entropy", "embedding", "mse_loss",
           "adaptive_avg_pool2d", "broadcast_to", "clamp", "flatten", "norm_ext", *_SPECS, *_IN_PLACE]
