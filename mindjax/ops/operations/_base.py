"""Builders for the Primitive modules: a Primitive class over one functional op.

MindSpore's Primitives without constructor arguments (``ops.Sin()``, ``ops.Atan2()``)
differ only in the op they apply and their call's argument names, so they are built
here; the functional op holds the computation (one implementation per op).
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Sequence

from mindjax.ops.primitives import Primitive, _check_bool, _check_int, _record  # noqa: F401 - shared with modules


def op_primitive(name: str, fn: Callable[..., Any], args: Sequence[str], doc: str, module: str) -> type:
    """A Primitive class ``name`` with no constructor arguments whose call ``(*args)`` applies ``fn``.

    Arguments:
        name: MindSpore's class name.
        fn: the functional op.
        args: the call's argument names (MindSpore's).
        doc: one line saying what it computes.
        module: the ``__module__`` to report.

    Returns:
        the class.
    """
    sig = inspect.Signature([inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + [
        inspect.Parameter(a, inspect.Parameter.POSITIONAL_OR_KEYWORD) for a in args])

    def __init__(self: Primitive) -> None:
        Primitive.__init__(self)

    def __call__(self: Primitive, *a: Any, **k: Any) -> Any:
        try:
            bound = sig.bind(self, *a, **k)
        except TypeError as exc:
            raise TypeError(f"For '{self.name}', {exc}") from None
        return fn(*[bound.arguments[n] for n in args])

    __call__.__signature__ = sig  # type: ignore[attr-defined]
    cls = type(name, (Primitive,), {
        "__init__": __init__, "__call__": __call__, "__module__": module,
        "_strategy_inputs": len(args),
        "__doc__": f"{doc}.\n\n    Call: ``{name}()({', '.join(args)})`` -> array.\n"})
    return cls


def check_bool(prim: str, name: str, value: Any) -> bool:
    """``value`` when it is a bool; raise TypeError naming the Primitive and argument otherwise."""
    return _check_bool(prim, name, value)


def check_int(prim: str, name: str, value: Any) -> int:
    """``value`` as an int; raise TypeError naming the Primitive and argument otherwise."""
    return _check_int(prim, name, value)


def record(prim: Primitive, **attrs: Any) -> None:
    """Set constructor arguments as attributes and in ``prim.attrs`` (MindSpore's ``add_prim_attr``)."""
    _record(prim, **attrs)


