"""``Optimizer``: the base Cell of every optimizer, with MindSpore's semantics.

An optimizer holds the Parameters it updates (``self.parameters``), the
learning rate (a ``learning_rate`` Parameter, or a schedule Cell), a
``global_step`` Parameter (int32, shape ``(1,)``) and its own state as
Parameters named as MindSpore names them (``moments.fc1.weight`` ...).
``construct(gradients)`` applies one update in place through
``Parameter.set_data``; in GRAPH mode and under ``ms.jit`` the compiled call
writes the new values back, so ``opt(grads)`` works in every mode.

MindSpore's pre-processing order is kept: weight decay
(``grad + weight_decay * loss_scale * param``, by default only on Parameters
whose names contain neither ``beta`` nor ``gamma``), gradient centralization
(groups only), then division by ``loss_scale``. The learning rate is read
before ``global_step`` is incremented, so step 0 uses ``lr[0]``.

Example:
    >>> opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)   # doctest: +SKIP
    >>> grads = jax.grad(loss_of_values)([p.value() for p in opt.parameters])        # doctest: +SKIP
    >>> opt(grads)                                                                   # doctest: +SKIP
"""
from __future__ import annotations

import weakref
from typing import Any, Iterable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import Tensor
from mindjax.cells.cell import Cell
from mindjax.cells.learning_rate import LearningRateSchedule
from mindjax.cells.parameter import Parameter, ParameterTuple
from mindjax.common.variable import Variable

__all__ = ["Optimizer"]

_GROUP_KEYS = ("params", "lr", "weight_decay", "order_params", "grad_centralization")


def _value(x: Any) -> Any:
    return x._value if isinstance(x, Variable) else x


class _ConvertToCell(LearningRateSchedule):
    """A fixed learning rate seen as a schedule (groups where another lr is dynamic)."""

    def __init__(self, learning_rate: Parameter) -> None:
        super().__init__()
        self.learning_rate = learning_rate

    def construct(self, global_step: Any) -> Any:
        return jnp.asarray(self.learning_rate._value)


class _IteratorLearningRate(LearningRateSchedule):
    """A per-step list of learning rates, indexed by ``global_step``."""

    def __init__(self, learning_rate: Any, name: str, owner: str) -> None:
        super().__init__()
        self._owner = owner
        self.learning_rate = Parameter(learning_rate, name)

    def check_step(self, global_step: Any) -> None:
        """Raise when a concrete ``global_step`` is past the end of the list.

        Raises:
            RuntimeError: as MindSpore's Gather on an out-of-range step.
        """
        step = jnp.asarray(_value(global_step))
        size = self.learning_rate.shape[0]
        if isinstance(step, jax.core.Tracer):
            # Known only when the compiled step runs: a host callback raises then (the
            # error reaches the caller at the step's result), only on a step past the end.
            jax.lax.cond(jnp.max(step) >= size, lambda: jax.debug.callback(self._past_end, jnp.max(step)),
                         lambda: None)
            return
        self._past_end(np.max(np.asarray(step)))

    def _past_end(self, last: Any) -> None:
        last, size = int(last), self.learning_rate.shape[0]
        if last >= size:
            raise RuntimeError(f"For '{self._owner}', the 'learning_rate' list has {size} values "
                               f"but step {last} needs value {last}: give one learning rate per step")

    def construct(self, global_step: Any) -> Any:
        self.check_step(global_step)
        # Past the end the compiled step raises (above); the clipped read keeps NaN out of the weights.
        return jnp.take(jnp.asarray(self.learning_rate._value), jnp.asarray(_value(global_step)), axis=0,
                        mode="clip")


class _WrappedWeightDecay(Cell):
    """A weight-decay schedule multiplied by the loss scale."""

    def __init__(self, weight_decay: Cell, loss_scale: float = 1.0) -> None:
        super().__init__()
        self.weight_decay = weight_decay
        self.loss_scale = loss_scale

    def construct(self, global_step: Any) -> Any:
        return self.weight_decay(global_step) * self.loss_scale


class _CellTuple(Cell):
    """A tuple of schedule Cells that keeps their Parameters' names (no prefix)."""

    def __init__(self, cells: Sequence[Cell]) -> None:
        super().__init__(auto_prefix=False)
        self.__dict__["_items"] = tuple(cells)
        for i, cell in enumerate(cells):
            setattr(self, str(i), cell)

    def __getitem__(self, index: int) -> Cell:
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Any:
        return iter(self._items)


def _centralize(flag: bool, grad: Any) -> Any:
    """MindSpore's gradient centralization: only for ndim >= 2 with ``shape[1] % 16 == 0``."""
    if not flag or grad.ndim < 2 or grad.shape[1] % 16 != 0:
        return grad
    return grad - jnp.mean(grad, axis=tuple(range(1, grad.ndim)), keepdims=True)


_LIVE_OPTIMIZERS: "weakref.WeakSet[Optimizer]" = weakref.WeakSet()


def live_optimizers() -> list["Optimizer"]:
    """Every Optimizer still alive (the pipeline layer groups the Parameters each updates alike)."""
    return list(_LIVE_OPTIMIZERS)


class Optimizer(Cell):
    """Base class of optimizers (MindSpore's ``nn.Optimizer``).

    Arguments:
        learning_rate: a float or int (>= 0), a scalar Tensor, a 1-D Tensor or
            list (one rate per step, indexed by ``global_step``), or a
            :class:`~mindjax.nn.LearningRateSchedule`.
        parameters: a list of Parameters, or a list of group dicts with keys
            ``params``, ``lr``, ``weight_decay``, ``grad_centralization``, or
            a dict with only ``order_params``.
        weight_decay: a float >= 0 or a schedule Cell. Without groups it
            applies to Parameters whose names contain neither ``beta`` nor ``gamma``.
        loss_scale: a float > 0; gradients are divided by it.

    Raises:
        TypeError: ``parameters`` holds something that is neither a Parameter
            nor a dict, or ``learning_rate`` has an unsupported type.
        ValueError: ``parameters`` is None or empty, a negative learning rate
            or weight decay, a loss scale <= 0.
    """

    _support_parallel_optimizer = False

    def __init__(self, learning_rate: Any, parameters: Any, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0) -> None:
        super().__init__(auto_prefix=False)
        parameters = self._parameters_base_check(parameters, "parameters")
        if not all(isinstance(x, Parameter) for x in parameters) \
                and not all(isinstance(x, dict) for x in parameters):
            bad = next(x for x in parameters if not isinstance(x, (Parameter, dict)))
            raise TypeError(f"{self._where()}, every element of 'parameters' must be a Parameter or a dict "
                            f"(all of one kind), got {type(bad).__name__}")
        if isinstance(loss_scale, int) and not isinstance(loss_scale, bool):
            loss_scale = float(loss_scale)
        if not isinstance(loss_scale, float):
            raise TypeError(f"{self._where()}, 'loss_scale' must be a float, got {type(loss_scale).__name__}")
        if loss_scale <= 0.0:
            raise ValueError(f"{self._where()}, 'loss_scale' must be > 0, got {loss_scale}")
        self.loss_scale = loss_scale
        self.dynamic_weight_decay = False
        self.grad_centralization = False
        self.dynamic_lr = False
        self.global_step = Parameter(jax.device_put(np.zeros((1,), np.int32)), name="global_step", requires_grad=False)
        self.is_group = False
        self.is_group_lr = False
        self.is_group_params_ordered = False
        learning_rate = self._preprocess_single_lr(learning_rate)
        if isinstance(parameters[0], dict):
            self.is_group = True
            self.group_params: list[Parameter] = []
            self.group_lr: list[Any] = []
            self.group_weight_decay: list[Any] = []
            self.group_grad_centralization: list[bool] = []
            self._init_group_params(parameters, learning_rate, weight_decay, self.grad_centralization)
        self._init_opt_attrs(learning_rate, parameters, weight_decay)
        _LIVE_OPTIMIZERS.add(self)

    # -- construction -----------------------------------------------------------------
    def _parameters_base_check(self, parameters: Any, what: str) -> list[Any]:
        # MindSpore's messages name the base class ("For 'Optimizer', ..."), whichever optimizer checks.
        if parameters is None:
            raise ValueError(f"For 'Optimizer', the argument {what} can not be None.")
        if isinstance(parameters, (str, bytes)) or not isinstance(parameters, Iterable):
            raise TypeError(f"For 'Optimizer', the argument {what} must be Iterable type, "
                            f"but got {type(parameters)}.")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"For 'Optimizer', the argument {what} must not be empty.")
        return parameters

    def _init_opt_attrs(self, learning_rate: Any, parameters: list[Any], weight_decay: Any) -> None:
        weight_decay = self._preprocess_weight_decay(weight_decay)
        if self.is_group_lr:
            if self.dynamic_lr:
                self.learning_rate = _CellTuple(self.group_lr)
            else:
                self.learning_rate = ParameterTuple(self.group_lr)
        else:
            self.learning_rate = self._build_single_lr(learning_rate, "learning_rate")
        if self.is_group:
            self.parameters = ParameterTuple(self.group_params)
            self.decay_flags = tuple(isinstance(x, Cell) or x > 0 for x in self.group_weight_decay)
            self.dynamic_decay_flags = tuple(isinstance(x, Cell) for x in self.group_weight_decay)
            self.weight_decay = tuple(self.group_weight_decay)
            self.exec_weight_decay = any(self.decay_flags)
            self.grad_centralization_flags = tuple(self.group_grad_centralization)
        else:
            self.parameters = ParameterTuple(parameters)
            self.decay_flags = tuple("beta" not in p.name and "gamma" not in p.name for p in self.parameters)
            self.dynamic_decay_flags = isinstance(weight_decay, Cell)
            self.exec_weight_decay = isinstance(weight_decay, Cell) or weight_decay > 0
            self.weight_decay = weight_decay
        self._parameters = self.parameters
        self.reciprocal_scale = 1.0 / self.loss_scale
        self.need_scale = self.loss_scale != 1.0
        self.param_length = len(self.parameters)

    def _preprocess_weight_decay(self, weight_decay: Any) -> Any:
        if isinstance(weight_decay, (float, int)) and not isinstance(weight_decay, bool):
            weight_decay = float(weight_decay)
            if weight_decay < 0.0:
                raise ValueError(f"{self._where()}, 'weight_decay' must be >= 0, got {weight_decay}")
            return weight_decay * self.loss_scale
        if isinstance(weight_decay, Cell):
            self.dynamic_weight_decay = True
            return _WrappedWeightDecay(weight_decay, self.loss_scale)
        raise TypeError(f"{self._where()}, 'weight_decay' must be an int, a float or a Cell, "
                        f"got {type(weight_decay).__name__}")

    def _preprocess_single_lr(self, learning_rate: Any) -> Any:
        """Check the lr; return a float, a 0-D/1-D float32 array or a schedule."""
        if isinstance(learning_rate, bool):
            raise TypeError(f"{self._where()}, 'learning_rate' must be a number, Tensor, list or "
                            f"LearningRateSchedule, got bool")
        if isinstance(learning_rate, (float, int)):
            learning_rate = float(learning_rate)
            if not learning_rate >= 0.0:
                raise ValueError(f"{self._where()}, 'learning_rate' must be a float >= 0, got {learning_rate}")
            return learning_rate
        if isinstance(learning_rate, Variable):
            learning_rate = learning_rate._value
        if isinstance(learning_rate, (jax.Array, np.ndarray)) and learning_rate.ndim == 0:
            return jnp.asarray(learning_rate, jnp.float32)
        if isinstance(learning_rate, LearningRateSchedule):
            self.dynamic_lr = True
            return learning_rate
        if isinstance(learning_rate, (jax.Array, np.ndarray)):
            if learning_rate.ndim > 1:
                raise ValueError(f"{self._where()}, a Tensor 'learning_rate' must be 0-D or 1-D, "
                                 f"got shape {tuple(learning_rate.shape)}")
            if learning_rate.shape[0] == 0:
                raise ValueError(f"{self._where()}, a 1-D 'learning_rate' must not be empty")
            self.dynamic_lr = True
            return jnp.asarray(learning_rate, jnp.float32)
        if isinstance(learning_rate, Cell):
            raise TypeError(f"{self._where()}, a Cell 'learning_rate' must be a LearningRateSchedule, "
                            f"got {type(learning_rate).__name__}")
        if isinstance(learning_rate, Iterable) and not isinstance(learning_rate, (str, bytes, dict)):
            values = list(learning_rate)
            if not values:
                raise ValueError(f"{self._where()}, a list 'learning_rate' must not be empty")
            try:
                table = np.asarray(values, dtype=np.float32)
            except (TypeError, ValueError):
                raise TypeError(f"{self._where()}, a list 'learning_rate' must hold numbers, "
                                f"got {values!r}") from None
            if table.ndim != 1:
                raise ValueError(f"{self._where()}, a list 'learning_rate' must be flat, got shape {table.shape}")
            self.dynamic_lr = True
            return jnp.asarray(table)
        raise TypeError(f"{self._where()}, 'learning_rate' must be an int, float, Tensor, list or "
                        f"LearningRateSchedule, got {type(learning_rate).__name__}")

    def _build_single_lr(self, learning_rate: Any, name: str) -> Any:
        """A Parameter for a fixed lr, a schedule Cell for a dynamic one."""
        if isinstance(learning_rate, float):  # built on the host: no XLA program for a constant
            learning_rate = jax.device_put(np.float32(learning_rate))
        if isinstance(learning_rate, jax.Array) and learning_rate.ndim == 0:
            lr = Parameter(learning_rate.astype(jnp.float32), name=name)
            if self.is_group_lr and self.dynamic_lr:
                return _ConvertToCell(lr)
            return lr
        if isinstance(learning_rate, jax.Array) and learning_rate.ndim == 1:
            return _IteratorLearningRate(learning_rate, name, type(self).__name__)
        return learning_rate

    def _check_group_params(self, parameters: list[dict[str, Any]]) -> None:
        for group in parameters:
            bad = [k for k in group if k not in _GROUP_KEYS]
            if bad:
                raise KeyError(f"{self._where()}, the keys of a parameter group must be among {list(_GROUP_KEYS)}, "
                               f"got {bad}")
            if "order_params" in group:
                if len(group) > 1:
                    raise ValueError(f"{self._where()}, the 'order_params' dict must hold only that key, "
                                     f"got {list(group)}")
                if not isinstance(group["order_params"], Iterable):
                    raise TypeError(f"{self._where()}, 'order_params' must be iterable, "
                                    f"got {type(group['order_params']).__name__}")
                continue
            if "params" not in group:
                raise KeyError(f"{self._where()}, every parameter group needs a 'params' key, got {list(group)}")
            params = self._parameters_base_check(group["params"], "group 'params'")
            for index, param in enumerate(params):
                if not isinstance(param, Parameter):
                    raise TypeError(f"{self._where()}, the elements of a group's 'params' must be Parameters, "
                                    f"got {type(param).__name__} at index {index}")

    def _parse_group_params(self, parameters: list[dict[str, Any]], learning_rate: Any) -> None:
        self._check_group_params(parameters)
        table_len = learning_rate.shape[0] if isinstance(learning_rate, jax.Array) and learning_rate.ndim == 1 else 0
        for group in parameters:
            if "order_params" in group:
                self.is_group_params_ordered = True
                continue
            if "lr" in group:
                self.is_group_lr = True
                group_lr = self._preprocess_single_lr(group["lr"])
                if isinstance(group_lr, jax.Array) and group_lr.ndim == 1:
                    if table_len == 0:
                        table_len = group_lr.shape[0]
                    elif group_lr.shape[0] != table_len:
                        raise ValueError(f"{self._where()}, every list 'lr' of the groups must have the length "
                                         f"of 'learning_rate' ({table_len}), got {group_lr.shape[0]}")

    def _init_group_params(self, parameters: list[dict[str, Any]], learning_rate: Any, weight_decay: Any,
                           grad_centralization: bool) -> None:
        self._parse_group_params(parameters, learning_rate)
        default_lr = self._build_single_lr(learning_rate, "learning_rate")
        seen: set[str] = set()
        ordered: list[Parameter] = []
        for group_num, group in enumerate(parameters):
            if "order_params" in group:
                ordered = list(group["order_params"])
                continue
            params = list(group["params"])
            self.group_params += params
            if "lr" in group:
                lr = self._build_single_lr(self._preprocess_single_lr(group["lr"]),
                                           f"learning_rate_group_{group_num}")
            else:
                lr = default_lr
            wd = self._preprocess_weight_decay(group.get("weight_decay", weight_decay))
            if "grad_centralization" in group:
                if not isinstance(group["grad_centralization"], bool):
                    raise TypeError(f"{self._where()}, 'grad_centralization' must be a bool, "
                                    f"got {type(group['grad_centralization']).__name__}")
                self.grad_centralization = group["grad_centralization"]
                gc = self.grad_centralization
            else:
                gc = grad_centralization
            for param in params:
                if param.name in seen:
                    raise RuntimeError(f"{self._where()}, the parameter '{param.name}' is in more than one "
                                       f"group; each parameter may be set only once")
                seen.add(param.name)
                self.group_lr.append(lr)
                self.group_weight_decay.append(wd)
                self.group_grad_centralization.append(gc)
        if self.is_group_params_ordered and ordered:
            self._order_group_params(ordered)

    def _order_group_params(self, ordered: list[Parameter]) -> None:
        if len(ordered) != len(self.group_params):
            raise ValueError(f"{self._where()}, 'order_params' must list every grouped parameter: got "
                             f"{len(ordered)} parameters for {len(self.group_params)} grouped ones")
        names = [p.name for p in ordered]
        slots: list[Any] = [None] * len(ordered)
        for entry in zip(self.group_params, self.group_lr, self.group_weight_decay,
                         self.group_grad_centralization):
            if entry[0].name not in names:
                raise ValueError(f"{self._where()}, the grouped parameter '{entry[0].name}' is missing from "
                                 f"'order_params'")
            slots[names.index(entry[0].name)] = entry
        self.group_params = [s[0] for s in slots]
        self.group_lr = [s[1] for s in slots]
        self.group_weight_decay = [s[2] for s in slots]
        self.group_grad_centralization = [s[3] for s in slots]

    # -- public helpers (MindSpore's API) -------------------------------------------------
    @property
    def unique(self) -> bool:
        """Whether sparse gradients are de-duplicated (gradients are dense here)."""
        return self.__dict__.get("_unique", True)

    @unique.setter
    def unique(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"{self._where()}, 'unique' must be a bool, got {type(value).__name__}")
        self.__dict__["_unique"] = value

    # How ``target`` may be set, as in MindSpore: None (it cannot), "any" (to 'CPU', 'Ascend' or
    # 'GPU': FTRL, ProximalAdagrad) or "device" (to 'CPU' or this machine's own device: Adam,
    # LazyAdam). The update is the same computation wherever it is said to run.
    _target_setting: str | None = None

    @property
    def target(self) -> str:
        """Where the update runs: the one set, else the JAX default device's platform, upper-case."""
        return self.__dict__.get("_target", jax.default_backend().upper())

    @target.setter
    def target(self, value: str) -> None:
        name = type(self).__name__
        if self._target_setting is None:
            raise NotImplementedError(f"For '{name}', the property 'target' cannot be set")
        if not isinstance(value, str):
            raise TypeError(f"For '{name}', the property 'target' must be a str, got {type(value).__name__}")
        if value not in ("CPU", "Ascend", "GPU"):
            raise ValueError(f"For '{name}', the property 'target' must be 'CPU', 'Ascend' or 'GPU', got {value!r}")
        current = self.target
        if self._target_setting == "device" and value != "CPU" and current in ("CPU", "Ascend", "GPU") \
                and value != current:
            raise ValueError(f"For '{name}', the property 'target' cannot be set to '{value}' "
                             f"in the '{current}' environment")
        self.__dict__["_target"] = value

    def get_weight_decay(self) -> Any:
        """The weight decay for this step (times ``loss_scale``); a tuple per parameter with groups."""
        if self.dynamic_weight_decay:
            if self.is_group:
                return tuple(wd(self.global_step) if flag else wd
                             for wd, flag in zip(self.weight_decay, self.dynamic_decay_flags))
            return self.weight_decay(self.global_step)
        return self.weight_decay

    def get_lr(self) -> Any:
        """The learning rate of the current step.

        Returns:
            the ``learning_rate`` Parameter for a fixed rate, a scalar array for a
            dynamic one, and with group learning rates a tuple with one entry per parameter.
        """
        lr = self.learning_rate
        if self.dynamic_lr:
            # Checked here too: in GRAPH mode the schedule below runs compiled, where
            # a step past the list would read NaN instead of raising as MindSpore does.
            for sched in (lr if self.is_group_lr else (lr,)):
                if isinstance(sched, _IteratorLearningRate):
                    sched.check_step(self.global_step)
            if self.is_group_lr:
                return tuple(jnp.reshape(sched(self.global_step), ()) for sched in self.learning_rate)
            return jnp.reshape(self.learning_rate(self.global_step), ())
        return lr

    def get_lr_parameter(self, param: Parameter | list[Parameter]) -> Any:
        """The learning-rate Parameter (or schedule) that applies to ``param``.

        Arguments:
            param: a Parameter of this optimizer, or a list of them.

        Returns:
            one entry for a Parameter, a list for a list.
        """
        if isinstance(param, Parameter):
            wanted = [param]
        elif isinstance(param, list):
            wanted = param
        else:
            raise TypeError(f"For 'get_lr_parameter', 'param' must be a Parameter or a list, "
                            f"got {type(param).__name__}")
        ids = [id(p) for p in self.parameters]
        out = []
        for p in wanted:
            if not isinstance(p, Parameter):
                raise TypeError(f"For 'get_lr_parameter', expected Parameters, got {type(p).__name__}")
            if id(p) not in ids:
                raise ValueError(f"For 'get_lr_parameter', the parameter '{p.name}' is not updated by "
                                 f"'{type(self).__name__}'")
            lr = self.learning_rate[ids.index(id(p))] if self.is_group_lr else self.learning_rate
            if isinstance(lr, (_ConvertToCell, _IteratorLearningRate)):
                lr = lr.learning_rate
            out.append(lr)
        return out if isinstance(param, list) else out[0]

    def decay_weight(self, gradients: Sequence[Any]) -> tuple[Any, ...]:
        """Add ``weight_decay * param`` to the gradients of the decayed parameters."""
        gradients = tuple(gradients)
        if not self.exec_weight_decay:
            return gradients
        wd = self.get_weight_decay()
        wds = wd if self.is_group else (wd,) * self.param_length
        return tuple(jnp.asarray(p._value) * jnp.asarray(w, p.dtype) + g if flag else g
                     for w, flag, p, g in zip(wds, self.decay_flags, self.parameters, gradients))

    def gradients_centralization(self, gradients: Sequence[Any]) -> tuple[Any, ...]:
        """Centralize the gradients of groups that ask for it (convolution weights)."""
        gradients = tuple(gradients)
        if not self.is_group:
            return gradients
        return tuple(_centralize(flag, g) for flag, g in zip(self.grad_centralization_flags, gradients))

    def scale_grad(self, gradients: Sequence[Any]) -> tuple[Any, ...]:
        """Divide the gradients by ``loss_scale``."""
        gradients = tuple(gradients)
        if not self.need_scale:
            return gradients
        return tuple(g * jnp.asarray(self.reciprocal_scale, g.dtype) for g in gradients)

    def flatten_gradients(self, gradients: Sequence[Any]) -> Sequence[Any]:
        """MindSpore's hook for flattened parameters: gradients are returned unchanged."""
        return gradients

    # -- helpers for subclasses ---------------------------------------------------------
    def _check_gradients(self, gradients: Any) -> tuple[Any, ...]:
        """The gradients as a tuple of arrays, one per parameter, with matching shapes."""
        if isinstance(gradients, (jax.Array, np.ndarray, Tensor)):
            gradients = (gradients,)
        if not isinstance(gradients, (tuple, list)):
            raise TypeError(f"{self._where()}, 'gradients' must be a tuple of arrays, one per parameter, "
                            f"got {type(gradients).__name__}")
        if len(gradients) != self.param_length:
            # RuntimeError, as MindSpore's Map over (parameters, gradients) of unequal lengths.
            raise RuntimeError(f"{self._where()}, expected {self.param_length} gradients (one per parameter), "
                               f"got {len(gradients)}")
        out = []
        for p, g in zip(self.parameters, gradients):
            g = jnp.asarray(_value(g))
            if tuple(g.shape) != p.shape:
                raise ValueError(f"{self._where()}, the gradient of '{p.name}' must have shape {p.shape}, "
                                 f"got {tuple(g.shape)}")
            out.append(g)
        return tuple(out)

    def _lr_per_param(self, lr: Any) -> list[Any]:
        """One scalar learning-rate array per parameter (from :meth:`get_lr`'s result)."""
        if self.is_group_lr:
            return [jnp.asarray(_value(x)) for x in lr]
        return [jnp.asarray(_value(lr))] * self.param_length

    def _decay_per_param(self) -> list[Any]:
        """The weight decay of each parameter for this step (0 where it is not decayed)."""
        wd = self.get_weight_decay()
        wds = wd if self.is_group else (wd,) * self.param_length
        return [jnp.asarray(_value(w), jnp.float32) if flag else jnp.zeros((), jnp.float32)
                for w, flag in zip(wds, self.decay_flags)]

    def _increase_global_step(self) -> None:
        self.global_step.set_data(self.global_step._value + 1)

    def _clone_state(self, prefix: str, init: Any) -> ParameterTuple:
        """One state Parameter per parameter, named ``prefix.<param name>`` (MindSpore's clone)."""
        return self.parameters.clone(prefix=prefix, init=init)

    def construct(self, *hyper_params: Any) -> Any:
        """One update from ``gradients``; every optimizer subclass defines it."""
        raise NotImplementedError(f"{self._where()}: an optimizer must define construct(gradients)")
