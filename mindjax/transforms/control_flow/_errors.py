"""Errors raised by the control-flow conversion and the undefined-variable marker."""
from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["ControlFlowSyntaxError", "ControlFlowTraceError", "Undefined"]


class ControlFlowSyntaxError(SyntaxError):
    """A construct GRAPH mode cannot compile, found while converting the source.

    The message names the file, the line, the construct and what to write
    instead; ``filename`` and ``lineno`` are set as on any ``SyntaxError``.
    """

    def __init__(self, message: str, filename: str, lineno: int, where: str) -> None:
        super().__init__(f"{filename}:{lineno}: {message} (in '{where}', GRAPH mode)")
        self.filename = filename
        self.lineno = lineno

    def __str__(self) -> str:
        return self.msg


class ControlFlowTraceError(ValueError):
    """A statement that cannot run under a tensor condition, found while tracing.

    GRAPH mode traces both branches of an ``if`` and the body of a loop whose
    condition is a tensor, whatever the data. A ``raise`` reached there would
    fire at trace time on every call, and a Python side effect (an attribute
    or container write in a tensor-bounded loop, a ``del``) cannot depend on
    data, so these raise this error with the line of the statement and of the
    tensor condition, and what to write instead.
    """


class ValueDependentStructureError(ValueError):
    """A Python structure that depends on the value of a tensor known only when the program runs.

    ``[[1], [2, 3]][i]`` with ``i`` a program input: MindSpore runs such a
    statement in the interpreter at run time; one XLA program has one output
    structure. A compiled function (``ms.jit``, a GRAPH-mode Cell) that meets it
    traces again with its small integer and bool Tensor inputs as constants, and
    from then on compiles one program per value of those inputs.
    """


class Undefined:
    """The value of a variable that is not (or not consistently) defined.

    Converted code binds every variable that control flow may assign to an
    ``Undefined`` at function entry, as MindSpore's parser does, so branches
    and loops can pass it around. Using it raises: an ``UnboundLocalError``
    when it was never assigned, or a ``ValueError`` explaining why the
    branches or iterations disagree (``reason``).
    """

    __slots__ = ("name", "reason")

    def __init__(self, name: str, reason: str | None = None) -> None:
        self.name = name
        self.reason = reason

    def _fail(self, *_: Any, **__: Any) -> NoReturn:
        if self.reason is None:
            raise UnboundLocalError(f"local variable '{self.name}' is used before it is assigned")
        raise ValueError(self.reason)

    def __getattr__(self, item: str) -> Any:
        if item.startswith("_"):
            raise AttributeError(item)
        self._fail()

    def __repr__(self) -> str:
        return f"<undefined '{self.name}'>"

    __bool__ = __len__ = __iter__ = __call__ = __getitem__ = __index__ = __int__ = _fail
    __float__ = __jax_array__ = __array__ = __neg__ = __pos__ = __abs__ = __invert__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = _fail
    __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __pow__ = _fail
    __rpow__ = __matmul__ = __rmatmul__ = __lt__ = __le__ = __gt__ = __ge__ = _fail
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _fail
