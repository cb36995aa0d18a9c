"""Training wrappers: loss, evaluation and one-step-of-training Cells.

``TrainOneStepCell(WithLossCell(net, loss_fn), optimizer)`` is MindSpore's
training step: its ``construct`` computes the loss, the gradients with respect
to ``optimizer.parameters`` (by ``jax.vjp`` over the Parameters' values) and
applies the optimizer. It runs eagerly in PYNATIVE mode and as one XLA
program in GRAPH mode or under :class:`mindjax.train.Model`.

Example:
    >>> net_with_loss = nn.WithLossCell(net, nn.MSELoss())          # doctest: +SKIP
    >>> train_net = nn.TrainOneStepCell(net_with_loss, optimizer)   # doctest: +SKIP
    >>> loss = train_net(x, y)                                      # doctest: +SKIP
"""
from __future__ import annotations

from types import FunctionType, MethodType
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp

from mindjax.common.tensor import Tensor
from mindjax.common.step_guard import note_loss
from mindjax.common.upcalls import UPCALLS
from mindjax.cells.cell import Cell
from mindjax.cells.parameter import Parameter, ParameterTuple
from mindjax.cells.wrap._grad import vjp_of_variables

__all__ = ["WithLossCell", "WithEvalCell", "WithGradCell", "TrainOneStepCell", "ForwardValueAndGrad"]


def _check_cell(owner: str, arg: str, value: Any) -> None:
    if not isinstance(value, Cell):
        raise TypeError(f"For '{owner}', the argument '{arg}' must be a Cell, "
                        f"got {type(value).__name__}")


def to_float32(x: Any) -> Any:
    """``x`` (a pytree) with every floating array that is not float32 cast to float32.

    The training wrappers compute losses in float32 whatever precision the network runs in.

    Example:
        >>> import mindjax as ms
        >>> to_float32((ms.Tensor([1.0], ms.float16), 2))[0].dtype
        Float32
    """
    def cast(a: Any) -> Any:
        if isinstance(a, (jax.Array, Tensor)) and jnp.issubdtype(a.dtype, jnp.floating) and a.dtype != jnp.float32:
            return a.astype(jnp.float32)
        return a
    return jax.tree_util.tree_map(cast, x)


class WithLossCell(Cell):
    """The backbone followed by the loss: ``loss_fn(backbone(data), label)``.

    Arguments:
        backbone: the network.
        loss_fn: the loss Cell (or function) taking ``(logits, label)``.

    Parameter names stay those of the backbone (``auto_prefix=False``).
    """

    def __init__(self, backbone: Cell, loss_fn: Callable[..., Any]) -> None:
        super().__init__(auto_prefix=False)
        _check_cell("WithLossCell", "backbone", backbone)
        if not callable(loss_fn):
            raise TypeError(f"For 'WithLossCell', the argument 'loss_fn' must be a Cell or callable, "
                            f"got {type(loss_fn).__name__}")
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data: Any, label: Any) -> Any:
        """Return the loss of ``backbone(data)`` against ``label``."""
        out = self._backbone(data)
        return self._loss_fn(out, label)

    @property
    def backbone_network(self) -> Cell:
        """The wrapped backbone."""
        return self._backbone


class WithEvalCell(Cell):
    """Evaluation wrapper returning ``(loss, outputs, label)``.

    Arguments:
        network: the backbone.
        loss_fn: the loss Cell.
        add_cast_fp32: cast outputs and label to float32 before the loss
            (mixed-precision networks).
    """

    def __init__(self, network: Cell, loss_fn: Callable[..., Any], add_cast_fp32: bool = False) -> None:
        super().__init__(auto_prefix=False)
        _check_cell("WithEvalCell", "network", network)
        if not isinstance(add_cast_fp32, bool):
            raise TypeError(f"For 'WithEvalCell', 'add_cast_fp32' must be a bool, got {add_cast_fp32!r}")
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data: Any, label: Any) -> tuple[Any, Any, Any]:
        """Return ``(loss, outputs, label)``."""
        outputs = self._network(data)
        if self.add_cast_fp32:
            label = to_float32(label)
            outputs = to_float32(outputs)
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label


class WithGradCell(Cell):
    """Gradients of ``loss_fn(network(data), label)`` (or of ``network``) w.r.t. its trainable Parameters.

    Arguments:
        network: the backbone.
        loss_fn: the loss; ``None`` when ``network`` already returns the loss.
        sens: the cotangent value of the output (1 when ``None``).
    """

    def __init__(self, network: Cell, loss_fn: Callable[..., Any] | None = None, sens: Any = None) -> None:
        super().__init__(auto_prefix=False)
        _check_cell("WithGradCell", "network", network)
        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(network, loss_fn)

    def construct(self, *inputs: Any) -> tuple[Any, ...]:
        """Return the gradients, one per trainable Parameter."""
        _, grads, _ = vjp_of_variables(self.network_with_loss, self.weights, inputs, sens=self.sens)
        return grads


def _reduce_gradients(grads: tuple[Any, ...]) -> tuple[Any, ...]:
    # The parallel mode's reduction (mindjax.parallel.data_parallel registers it): the sharded
    # program already gives the mean; without gradients_mean, MindSpore's sum.
    hook = UPCALLS.grad_reduction
    return grads if hook is None else hook(grads)


class TrainOneStepCell(Cell):
    """One training step: loss, gradients with respect to ``optimizer.parameters``, update.

    Arguments:
        network: a Cell returning the loss (usually a ``WithLossCell``).
        optimizer: the optimizer Cell; its ``parameters`` are differentiated.
        sens: the cotangent of the loss (1.0 when ``None``); a loss scale.
        return_grad: also return the gradients as ``{name: grad}``.

    Returns (of a call):
        the loss, or ``(loss, grads)`` when ``return_grad``.
    """

    def __init__(self, network: Cell, optimizer: Cell, sens: float | None = None,
                 return_grad: bool = False) -> None:
        super().__init__(auto_prefix=False)
        _check_cell("TrainOneStepCell", "network", network)
        weights = getattr(optimizer, "parameters", None)
        if not callable(optimizer) or weights is None:
            raise TypeError(f"For '{type(self).__name__}', the argument 'optimizer' must be an optimizer "
                            f"Cell with a 'parameters' attribute, got {type(optimizer).__name__}")
        if sens is not None and not isinstance(sens, (int, float)) or isinstance(sens, bool):
            raise TypeError(f"For '{type(self).__name__}', the argument 'sens' must be a number or None, "
                            f"got {sens!r}")
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = weights if isinstance(weights, ParameterTuple) else ParameterTuple(weights)
        self.sens = 1.0 if sens is None else float(sens)
        self.return_grad = return_grad
        # Data-parallel gradient reduction plugs in here (identity when stand-alone).
        self.grad_reducer: Callable[[tuple[Any, ...]], tuple[Any, ...]] = _reduce_gradients

    def construct(self, *inputs: Any) -> Any:
        """Run one step on ``inputs`` and return the loss."""
        layout = UPCALLS.batch_layout  # the parallel mode's batch layout (mindjax.parallel)
        if layout is not None:
            inputs = layout(inputs)
        loss, grads, _ = vjp_of_variables(self.network, self.weights, inputs, sens=self.sens)
        note_loss(loss)  # inside Model's guarded step, the optimizer can select its new state on it
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        if self.return_grad:
            return loss, {w.name: g for w, g in zip(self.weights, grads)}
        return loss


class ForwardValueAndGrad(Cell):
    """The network's output together with its gradients (MindSpore's ``nn.ForwardValueAndGrad``).

    Arguments:
        network: a Cell or function.
        weights: Parameters to differentiate with respect to (with ``get_by_list``).
        get_all: gradients with respect to every input.
        get_by_list: gradients with respect to ``weights``.
        sens_param: the last input of a call is the output's cotangent.

    Returns (of a call):
        ``(output, grads)``: grads are the input gradients (``get_all``), the
        weight gradients (``get_by_list``), both as a pair, or the gradient of
        the first input.
    """

    def __init__(self, network: Any, weights: Sequence[Parameter] | None = None, get_all: bool = False,
                 get_by_list: bool = False, sens_param: bool = False) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(network, (Cell, FunctionType, MethodType)):
            raise TypeError(f"For 'ForwardValueAndGrad', the argument 'network' must be a Cell, function or "
                            f"method, got {type(network).__name__}")
        for name, flag in (("get_all", get_all), ("get_by_list", get_by_list), ("sens_param", sens_param)):
            if not isinstance(flag, bool):
                raise TypeError(f"For 'ForwardValueAndGrad', '{name}' must be a bool, got {flag!r}")
        if get_by_list and not isinstance(weights, (ParameterTuple, tuple, list)):
            raise TypeError(f"For 'ForwardValueAndGrad', when 'get_by_list' is True the argument 'weights' "
                            f"must be a sequence of Parameters, got {type(weights).__name__}")
        self.network = network
        self.weights = tuple(weights) if weights is not None else ()
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param

    def construct(self, *inputs: Any) -> tuple[Any, Any]:
        """Return ``(output, gradients)``."""
        cotangent = None
        if self.sens_param:
            inputs, cotangent = inputs[:-1], inputs[-1]
        positions = tuple(range(len(inputs))) if self.get_all else (0,)
        weights = self.weights if self.get_by_list else ()
        if cotangent is not None and not isinstance(cotangent, (tuple, list)):
            cotangent = jnp.asarray(cotangent)
        out, weight_grads, input_grads = vjp_of_variables(self.network, weights, inputs, positions,
                                                          cotangent=cotangent)
        if self.get_all and self.get_by_list:
            return out, (input_grads, weight_grads)
        if self.get_by_list:
            return out, weight_grads
        if self.get_all:
            return out, input_grads
        return out, input_grads[0]
