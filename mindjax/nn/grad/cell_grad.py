"""``mindspore.nn.grad.cell_grad``: ``nn.Jvp`` and ``nn.Vjp``, the Cell forms of ``ops.jvp``/``ops.vjp``.

MindSpore marks both as deprecated in favour of :func:`mindjax.ops.jvp` and
:func:`mindjax.ops.vjp`; they are kept for scripts that still use them and are
thin Cells over :mod:`mindjax.transforms.grad` (this facade package sits above
the transforms layer).

Example:
    >>> import numpy as np
    >>> import mindjax as ms
    >>> from mindjax import nn
    >>> out, tangent = nn.Jvp(lambda x: x ** 3)(ms.Tensor(np.array([2.0], np.float32)),
    ...                                        ms.Tensor(np.array([1.0], np.float32)))
    >>> float(tangent[0])
    12.0
"""
from __future__ import annotations

from typing import Any, Callable

from mindjax.cells.cell import Cell
from mindjax.transforms.grad import GradOperation, jvp

__all__ = ["Jvp", "Vjp"]


def _check_fn(fn: Any, who: str) -> None:
    if not callable(fn):
        raise TypeError(f"For '{who}', 'fn' must be a function or a Cell, got {type(fn).__name__}")


def _check_structure(who: str, name: str, what: str, value: Any, like: Any) -> None:
    """``value`` is a Tensor where ``like`` is one, and a sequence of as many items where ``like`` is a sequence.

    Raises:
        TypeError: the structures differ (MindSpore's graph compiler rejects such a call with a TypeError).
    """
    if isinstance(like, (tuple, list)):
        if not isinstance(value, (tuple, list)) or len(value) != len(like):
            got = f"{type(value).__name__} of {len(value)}" if isinstance(value, (tuple, list)) else \
                type(value).__name__
            raise TypeError(f"For '{who}', '{name}' must be a tuple of {len(like)} Tensors matching {what}, "
                            f"but got {got}")
        for item, ref in zip(value, like):
            _check_structure(who, name, what, item, ref)
    elif isinstance(value, (tuple, list)):
        raise TypeError(f"For '{who}', '{name}' must be a Tensor matching {what}, but got "
                        f"{type(value).__name__} of {len(value)}")


class Jvp(Cell):
    """Forward-mode product of ``fn``'s Jacobian with a tangent ``v``.

    Arguments:
        fn: the function or Cell to differentiate.

    Inputs:
        ``*inputs, v``: the inputs of ``fn`` followed by the tangent ``v`` (a Tensor for
        one input, a tuple with one Tensor per input otherwise).

    Returns:
        ``(fn(*inputs), jvp)``.
    """

    def __init__(self, fn: Callable[..., Any]) -> None:
        super().__init__()
        _check_fn(fn, "Jvp")
        self.fn = fn

    def construct(self, *args: Any) -> Any:
        if len(args) < 2:
            raise ValueError(f"For 'Jvp', the inputs must be the inputs of 'fn' followed by the tangent 'v', "
                             f"got {len(args)} argument(s)")
        inputs, v = args[:-1], args[-1]
        _check_structure("Jvp", "v", "the inputs", v, inputs[0] if len(inputs) == 1 else inputs)
        tangents = (v,) if len(inputs) == 1 else tuple(v)
        return jvp(self.fn, inputs, tangents)


class Vjp(Cell):
    """Reverse-mode product of a cotangent ``v`` with ``fn``'s Jacobian.

    Arguments:
        fn: the function or Cell to differentiate.

    Inputs:
        ``*inputs, v``: the inputs of ``fn`` followed by the cotangent ``v`` (shaped like
        ``fn``'s output).

    Returns:
        ``(fn(*inputs), grads)``: ``grads`` is the gradient of the only input, or a tuple
        with one gradient per input.
    """

    def __init__(self, fn: Callable[..., Any]) -> None:
        super().__init__()
        _check_fn(fn, "Vjp")
        self.fn = fn
        self._grad_all = GradOperation(get_all=True, sens_param=True)
        self._grad_first = GradOperation(sens_param=True)

    def construct(self, *args: Any) -> Any:
        if len(args) < 2:
            raise ValueError(f"For 'Vjp', the inputs must be the inputs of 'fn' followed by the cotangent "
                             f"'v', got {len(args)} argument(s)")
        inputs = args[:-1]
        output = self.fn(*inputs)
        _check_structure("Vjp", "v", "the output of 'fn'", args[-1], output)
        grad = self._grad_first if len(inputs) == 1 else self._grad_all
        return output, grad(self.fn)(*args)
