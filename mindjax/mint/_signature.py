"""How ``mindjax.mint`` exposes ``mindjax.ops`` functions under mint's (PyTorch-style) argument names.

A mint function is an ops function called through a signature of mint's: its own
argument names, order, defaults, keyword-only and ``*size`` arguments. The few mint
functions whose semantics differ from the ops ones (``alpha=`` of ``add``, ``dim=()``
of ``amax`` ...) adapt the bound arguments here, in one small ``adapt`` function each,
and call the ops implementation.
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

REQUIRED = object()
"""The default of a mint argument that has none."""

KW_ONLY = "*"
"""In a ``params`` table: the arguments after it are keyword-only."""


def input_named(fn: Callable[[Any], Any], name: str, module: str = "mint") -> Callable[..., Any]:
    """``fn`` (one positional input) callable as ``fn(input)`` or ``fn(input=...)``, as ``mint`` names it."""

    @functools.wraps(fn)
    def call(input: Any) -> Any:  # noqa: A002 - mint's argument name
        return fn(input)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"``{module}.{name}(input)``: :func:`mindjax.ops.{fn.__name__}` of ``input``."
    call.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("input", inspect.Parameter.POSITIONAL_OR_KEYWORD)])
    return call


def _signature(params: tuple[Any, ...]) -> inspect.Signature:
    out = []
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    for entry in params:
        if entry == KW_ONLY:
            kind = inspect.Parameter.KEYWORD_ONLY
            continue
        name, default = entry
        if name.startswith("*"):
            out.append(inspect.Parameter(name[1:], inspect.Parameter.VAR_POSITIONAL))
            kind = inspect.Parameter.KEYWORD_ONLY
            continue
        out.append(inspect.Parameter(name, kind, default=inspect.Parameter.empty if default is REQUIRED else default))
    return inspect.Signature(out)


def mint_signature(name: str, fn: Callable[..., Any], params: tuple[Any, ...],
                   rename: dict[str, str | None] | None = None, *,
                   adapt: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                   module: str = "mint") -> Callable[..., Any]:
    """``fn`` under ``mint``'s argument names.

    Arguments:
        name: the mint name (used in errors and ``__name__``).
        fn: the ``mindjax.ops`` function (or other implementation) called.
        params: mint's ``(name, default)`` pairs in order (``REQUIRED`` for none); the entry
            ``KW_ONLY`` makes the following ones keyword-only, and a name ``'*size'`` collects
            the positional arguments (passed to ``fn`` positionally, after the arguments before it).
        rename: maps mint's names to ``fn``'s; ``None`` drops an argument (e.g. ``device``).
        adapt: given the bound arguments under mint's names (defaults applied), returns
            them changed where mint's semantics differ from ``fn``'s; applied before renaming.
        module: the module named in errors (``mint``, ``mint.nn.functional`` ...).
    """
    signature = _signature(params)
    rename = rename or {}
    names = list(signature.parameters)
    varargs = next((p.name for p in signature.parameters.values() if p.kind == p.VAR_POSITIONAL), None)
    leading = names[:names.index(varargs)] if varargs else []  # passed positionally, before ``*varargs``

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"For '{module}.{name}', {exc}; the signature is {name}{signature}") from None
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        if adapt is not None:
            arguments = adapt(arguments)
        positional = (*[arguments.pop(n) for n in leading], *arguments.pop(varargs, ())) if varargs else ()
        kw = {rename.get(k, k): v for k, v in arguments.items() if rename.get(k, k) is not None}
        return fn(*positional, **kw)

    call.__name__ = call.__qualname__ = name
    call.__signature__ = signature  # type: ignore[attr-defined]
    call.__doc__ = (f"``{module}.{name}{signature}``: :func:`{getattr(fn, '__module__', 'mindjax.ops')}."
                    f"{getattr(fn, '__name__', name)}` under mint's argument names.")
    return call


def in_place(name: str, fn: Callable[..., Any], module: str = "mint.nn.functional") -> Callable[..., Any]:
    """``fn`` whose result is written into its first argument (a Tensor), which is returned.

    A ``jax.Array`` cannot be changed in place: for one, the result is returned.
    """
    from mindjax.common.tensor import Tensor

    def call(input: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: A002 - mint's argument name
        out = fn(input, *args, **kwargs)
        if isinstance(input, Tensor):
            return input.assign_value(out)
        return out
    call.__name__ = call.__qualname__ = name
    try:
        call.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        pass
    call.__doc__ = f"``{module}.{name}``: in-place :func:`{getattr(fn, '__name__', name)}` (writes into ``input``)."
    return call


def table(namespace: dict[str, Any], specs: dict[str, tuple[Any, ...]], module: str = "mint") -> list[str]:
    """Put one :func:`mint_signature` function per ``specs`` entry ``name: (fn, params[, rename[, adapt]])``
    into ``namespace``; return the names."""
    for key, spec in specs.items():
        fn, params, *rest = spec
        rename = rest[0] if rest else None
        adapt = rest[1] if len(rest) > 1 else None
        namespace[key] = mint_signature(key, fn, params, rename, adapt=adapt, module=module)
    return list(specs)
