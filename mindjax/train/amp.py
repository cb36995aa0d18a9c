"""Mixed precision: ``auto_mixed_precision``, ``build_train_network``, loss scalers, ``all_finite``.

Levels follow MindSpore:

- ``O0``: float32 everywhere.
- ``O1``: the white-listed Cells (``Dense``, ``Conv*``, RNN cells) run in the
  low-precision type; their outputs return to float32.
- ``O2``: the whole network runs in the low-precision type except the
  black-listed Cells (``BatchNorm*``, ``LayerNorm``), which stay float32; the
  network's output is cast to float32; ``build_train_network`` adds dynamic
  loss scaling.
- ``O3``: the whole network in the low-precision type, output cast to float32.

The stored Parameters stay float32 (master weights): :meth:`Cell.to_float`
casts them for the duration of each call, so gradients and optimizer updates
are float32.

Example:
    >>> net = auto_mixed_precision(net, "O2", ms.bfloat16)   # doctest: +SKIP
"""
from __future__ import annotations

from abc import ABCMeta, abstractmethod

from typing import Any

import jax
import jax.numpy as jnp

from mindjax import cells as _cells
from mindjax.cells.cell import Cell
from mindjax.cells.wrap.cell_wrapper import TrainOneStepCell, WithLossCell, _to_float32
from mindjax.cells.wrap.loss_scale import TrainOneStepWithLossScaleCell, _all_finite
from mindjax.common.dtype import to_jax_dtype
from mindjax.train.loss_scale import DynamicLossScaleManager, LossScaleManager

__all__ = ["auto_mixed_precision", "build_train_network", "all_finite", "get_white_list", "get_black_list",
           "LossScaler", "StaticLossScaler", "DynamicLossScaler"]

_WHITE_LIST_NAMES = ("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose",
                     "Dense", "LSTMCell", "RNNCell", "GRUCell")
_BLACK_LIST_NAMES = ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm")
_LEVELS = ("O0", "O1", "O2", "O3", "auto")
_LOW_PRECISION = (jnp.dtype(jnp.float16), jnp.dtype(jnp.bfloat16))


def _classes(names: tuple[str, ...]) -> tuple[type, ...]:
    # Resolved at call time: the layer modules may be filled in after this one is imported.
    return tuple(c for c in (getattr(_cells, n, None) for n in names) if isinstance(c, type))


def get_white_list() -> list[type]:
    """The Cell classes ``O1`` runs in low precision."""
    return list(_classes(_WHITE_LIST_NAMES))


def get_black_list() -> list[type]:
    """The Cell classes ``O2`` keeps in float32."""
    return list(_classes(_BLACK_LIST_NAMES))


def _cast_output(dtype: Any) -> Any:
    def hook(cell: Cell, inputs: Any, output: Any) -> Any:
        def cast(x: Any) -> Any:
            if isinstance(x, jax.Array) and jnp.issubdtype(x.dtype, jnp.floating) and x.dtype != dtype:
                return x.astype(dtype)
            return x
        return jax.tree_util.tree_map(cast, output)
    return hook


class _OutputTo32(Cell):
    """Runs the backbone and casts its floating outputs to float32."""

    def __init__(self, backbone: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *args: Any, **kwargs: Any) -> Any:
        """The backbone's output in float32."""
        return _to_float32(self._backbone(*args, **kwargs))


def _keep_black_list_fp32(network: Cell, dtype: Any) -> None:
    black = _classes(_BLACK_LIST_NAMES)
    for _, cell in network.cells_and_names():
        if cell is not network and isinstance(cell, black):
            cell.to_float(jnp.float32)
            cell.register_forward_hook(_cast_output(dtype))


def _check_dtype(owner: str, dtype: Any) -> Any:
    jdt = jnp.dtype(to_jax_dtype(dtype))
    if jdt not in _LOW_PRECISION and jdt != jnp.dtype(jnp.float32):
        raise ValueError(f"For '{owner}', 'dtype' must be float16, bfloat16 or float32, got {jdt}")
    return jdt


def auto_mixed_precision(network: Cell, amp_level: str = "O0", dtype: Any = jnp.float16) -> Cell:
    """Convert ``network`` to mixed precision at ``amp_level`` (see the module docstring).

    Arguments:
        network: the network (changed in place).
        amp_level: ``'O0'``, ``'O1'``, ``'O2'``, ``'O3'`` or ``'auto'`` (treated as ``'O1'``).
        dtype: the low-precision type: float16 or bfloat16.

    Returns:
        the network, wrapped to return float32 at ``O2``/``O3``.
    """
    if not isinstance(network, Cell):
        raise TypeError(f"For 'auto_mixed_precision', 'network' must be a Cell, got {type(network).__name__}")
    if amp_level not in _LEVELS:
        raise ValueError(f"For 'auto_mixed_precision', 'amp_level' must be one of {list(_LEVELS)}, "
                         f"got {amp_level!r}")
    jdt = _check_dtype("auto_mixed_precision", dtype)
    if amp_level == "O0":
        return network
    if amp_level in ("O1", "auto"):
        white = _classes(_WHITE_LIST_NAMES)
        for _, cell in network.cells_and_names():
            if isinstance(cell, white):
                cell.to_float(jdt)
                cell.register_forward_hook(_cast_output(jnp.dtype(jnp.float32)))
        out = network
    elif amp_level == "O2":
        network.to_float(jdt)
        _keep_black_list_fp32(network, jdt)
        out = _OutputTo32(network)
    else:
        network.to_float(jdt)
        out = _OutputTo32(network)
    out.__dict__["_amp_level"] = amp_level
    return out


_CONFIG = {
    "O0": {"keep_batchnorm_fp32": False, "cast_model_type": jnp.float32, "loss_scale_manager": None},
    "O1": {"keep_batchnorm_fp32": False, "cast_model_type": jnp.float32, "loss_scale_manager": None},
    "O2": {"keep_batchnorm_fp32": True, "cast_model_type": jnp.float16, "loss_scale_manager": "dynamic"},
    "O3": {"keep_batchnorm_fp32": False, "cast_model_type": jnp.float16, "loss_scale_manager": None},
    "auto": {"keep_batchnorm_fp32": False, "cast_model_type": jnp.float32, "loss_scale_manager": None},
}


class _AmpWithLossCell(WithLossCell):
    """``WithLossCell`` that computes the loss in float32 (outputs and label cast up)."""

    def construct(self, data: Any, label: Any) -> Any:
        """The float32 loss of ``backbone(data)``."""
        out = self._backbone(data)
        return self._loss_fn(_to_float32(out), _to_float32(label))


def _mixed_precision_network(network: Cell, level: str, cast_type: Any, keep_bn: bool) -> Cell:
    if cast_type in _LOW_PRECISION:
        network.to_float(cast_type)
        if keep_bn:
            _keep_black_list_fp32(network, cast_type)
        network.__dict__["_amp_level"] = "O2" if keep_bn else "O3"
        return network
    if level == "O2" and not keep_bn:
        network.to_float(jnp.float16)
        network.__dict__["_amp_level"] = "O3"
        return network
    if level in ("O2", "O3"):
        return network
    return auto_mixed_precision(network, level)


def build_train_network(network: Cell, optimizer: Cell, loss_fn: Any = None, level: str = "O0",
                        boost_level: str = "O0", **kwargs: Any) -> Cell:
    """Build the mixed-precision training Cell: loss, precision, loss scaling, optimizer.

    Arguments:
        network: the backbone.
        optimizer: the optimizer Cell.
        loss_fn: the loss; when ``None`` the network returns the loss itself.
        level: ``'O0'``, ``'O1'``, ``'O2'``, ``'O3'`` or ``'auto'``.
        boost_level: accepted for compatibility (``'O0'``, ``'O1'``, ``'O2'``).
        cast_model_type: float16, bfloat16 or float32; overrides the level's type.
        keep_batchnorm_fp32: keep BatchNorm in float32.
        loss_scale_manager: a LossScaleManager or ``None``.

    Returns:
        a ``TrainOneStepCell`` or ``TrainOneStepWithLossScaleCell`` in training mode.
    """
    if not isinstance(level, str) or level not in _LEVELS:
        raise ValueError(f"For 'build_train_network', 'level' must be one of {list(_LEVELS)}, got {level!r}")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"For 'build_train_network', 'boost_level' must be 'O0', 'O1' or 'O2', got {boost_level!r}")
    for key in kwargs:
        if key not in ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"):
            raise ValueError(f"For 'build_train_network', unsupported argument '{key}'")
    if getattr(optimizer, "parameters", None) is None:
        raise TypeError(f"For 'build_train_network', 'optimizer' must be an optimizer Cell, "
                        f"got {type(optimizer).__name__}")
    config = dict(_CONFIG[level], **kwargs)
    if config["loss_scale_manager"] == "dynamic":
        config["loss_scale_manager"] = DynamicLossScaleManager()
    manager = config["loss_scale_manager"]
    if manager is not None and not isinstance(manager, LossScaleManager):
        raise TypeError(f"For 'build_train_network', 'loss_scale_manager' must be a LossScaleManager or None, "
                        f"got {type(manager).__name__}")
    if not isinstance(config["keep_batchnorm_fp32"], bool):
        raise TypeError(f"For 'build_train_network', 'keep_batchnorm_fp32' must be a bool, "
                        f"got {config['keep_batchnorm_fp32']!r}")
    cast_type = _check_dtype("build_train_network", config["cast_model_type"])
    network = _mixed_precision_network(network, level, cast_type, config["keep_batchnorm_fp32"])
    if loss_fn is not None:
        low = cast_type in _LOW_PRECISION or network.__dict__.get("_amp_level") in ("O2", "O3")
        network = (_AmpWithLossCell if low else WithLossCell)(network, loss_fn)
    if manager is not None:
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            train = TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell)
            manager._bind(train.scale_sense)
            return train.set_train()
        return TrainOneStepCell(network, optimizer, manager.get_loss_scale()).set_train()
    return TrainOneStepCell(network, optimizer).set_train()


def all_finite(inputs: Any) -> Any:
    """A scalar bool Tensor: whether every element of every Tensor in ``inputs`` is finite."""
    return _all_finite(inputs)


class LossScaler(metaclass=ABCMeta):
    """Base class of the functional loss scalers (``scale``, ``unscale``, ``adjust``)."""

    @abstractmethod
    def scale(self, inputs: Any) -> Any:
        """Multiply ``inputs`` by the scale."""

    @abstractmethod
    def unscale(self, inputs: Any) -> Any:
        """Divide ``inputs`` by the scale."""

    @abstractmethod
    def adjust(self, grads_finite: Any) -> Any:
        """Update the scale from whether the gradients were finite."""


class StaticLossScaler(LossScaler):
    """A constant scale for functional training loops.

    Arguments:
        scale_value: the scale.
    """

    def __init__(self, scale_value: float) -> None:
        if not isinstance(scale_value, (int, float)) or scale_value < 1:
            raise ValueError(f"For 'StaticLossScaler', 'scale_value' must be a number >= 1, got {scale_value!r}")
        from mindjax.cells.parameter import Parameter

        self.scale_value = Parameter(jnp.asarray(scale_value, jnp.float32), name="scale_value",
                                     requires_grad=False)

    def scale(self, inputs: Any) -> Any:
        """Multiply ``inputs`` by the scale."""
        s = jnp.asarray(self.scale_value)
        return jax.tree_util.tree_map(lambda x: x * s.astype(jnp.asarray(x).dtype), inputs)

    def unscale(self, inputs: Any) -> Any:
        """Divide ``inputs`` by the scale."""
        s = jnp.asarray(self.scale_value)
        return jax.tree_util.tree_map(lambda x: x / s.astype(jnp.asarray(x).dtype), inputs)

    def adjust(self, grads_finite: Any) -> Any:
        """A static scale does not change."""
        return False


class DynamicLossScaler(StaticLossScaler):
    """A scale that is divided by ``scale_factor`` on overflow and multiplied by it
    after ``scale_window`` finite steps (for functional training loops).

    Arguments:
        scale_value: the initial scale.
        scale_factor: the factor.
        scale_window: finite steps before growing.
    """

    def __init__(self, scale_value: float, scale_factor: float, scale_window: int) -> None:
        super().__init__(scale_value)
        from mindjax.cells.parameter import Parameter

        if not isinstance(scale_window, int) or scale_window <= 0:
            raise ValueError(f"For 'DynamicLossScaler', 'scale_window' must be a positive int, got {scale_window!r}")
        self.scale_factor = float(scale_factor)
        self.scale_window = scale_window
        self.counter = Parameter(jnp.asarray(0, jnp.int32), name="counter", requires_grad=False)

    def adjust(self, grads_finite: Any) -> Any:
        """Update the scale; works inside compiled code."""
        finite = jnp.asarray(grads_finite)
        one = jnp.asarray(1, jnp.int32)
        counter = jnp.asarray(self.counter)
        scale = jnp.asarray(self.scale_value)
        grown = (counter + one) >= self.scale_window
        new_counter = jnp.where(finite, jnp.where(grown, 0, counter + one), 0)
        new_scale = jnp.where(finite, jnp.where(grown, scale * self.scale_factor, scale),
                              jnp.maximum(scale / self.scale_factor, 1.0))
        self.counter.set_data(new_counter)
        self.scale_value.set_data(new_scale)
        return True
