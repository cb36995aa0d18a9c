"""``mindspore.graph.mutable`` (and ``mindspore.common.mutable``): make a constant input variable.

In GRAPH mode (a GRAPH Cell, ``ms.jit``) a Python number argument is a
compile-time constant: each new value compiles a new program. ``mutable(2)``
returns an ``int`` that the compiled call takes as a traced 0-d input instead
(``int64``, ``float32`` or ``bool``, as ``Tensor(value)`` would be), so
``net(x, mutable(1))`` then ``net(x, mutable(2))`` compile once. Inside the
program the value is a 0-d Tensor. Tuples, lists and dicts of Tensors are
already traced inputs; ``mutable`` marks them too, and a marked one is a
gradient input (``ms.grad(net)(mutable((x, y)))`` gives ``(dx, dy)``, as in
MindSpore). A mutable scalar's gradient is a zero of its Python type, which is
what MindSpore 2.10 gives.

Example:
    >>> import mindjax as ms
    >>> n = ms.mutable(3)
    >>> n + 1, isinstance(n, int)
    (4, True)
"""
from __future__ import annotations

from typing import Any

import jax

from mindjax.common.tensor import Tensor

__all__ = ["mutable"]


class _Int(int):
    """A mutable ``int`` (see :func:`mutable`)."""


class _Float(float):
    """A mutable ``float`` (see :func:`mutable`)."""


class _Bool(int):
    """A mutable ``bool``: ``bool`` cannot be subclassed, so it is an ``int`` that reports ``bool``
    as its class and prints as ``True``/``False``."""

    def __init__(self, value: Any) -> None:
        self.value = bool(value)

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # noqa: D401 - isinstance(x, bool) holds, as in MindSpore
        return bool

    def __and__(self, other: Any) -> Any:
        return self.value & other

    def __rand__(self, other: Any) -> Any:
        return other & self.value

    def __or__(self, other: Any) -> Any:
        return self.value | other

    def __ror__(self, other: Any) -> Any:
        return other | self.value

    def __xor__(self, other: Any) -> Any:
        return self.value ^ other

    def __rxor__(self, other: Any) -> Any:
        return other ^ self.value

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return repr(self.value)


class _Tuple(tuple):
    """A mutable ``tuple`` (see :func:`mutable`)."""


class _List(list):
    """A mutable ``list`` (see :func:`mutable`)."""


class _Dict(dict):
    """A mutable ``dict`` (see :func:`mutable`)."""


# The scalar classes a compiled call takes as traced 0-d inputs (checked by exact type).
MUTABLE_SCALARS = frozenset({_Int, _Float, _Bool})


def _mark(ret: Any, dynamic_len: bool, origin: Any) -> Any:
    ret.__ms_mutable__ = True
    ret.__ms_dynamic_len__ = dynamic_len
    ret.__ms_origin_object__ = origin
    return ret


def _register_sequence(kind: type) -> None:
    def flatten(x: Any) -> tuple[list[Any], bool]:
        return list(x), bool(getattr(x, "__ms_dynamic_len__", False))

    def unflatten(dynamic_len: bool, children: Any) -> Any:
        ret = kind(children)
        return _mark(ret, dynamic_len, ret)
    jax.tree_util.register_pytree_node(kind, flatten, unflatten)


def _flatten_dict(x: Any) -> tuple[list[Any], tuple[Any, bool]]:
    keys = tuple(x)
    return [x[k] for k in keys], (keys, bool(getattr(x, "__ms_dynamic_len__", False)))


def _unflatten_dict(aux: tuple[Any, bool], children: Any) -> Any:
    keys, dynamic_len = aux
    ret = _Dict(zip(keys, children))
    return _mark(ret, dynamic_len, ret)


_register_sequence(_Tuple)
_register_sequence(_List)
jax.tree_util.register_pytree_node(_Dict, _flatten_dict, _unflatten_dict)


def is_mutable(x: Any) -> bool:
    """Whether ``x`` was returned by :func:`mutable` (a marked number, tuple, list or dict)."""
    return getattr(x, "__ms_mutable__", False) is True and not isinstance(x, Tensor)


def _valid(value: Any, seen: set[int]) -> bool:
    """MindSpore's element check: numbers and Tensors, nested in tuples/lists/dicts, no cycles."""
    if id(value) in seen:
        return False
    if isinstance(value, (tuple, list, dict)):
        seen.add(id(value))
        items = value.values() if isinstance(value, dict) else value
        ok = all(_valid(item, seen) for item in items)
        seen.discard(id(value))
        return ok
    return isinstance(value, (Tensor, int, float))


def mutable(input_data: Any, dynamic_len: bool = False) -> Any:
    """Make a constant input of a compiled call variable (MindSpore's ``mindspore.mutable``).

    Arguments:
        input_data (Union[Tensor, scalar, tuple, list, dict]): the value; the elements of a
            tuple/list/dict must be of these types too.
        dynamic_len (bool): mark a tuple or list as of dynamic length. Default: ``False``.
            MindJAX compiles one program per length either way.

    Returns:
        ``input_data`` marked mutable: an ``int``/``float``/``bool``/``tuple``/``list``/``dict``
        of a marked subclass, or the Tensor itself.

    Raises:
        TypeError: ``input_data`` is of another type (or refers to itself), ``dynamic_len`` is
            not a bool, or ``dynamic_len`` is True and ``input_data`` is not a tuple or list.

    Example:
        >>> import mindjax as ms
        >>> ms.mutable((1, 2.0))
        (1, 2.0)
    """
    if not _valid(input_data, set()):
        raise TypeError(
            f"For 'mutable', the 'input_data' should be one of (bool, int, float, Tensor, tuple, list, dict) "
            f"or their nested structures with no self-reference, but got {type(input_data).__name__}: "
            f"{input_data}.")
    if not isinstance(dynamic_len, bool):
        # MindSpore's message names the type of 'input_data' here; it is kept as it is.
        raise TypeError(f"For 'mutable', the second input should be bool, but got: {type(input_data).__name__}")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError(f"For 'mutable', when the variable_len is True, the first input should be list or tuple, "
                        f"but got: {type(input_data).__name__}")
    if isinstance(input_data, Tensor):
        ret = input_data
    elif isinstance(input_data, bool):
        ret = _Bool(input_data)
    elif isinstance(input_data, int):
        ret = _Int(input_data)
    elif isinstance(input_data, float):
        ret = _Float(input_data)
    elif isinstance(input_data, list):
        ret = _List(input_data)
    elif isinstance(input_data, tuple):
        ret = _Tuple(input_data)
    else:
        ret = _Dict(input_data)
    try:
        return _mark(ret, dynamic_len, input_data)
    except AttributeError:  # a Tensor class without a __dict__ slot for the marks
        return ret
