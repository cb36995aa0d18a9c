"""``mindspore.experimental.optim.optimizer``: the base of the PyTorch-style optimizers.

These optimizers keep their options in ``param_groups`` (a list of dicts with
``params``, ``lr``, ``weight_decay`` ...) as PyTorch's do, and are applied by calling
them on the gradients: ``optimizer(grads)``. Each group's ``lr`` is a Parameter, so the
schedulers of :mod:`mindjax.experimental.optim.lr_scheduler` change it in place, also
inside compiled code.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import jax.numpy as jnp

from mindjax.cells.cell import Cell
from mindjax.cells.parameter import Parameter, ParameterTuple
from mindjax.common.tensor import as_array

__all__ = ["Optimizer"]


def _is_tensor_like(x: Any) -> bool:
    return hasattr(x, "shape") and hasattr(x, "dtype")


class Optimizer(Cell):
    """Base class of the PyTorch-style optimizers (MindSpore's ``experimental.optim.Optimizer``).

    Arguments:
        params: Parameters, or dicts each with ``'params'`` and the group's own options.
        defaults: the default options (``lr``, ``weight_decay`` ...) of groups that do not set them.

    Attributes:
        param_groups: the groups; ``group['lr']`` is a scalar float32 Parameter.
        parameters: every optimized Parameter, in group order.
        group_start_id: where each group's gradients start in the flat gradient tuple.

    Raises:
        ValueError: ``params`` empty or None, or a Parameter in two groups.
        TypeError: a group is not a dict, holds a non-Parameter or a set, or a bad ``lr`` or ``weight_decay``.
    """

    def __init__(self, params: Any, defaults: dict[str, Any]) -> None:
        super().__init__(auto_prefix=False)
        groups = self._parameters_base_check(params, "params")
        self.defaults = dict(defaults)
        self.param_groups: list[dict[str, Any]] = []
        self.lrs: list[Parameter] = []
        self.group_start_id = [0]
        self._flat_params: list[Parameter] = []
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)
        self.parameters = ParameterTuple(self._flat_params)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group (a dict with ``'params'`` and optional options) to ``param_groups``."""
        group_id = len(self.param_groups)
        group = self._preprocess_param_group(param_group)
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        group["lr"] = self._build_single_lr(group.get("lr"), f"learning_rate_group_{group_id}")
        group["weight_decay"] = self._preprocess_weight_decay(group.get("weight_decay", 0.0))
        self.lrs.append(group["lr"])
        self._flat_params.extend(group["params"])
        self.param_groups.append(group)
        self.group_start_id.append(self.group_start_id[-1] + len(group["params"]))

    @staticmethod
    def _parameters_base_check(parameters: Any, what: str) -> list[Any]:
        if parameters is None:
            raise ValueError(f"For 'Optimizer', the argument {what} can not be None.")
        if not isinstance(parameters, Iterable):
            raise TypeError(f"For 'Optimizer', the argument {what} must be Iterable type, but got "
                            f"{type(parameters).__name__}.")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"For 'Optimizer', the argument {what} must not be empty.")
        return parameters

    def _preprocess_param_group(self, param_group: Any) -> dict[str, Any]:
        if not isinstance(param_group, dict):
            raise TypeError(f"For 'Optimizer', a param group must be a dict, got {type(param_group).__name__}")
        group = dict(param_group)
        params = group["params"]
        if isinstance(params, Parameter):
            group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("For 'Optimizer', parameters must be in an ordered collection (a list), not a set")
        else:
            group["params"] = list(params)
        for p in group["params"]:
            if not isinstance(p, Parameter):
                raise TypeError(f"For 'Optimizer', only Parameters can be optimized, got {type(p).__name__}")
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("For 'Optimizer', some parameters appear in more than one parameter group.")
        return group

    def _build_single_lr(self, learning_rate: Any, name: str) -> Parameter:
        if isinstance(learning_rate, bool):
            raise TypeError(f"For '{type(self).__name__}', 'lr' must be an int, float or scalar Tensor, got bool")
        if isinstance(learning_rate, (int, float)):
            if learning_rate < 0:
                raise ValueError(f"For '{type(self).__name__}', 'lr' must be non-negative, got {learning_rate}")
            return Parameter(jnp.asarray(float(learning_rate), jnp.float32), name=name, requires_grad=False)
        if _is_tensor_like(learning_rate):
            value = as_array(learning_rate)
            if value.ndim == 0:
                return Parameter(value.astype(jnp.float32), name=name, requires_grad=False)
            raise ValueError(f"For '{type(self).__name__}', a Tensor 'lr' must be a scalar, got shape {value.shape}")
        raise TypeError(f"For '{type(self).__name__}', 'lr' must be an int, float or scalar Tensor, got "
                        f"{type(learning_rate).__name__}")

    def _preprocess_weight_decay(self, weight_decay: Any) -> float:
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float)):
            raise TypeError(f"For '{type(self).__name__}', 'weight_decay' must be an int or float, got "
                            f"{type(weight_decay).__name__}")
        if weight_decay < 0:
            raise ValueError(f"For '{type(self).__name__}', 'weight_decay' must be non-negative, got {weight_decay}")
        return float(weight_decay)

    def _group_grads(self, gradients: Any, group_id: int) -> list[Any]:
        start, stop = self.group_start_id[group_id], self.group_start_id[group_id + 1]
        gradients = tuple(gradients)
        if len(gradients) != self.group_start_id[-1]:
            raise ValueError(f"For '{type(self).__name__}', expected {self.group_start_id[-1]} gradients (one per "
                             f"Parameter), got {len(gradients)}")
        return [as_array(g) for g in gradients[start:stop]]

    def __repr__(self) -> str:
        lines = [type(self).__name__ + " ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for key in sorted(k for k in group if k != "params"):
                value = group[key]
                lines.append(f"    {key}: {float(as_array(value)) if key == 'lr' else value}")
        return "\n".join(lines) + "\n)"

    def construct(self, *hyper_params: Any) -> Any:
        raise NotImplementedError(f"For '{type(self).__name__}', subclasses of Optimizer define construct(gradients)")
