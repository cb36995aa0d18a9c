"""Mixed precision: ``auto_mixed_precision``, ``custom_mixed_precision``, ``build_train_network``,
loss scalers, ``all_finite``.

Levels follow MindSpore 2.10:

- ``O0``: float32 everywhere.
- ``O1``: the white list (:func:`get_white_list`) runs in the low-precision type.
  White-listed Primitives (``ops.MatMul``, ``ops.ReLU`` ...) called in the
  ``construct`` of any Cell of the network get their floating Tensor inputs
  cast down and their floating outputs cast to float32, as MindSpore's rewrite
  of the network inserts those casts. White-listed Cells (``Dense``, ``Conv*``,
  RNN cells) run wholly in the low-precision type with float32 outputs. Cells
  whose precision the user set with ``to_float`` are left alone.
- ``O2``: the whole network runs in the low-precision type except the
  black-listed Cells (``BatchNorm*``, ``LayerNorm``), which stay float32; the
  network's output is cast to float32; ``build_train_network`` adds dynamic
  loss scaling.
- ``O3``: the whole network in the low-precision type, output cast to float32.
- ``auto`` (MindSpore 2.x): operator lists instead of Cell lists. MindSpore's auto white
  list (``MatMul``, ``Conv2D``, ``BatchMatMul``, ``Dense``, ``Einsum`` ...) runs in the
  low-precision type and its outputs stay there; its black list (``Softmax``,
  ``BatchNorm``, ``LayerNorm``, ``Exp``, ``Log``, ``SumExt`` ...) runs in float32; its
  promote list (``BiasAdd``, ``AddN``, ``Concat`` ...) runs in the widest floating type
  of its inputs; every other operator follows its inputs. A Cell or a plain function
  can be converted; Cells set with ``to_float`` keep their precision. MindJAX's
  functional ops, Tensor methods and layers name the MindSpore Primitive each of their
  steps stands for (``nn.Dense`` is ``MatMul`` then ``BiasAdd``), so the lists apply
  as in MindSpore.

The stored Parameters stay float32 (master weights): :meth:`Cell.to_float`
casts them for the duration of each call, so gradients and optimizer updates
are float32.

How O1 reaches the Primitives: every Cell of the converted tree carries a
policy (:func:`mindjax.cells.cell.set_precision_policy`, read at call time) and
runs its ``construct`` under it; a Primitive called meanwhile asks the active
policy what to do with it (:mod:`mindjax.common.precision`). At ``auto`` only the
converted Cell carries the policy (everything it calls runs under it), and a
converted function runs under it; compiled programs are traced per active policy. The Cells keep
their classes. Networks that were not converted pay one thread-local read per
Primitive call.

Example:
    >>> net = auto_mixed_precision(net, "O2", ms.bfloat16)   # doctest: +SKIP
"""
from __future__ import annotations

import functools
import inspect
import warnings
from abc import ABCMeta, abstractmethod

from typing import Any

import jax
import jax.numpy as jnp

from mindjax import context
from mindjax.common.tensor import Tensor, tensor_op
from mindjax import cells as _cells
from mindjax import ops as _ops
from mindjax.cells.cell import Cell, set_precision_policy
from mindjax.cells.wrap.cell_wrapper import TrainOneStepCell, WithLossCell, to_float32
from mindjax.cells.wrap.loss_scale import TrainOneStepWithLossScaleCell, all_finite_tree
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.precision import NO_CAST, PrecisionPolicy, policy_scope
from mindjax.transforms.control_flow import convert_function
from mindjax.train.loss_scale import DynamicLossScaleManager, LossScaleManager

__all__ = ["auto_mixed_precision", "custom_mixed_precision", "build_train_network", "all_finite",
           "get_white_list", "get_black_list", "LossScaler", "StaticLossScaler", "DynamicLossScaler"]

_WHITE_CELL_NAMES = ("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose",
                     "Dense", "LSTMCell", "RNNCell", "GRUCell")
# MindSpore's O1 primitives, in its order; those mindjax.ops lacks are still matched by name below.
_WHITE_PRIMITIVE_NAMES = ("Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose", "Conv2DBackpropInput",
                          "MatMul", "BatchMatMul", "PReLU", "ReLU", "Ger")
_BLACK_LIST_NAMES = ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm")
# MindSpore 2.10's 'auto' level (AMP_AUTO_WHITE_LIST, AMP_AUTO_BLACK_LIST and the promote list of
# its documentation), by Primitive name: MindJAX's functional ops and layers name the Primitive
# each of their steps stands for (mindjax.common.precision.run_as).
_AUTO_WHITE_NAMES = ("Conv2D", "Conv3D", "Conv2DExt", "Conv3DExt", "ConvTranspose2D", "Conv2DTranspose",
                     "Conv3DTranspose", "Convolution", "MatMul", "MatMulExt", "BatchMatMul", "BatchMatMulExt",
                     "PReLU", "Einsum", "Dense", "Addmm", "Addbmm", "Addmv", "Baddbmm", "Mv")
_AUTO_BLACK_NAMES = ("Pow", "ACos", "Asin", "Cosh", "Erfinv", "Exp", "Expm1", "Log", "Log10", "Log1p", "Log2",
                     "Reciprocal", "Rsqrt", "Sinh", "Tan", "Softplus", "SoftplusExt", "LayerNorm", "LayerNormExt",
                     "BatchNorm", "BatchNormExt", "GroupNorm", "Norm", "KLDivLoss", "SmoothL1Loss",
                     "MultilabelMarginLoss", "SoftMarginLoss", "TripletMarginLoss", "MultiMarginLoss",
                     "BCEWithLogitsLoss", "Pdist", "Cdist", "Renorm", "ReduceProd", "Softmax", "LogSoftmax",
                     "LogSoftmaxExt", "CumProd", "CumSum", "CumsumExt", "ProdExt", "SumExt", "L1LossExt",
                     "MSELossExt", "NLLLoss", "NLLLoss2d")
_AUTO_PROMOTE_NAMES = ("Addcdiv", "Addcmul", "Cross", "_PyboostCrossPrim", "Dot", "GridSampler2D", "GridSampler3D",
                       "BiasAdd", "AddN", "Concat")
# The white-listable Primitives each MindSpore library Cell calls in its construct. MindJAX's
# layers compute with jax.numpy, so such a layer runs wholly in low precision when one of its
# Primitives is white-listed (MindSpore would cast that Primitive only: the bias add of a
# Conv2d whose Conv2D alone is listed stays float32 there).
_CELL_PRIMITIVES = {
    "Dense": ("MatMul",), "Conv1d": ("Conv2D",), "Conv2d": ("Conv2D",), "Conv3d": ("Conv3D",),
    "Conv1dTranspose": ("Conv2DBackpropInput",), "Conv2dTranspose": ("Conv2DTranspose",),
    "Conv3dTranspose": ("Conv3DTranspose",), "RNNCell": ("MatMul", "ReLU"), "LSTMCell": ("MatMul",),
    "GRUCell": ("MatMul",), "ReLU": ("ReLU",), "PReLU": ("PReLU",), "Embedding": ("MatMul",),
}
# Library Cells that compute (as opposed to containers and wrappers, which hold the user's Cells).
_LIBRARY_COMPUTE_MODULES = ("mindjax.cells.layers.", "mindjax.cells.loss")
_LEVELS = ("O0", "O1", "O2", "O3", "auto")
_LOW_PRECISION = (jnp.dtype(jnp.float16), jnp.dtype(jnp.bfloat16))


def _classes(names: tuple[str, ...], module: Any = _cells) -> tuple[type, ...]:
    # Resolved at call time: the layer modules may be filled in after this one is imported.
    return tuple(c for c in (getattr(module, n, None) for n in names) if isinstance(c, type))


def get_white_list() -> list[type]:
    """The Cell and Primitive classes ``O1`` runs in low precision (a new list each call).

    As MindSpore's: ``nn.Conv1d``, ``nn.Conv2d``, ``nn.Conv3d``, ``nn.Conv1dTranspose``,
    ``nn.Conv2dTranspose``, ``nn.Conv3dTranspose``, ``nn.Dense``, ``nn.LSTMCell``,
    ``nn.RNNCell``, ``nn.GRUCell``, then ``ops.Conv2D``, ``ops.Conv3D``,
    ``ops.Conv2DTranspose``, ``ops.Conv3DTranspose``, ``ops.Conv2DBackpropInput``,
    ``ops.MatMul``, ``ops.BatchMatMul``, ``ops.PReLU``, ``ops.ReLU``, ``ops.Ger``; classes
    that MindJAX does not define are left out.

    Returns:
        the list of classes.
    """
    return list(_classes(_WHITE_CELL_NAMES)) + list(_classes(_WHITE_PRIMITIVE_NAMES, _ops))


def get_black_list() -> list[type]:
    """The Cell classes ``O2`` keeps in float32 (a new list each call).

    Returns:
        ``[nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.LayerNorm]``.
    """
    return list(_classes(_BLACK_LIST_NAMES))


def _cast_output(dtype: Any) -> Any:
    def hook(cell: Cell, inputs: Any, output: Any) -> Any:
        def cast(x: Any) -> Any:
            if isinstance(x, (jax.Array, Tensor)) and jnp.issubdtype(x.dtype, jnp.floating) and x.dtype != dtype:
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
        return to_float32(self._backbone(*args, **kwargs))


def _keep_black_list_fp32(network: Cell, dtype: Any, black: tuple[type, ...] | None = None) -> None:
    black = _classes(_BLACK_LIST_NAMES) if black is None else black
    for _, cell in network.cells_and_names():
        if cell is not network and isinstance(cell, black):
            cell.to_float(jnp.float32)
            cell.register_forward_hook(_cast_output(dtype))


def _check_dtype(owner: str, dtype: Any) -> Any:
    jdt = jnp.dtype(to_jax_dtype(dtype))
    if jdt not in _LOW_PRECISION and jdt != jnp.dtype(jnp.float32):
        raise ValueError(f"For '{owner}', 'dtype' must be float16, bfloat16 or float32, got {jdt}")
    return jdt


def _check_low_dtype(owner: str, dtype: Any) -> Any:
    jdt = jnp.dtype(to_jax_dtype(dtype))
    if jdt not in _LOW_PRECISION:
        raise ValueError(f"For '{owner}', 'dtype' must be float16 or bfloat16, got {jdt}")
    return jdt


# -- O1: Primitives under the policy of the Cell that calls them --------------------------

def _declared_class(cls: type) -> type:
    """The class a user wrote, under the same-named subclasses MindJAX may run instead
    (the auto-parallel sharded Primitives)."""
    while cls.__bases__:
        base = cls.__bases__[-1]
        if base.__name__ != cls.__name__ or base.__module__ != cls.__module__:
            break
        cls = base
    return cls


def _policy(dtype: Any, white: frozenset[type] | None) -> PrecisionPolicy:
    # Forced (inside a white-listed Cell): MindSpore casts every Primitive call; of MindJAX's
    # functional ops, those standing for O1's Primitives.
    return PrecisionPolicy(dtype, white, declared=_declared_class, cast_class=_ops.Cast,
                           forced_names=frozenset(_WHITE_PRIMITIVE_NAMES))


def _undo_amp_casts(network: Cell) -> None:
    """Drop what an earlier O1 conversion added, so that converting again starts clean."""
    for _, cell in network.cells_and_names():
        d = cell.__dict__
        handle = d.pop("_amp_output_hook", None)
        if handle is not None:
            handle.remove()
        if d.pop("_amp_to_float", False):
            d["_mixed_dtype"] = None
        set_precision_policy(cell, None)


def _is_library_compute(cls: type) -> bool:
    return cls.__module__.startswith(_LIBRARY_COMPUTE_MODULES)


def _calls_white_primitive(cell: Cell, cls: type, names: frozenset[str]) -> bool:
    if cls.__name__ == "Embedding" and not getattr(cell, "use_one_hot", False):
        return False  # a gather, no MatMul
    return any(name in names for name in _CELL_PRIMITIVES.get(cls.__name__, ()))


def _run_wholly_low(cell: Cell, dtype: Any) -> None:
    cell.to_float(dtype)
    for _, sub in cell.cells_and_names():
        sub.__dict__["_amp_to_float"] = True
        set_precision_policy(sub, NO_CAST)  # to_float already runs everything inside in dtype
    cell.__dict__["_amp_output_hook"] = cell.register_forward_hook(_cast_output(jnp.dtype(jnp.float32)))


def _convert_o1(cell: Cell, dtype: Any, white_cells: frozenset[type], white_prims: frozenset[type],
                prim_names: frozenset[str], force: bool, root: bool) -> None:
    """Mirror of MindSpore's rewrite walk (``_insert_cast_for_operators``) over the Cell tree."""
    d = cell.__dict__
    if not root and d["_mixed_dtype"] is not None and not d.get("_amp_to_float", False):
        for _, sub in cell.cells_and_names():  # precision set by the user: not rewritten
            set_precision_policy(sub, NO_CAST)
        return
    cls = _declared_class(type(cell))
    force = force or cls in white_cells
    if _is_library_compute(cls) and (force or _calls_white_primitive(cell, cls, prim_names)):
        _run_wholly_low(cell, dtype)
        return
    set_precision_policy(cell, _policy(dtype, None if force else white_prims))
    for child in cell.name_cells().values():
        _convert_o1(child, dtype, white_cells, white_prims, prim_names, force, False)


def _mixed_precision_by_lists(network: Cell, dtype: Any, white: list[type], prim_names: frozenset[str]) -> None:
    _undo_amp_casts(network)
    white_cells = frozenset(c for c in white if issubclass(c, Cell))
    white_prims = frozenset(c for c in white if issubclass(c, _ops.Primitive))
    _convert_o1(network, dtype, white_cells, white_prims, prim_names, False, True)


def _warn_if_converted(network: Cell) -> None:
    level = getattr(network, "_amp_level", None)
    if level in ("O1", "O2", "O3", "auto"):
        warnings.warn(f"The network's auto mixed-precision level was already {level}; converting it again "
                      f"stacks the conversions", stacklevel=3)


def _auto_policy(dtype: Any) -> PrecisionPolicy:
    return PrecisionPolicy.auto(dtype, frozenset(_AUTO_WHITE_NAMES), frozenset(_AUTO_BLACK_NAMES),
                                frozenset(_AUTO_PROMOTE_NAMES), declared=_declared_class)


def _run_under(policy: PrecisionPolicy, fn: Any) -> Any:
    """``fn`` (a function or method) running under ``policy`` (MindSpore's amp decorator)."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        # Compiled (GRAPH mode, ms.jit): the wrapper is framework code, the user's function has
        # its control flow converted as any function compiled.
        target = convert_function(fn) if context.in_compiled() else fn
        with policy_scope(policy):
            return target(*args, **kwargs)
    wrapper.__module__ = __name__  # not the user's code: the GRAPH-mode converter leaves it alone
    wrapper.amp_strategy = policy  # type: ignore[attr-defined]
    return wrapper


def auto_mixed_precision(network: Any, amp_level: str = "O0", dtype: Any = jnp.float16) -> Any:
    """Convert ``network`` to mixed precision at ``amp_level`` (see the module docstring).

    At ``'auto'`` (MindSpore 2.x) the operators of MindSpore's auto white list (``MatMul``,
    ``Conv2D``, ``BatchMatMul``, ``Dense``, ``Einsum`` ...) run in ``dtype`` and their outputs
    stay there; those of its black list (``Softmax``, ``BatchNorm``, ``LayerNorm``, ``Exp``,
    ``Log``, ``SumExt`` ...) run in float32; those of its promote list (``BiasAdd``, ``AddN``,
    ``Concat`` ...) run in the widest floating type of their inputs; the rest follow their
    inputs. The policy is active while the network's ``construct`` (or the function) runs,
    for everything it calls; Cells whose precision is set with ``to_float`` keep it.

    Arguments:
        network: the network (changed in place), or at ``'auto'`` also a function.
        amp_level: ``'O0'``, ``'O1'``, ``'O2'``, ``'O3'`` or ``'auto'``.
        dtype: the low-precision type: float16 or bfloat16.

    Returns:
        the network (at ``O2``/``O3`` wrapped to return float32; a function: a wrapper of it).

    Raises:
        TypeError: ``network`` is not a Cell (or, at ``'auto'``, a function).
        ValueError: an unknown level, or ``dtype`` not float16/bfloat16.
    """
    if not isinstance(network, Cell):
        if amp_level != "auto":
            raise TypeError(f"For 'auto_mixed_precision', with amp_level {amp_level!r} the network type should "
                            f"be Cell, got {type(network).__name__}")
        if not (inspect.isfunction(network) or inspect.ismethod(network)):
            raise TypeError(f"For 'auto_mixed_precision', with amp_level 'auto' the network type should be Cell "
                            f"or function, got {type(network).__name__}")
    if amp_level not in _LEVELS:
        raise ValueError(f"For 'auto_mixed_precision', 'amp_level' must be one of {list(_LEVELS)}, "
                         f"got {amp_level!r}")
    jdt = _check_low_dtype("auto_mixed_precision", dtype)
    if amp_level == "O0":
        return network
    if isinstance(network, Cell):
        _warn_if_converted(network)
    if amp_level == "auto":
        policy = _auto_policy(jdt)
        if isinstance(network, Cell):
            set_precision_policy(network, policy)
            network.__dict__["amp_strategy"] = policy
            out = network
        else:
            out = _run_under(policy, network)
    elif amp_level == "O1":
        _mixed_precision_by_lists(network, jdt, get_white_list(), frozenset(_WHITE_PRIMITIVE_NAMES))
        out = network
    elif amp_level == "O2":
        network.to_float(jdt)
        _keep_black_list_fp32(network, jdt)
        out = _OutputTo32(network)
    else:
        network.to_float(jdt)
        out = _OutputTo32(network)
    if isinstance(out, Cell):
        out.__dict__["_amp_level"] = amp_level
    else:
        out._amp_level = amp_level
    return out


def _check_list(owner: str, items: Any, arg: str, kinds: tuple[type, ...]) -> list[type]:
    if not isinstance(items, list):
        raise TypeError(f"For '{owner}', '{arg}' must be a list, got {type(items).__name__}")
    for item in items:
        if not isinstance(item, type):
            raise TypeError(f"For '{owner}', the elements of '{arg}' must be classes, got {item!r}")
        if not issubclass(item, kinds):
            expected = " or ".join(k.__name__ for k in kinds)
            raise TypeError(f"For '{owner}', the elements of '{arg}' must be subclasses of {expected}, "
                            f"got {item.__name__}")
    return items


def custom_mixed_precision(network: Cell, *, white_list: list[type] | None = None,
                           black_list: list[type] | None = None, dtype: Any = jnp.float16) -> Cell:
    """Mixed precision from a user's white list or black list (MindSpore's ``custom_mixed_precision``).

    With ``white_list``, the listed Primitive classes called in the network, and the
    listed Cell classes (everything inside them), run in ``dtype`` as at ``O1``. With
    ``black_list``, the network runs in ``dtype`` except the listed Cells, which run in
    float32 and hand ``dtype`` on; the output is cast to float32.

    Arguments:
        network: the network (changed in place).
        white_list: Cell and Primitive classes, e.g. ``amp.get_white_list() + [nn.Flatten]``.
        black_list: Cell classes.
        dtype: float16 or bfloat16.

    Returns:
        the network (wrapped to return float32 with ``black_list``).

    Raises:
        TypeError: ``network`` is not a Cell, or a list is not a list of such classes.
        ValueError: neither or both lists given, or ``dtype`` not float16/bfloat16.
    """
    owner = "custom_mixed_precision"
    if not isinstance(network, Cell):
        raise TypeError(f"For '{owner}', 'network' must be a Cell, got {type(network).__name__}")
    if white_list is None and black_list is None:
        raise ValueError(f"For '{owner}', one of 'white_list' and 'black_list' must be provided")
    if white_list is not None and black_list is not None:
        raise ValueError(f"For '{owner}', 'white_list' and 'black_list' cannot both be provided")
    jdt = _check_low_dtype(owner, dtype)
    if white_list is not None:
        white = _check_list(owner, white_list, "white_list", (Cell, _ops.Primitive))
        names = frozenset(_declared_class(c).__name__ for c in white if issubclass(c, _ops.Primitive))
        _mixed_precision_by_lists(network, jdt, white, names)
        return network
    black = _check_list(owner, black_list, "black_list", (Cell,))
    for default in get_black_list():
        if default not in black:
            warnings.warn(f"For '{owner}', {default.__name__} is removed from the internal black list",
                          stacklevel=2)
    network.to_float(jdt)
    _keep_black_list_fp32(network, jdt, tuple(black))
    return _OutputTo32(network)


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
        return self._loss_fn(to_float32(out), to_float32(label))


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
        low = cast_type in _LOW_PRECISION or network.__dict__.get("_amp_level") in ("O2", "O3", "auto")
        network = (_AmpWithLossCell if low else WithLossCell)(network, loss_fn)
    if manager is not None:
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            train = TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell)
            manager._bind(train.scale_sense)
            return train.set_train()
        return TrainOneStepCell(network, optimizer, manager.get_loss_scale()).set_train()
    return TrainOneStepCell(network, optimizer).set_train()


@tensor_op
def all_finite(inputs: Any) -> Any:
    """A scalar bool Tensor: whether every element of every Tensor in ``inputs`` is finite."""
    return all_finite_tree(inputs)


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
