"""``mindspore.ops.primitive``: ``Primitive``, ``PrimitiveWithInfer``, ``PrimitiveWithCheck``,
``prim_attr_register``, ``prim_arg_register`` and ``constexpr``.

User code defines operators with these, e.g.::

    class Scale(PrimitiveWithInfer):
        @prim_attr_register
        def __init__(self, k=2.0):
            ...
        def __call__(self, x):
            return x * self.k

In MindSpore the infer methods feed the graph compiler; here shapes and dtypes come
from JAX's tracing, so ``infer_shape``/``infer_dtype`` are kept for code that calls
them, and ``infer_value`` computes a call when the subclass has no ``__call__``.

Example:
    >>> from mindjax.ops.primitive import constexpr
    >>> @constexpr
    ... def double(n):
    ...     return 2 * n
    >>> double(21)
    42
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

from mindjax.common.tensor import in_user_code, unwrap, user_code
from mindjax.ops.primitives import Primitive

__all__ = ["Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck", "prim_attr_register", "prim_arg_register",
           "constexpr"]


class PrimitiveWithInfer(Primitive):
    """A Primitive with MindSpore's shape/dtype/value inference hooks.

    Subclasses compute by defining ``__call__``, or ``infer_value`` (which must then
    return a value for the inputs it is given).

    Arguments:
        name: the operator's name.
    """

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)

    def infer_shape(self, *args: Any) -> Any:
        """The output shape for the input shapes (MindSpore's hook; the identity on the first here)."""
        return args[0] if args else None

    def infer_dtype(self, *args: Any) -> Any:
        """The output dtype for the input dtypes (MindSpore's hook; the first input's here)."""
        return args[0] if args else None

    def infer_value(self, *args: Any) -> Any:
        """The output for constant inputs, or None when it cannot be computed."""
        return None

    def __call__(self, *args: Any) -> Any:
        value = self.infer_value(*args)
        if value is None:
            raise TypeError(f"For '{self.name}', this PrimitiveWithInfer defines no computation: define "
                            f"__call__, or an infer_value that returns the result")
        return value


class PrimitiveWithCheck(Primitive):
    """A Primitive with MindSpore's input checks (``check_shape``, ``check_dtype``); subclasses define ``__call__``.

    Arguments:
        name: the operator's name.
    """

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)

    def check_shape(self, *args: Any) -> None:
        """Check the input shapes; raise on bad ones (MindSpore's hook; accepts all here)."""
        return None

    def check_dtype(self, *args: Any) -> None:
        """Check the input dtypes; raise on bad ones (MindSpore's hook; accepts all here)."""
        return None


def prim_attr_register(fn: Callable[..., None]) -> Callable[..., None]:
    """Decorate a Primitive's ``__init__``: initialise the Primitive, then record every argument.

    Each constructor argument (defaults included) becomes an attribute of the
    instance (``self.k``), an entry of ``attrs`` and of ``init_attrs``, before ``fn`` runs.

    Arguments:
        fn: the ``__init__`` of a Primitive subclass.

    Returns:
        the wrapped ``__init__``.
    """
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def deco(self: Primitive, *args: Any, **kwargs: Any) -> None:
        name = getattr(type(self), "substitute_name", type(self).__name__)
        Primitive.__init__(self, name)
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self", None)
        self.init_attrs = {}
        for arg, value in arguments.items():
            self.add_prim_attr(arg, value)
            self.init_attrs[arg] = value
            setattr(self, arg, value)
        fn(self, *args, **kwargs)

    deco.decorated_func = fn  # type: ignore[attr-defined]
    return deco


def prim_arg_register(fn: Callable[..., None]) -> Callable[..., None]:
    """Decorate a Primitive's ``__init__``: initialise the Primitive and keep the arguments in ``init_attrs``.

    Unlike :func:`prim_attr_register` the arguments are not recorded as ``attrs``.

    Arguments:
        fn: the ``__init__`` of a Primitive subclass.

    Returns:
        the wrapped ``__init__``.
    """
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def deco(self: Primitive, *args: Any, **kwargs: Any) -> None:
        Primitive.__init__(self, type(self).__name__)
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self", None)
        self.init_attrs = arguments
        fn(self, *args, **kwargs)

    deco.decorated_func = fn  # type: ignore[attr-defined]
    return deco


def constexpr(fn: Callable[..., Any] | None = None, get_instance: bool = True, name: str | None = None,
              reuse_result: bool = True, check: bool = True) -> Any:
    """Mark a function as computed on constants while compiling (MindSpore's ``ops.constexpr``).

    Compiled code here is traced Python, so the function simply runs when called (on
    Python values, at trace time); it is wrapped in a Primitive as in MindSpore.

    Arguments:
        fn: the function; without it, ``constexpr(...)`` returns a decorator.
        get_instance: return an instance of the operator (default) rather than its class.
        name: the operator's name (by default the function's).
        reuse_result, check: accepted for compatibility.

    Returns:
        the operator instance (callable like ``fn``), or its class.
    """
    del reuse_result, check

    def decorator(func: Callable[..., Any]) -> Any:
        if not callable(func):
            raise TypeError(f"For 'constexpr', 'fn' must be callable, got {type(func).__name__}")
        op_name = name or getattr(func, "__name__", "constexpr")

        class ProxyOp(PrimitiveWithInfer):
            """The operator that runs a constexpr function."""

            def __init__(self) -> None:
                super().__init__(op_name)
                self.fn = func
                self.add_prim_attr("constexpr_prim", True)

            def __call__(self, *args: Any, **kwargs: Any) -> Any:
                # The function is user code: the ops it calls give it Tensors, whoever calls it.
                with user_code():
                    out = func(*args, **kwargs)
                return out if in_user_code() else unwrap(out)

        ProxyOp.__name__ = ProxyOp.__qualname__ = op_name
        ProxyOp.__doc__ = func.__doc__
        return ProxyOp() if get_instance else ProxyOp

    if fn is not None:
        return decorator(fn)
    return decorator
