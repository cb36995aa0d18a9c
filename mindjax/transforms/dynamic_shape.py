"""Compiled programs over inputs with dynamic dimensions: ``Cell.set_inputs`` and ``ms.jit(input_signature=...)``.

A signature is one shape-only Tensor per input, ``-1`` (``None``) marking a
dimension of any size: ``net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))``.
Calls are checked against it (rank, fixed dimensions, dtype), as MindSpore does.

The program is traced ONCE, with a symbolic size for every dynamic dimension
(``jax.export`` shape polymorphism): the Python of ``construct`` and the
lowering to StableHLO run once for every size. XLA itself compiles for static
shapes, so each distinct size gets its own executable, specialised from that
one shape-polymorphic module; no padding is done, so reductions over a dynamic
axis (a mean loss, BatchNorm's batch statistics) keep their exact values.
Dynamic dimensions at the same axis of several inputs share one symbol (a
batch of data and its labels).

Where the program cannot be traced symbolically (Python code that needs the
size as an int, such as ``int(x.shape[0])``), a warning says so once and the
program is traced and compiled once per distinct size, as without a signature.
"""
from __future__ import annotations

import warnings
from typing import Any, Sequence

import jax
import numpy as np

from mindjax.common.checks import raise_failed_checks
from mindjax.common.tensor import ShapeOnly, Tensor
from mindjax.transforms._static_outputs import unbox_static
from mindjax.transforms.jit import (_DYNAMIC_TYPES, CompiledFunction, _input_tensors, _is_variable, _split_args,
                                    run_growing_state)


def as_signature(inputs: Any, where: str) -> tuple[Any, ...]:
    """The input signature ``inputs`` (a Tensor or a sequence of them) as a tuple.

    Each item is a ``ShapeOnly`` (a dynamic Tensor), a concrete Tensor (a fixed
    shape and dtype), or ``None`` (that input is not checked).

    Raises:
        TypeError: when an item is none of these.
    """
    items = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    out = []
    for i, item in enumerate(items):
        if item is None:
            out.append(None)
        elif isinstance(item, Tensor):
            raw = item._raw
            out.append(raw if isinstance(raw, ShapeOnly) else ShapeOnly(tuple(raw.shape), raw.dtype))
        else:
            raise TypeError(f"{where}, input signature item {i} must be a Tensor such as "
                            f"Tensor(shape=[None, 3], dtype=ms.float32), got {type(item).__name__}")
    return tuple(out)


def check_inputs(where: str, signature: Sequence[Any], args: tuple[Any, ...]) -> None:
    """Raise when ``args`` do not match ``signature`` (count, rank, fixed dimensions, dtype)."""
    if len(args) != len(signature):
        raise TypeError(f"{where}, the input signature (set_inputs) has {len(signature)} inputs, "
                        f"the call passed {len(args)}")
    for i, (sig, arg) in enumerate(zip(signature, args)):
        if sig is None:
            continue
        raw = arg._raw if isinstance(arg, Tensor) else arg
        if not hasattr(raw, "dtype"):  # a Python number or list: no device value to read back
            raw = np.asarray(raw)
        shape, dtype = tuple(raw.shape), np.dtype(raw.dtype)
        fits = len(shape) == len(sig.shape) and all(d == -1 or d == s for d, s in zip(sig.shape, shape))
        if not fits or dtype != sig.dtype:
            raise ValueError(f"{where}, input {i} does not match the input signature: expected shape "
                             f"{list(sig.shape)} (-1: any size) and dtype {sig.dtype}, got shape {list(shape)} "
                             f"and dtype {dtype}")


class DynamicProgram:
    """``compiled`` traced once over symbolic sizes for the dynamic dimensions of ``signature``.

    Arguments:
        compiled: the program of the Cell or function (its Variables, writes, checks).
        signature: from :func:`as_signature`.
        where: how errors name the Cell or function.
    """

    def __init__(self, compiled: CompiledFunction, signature: tuple[Any, ...], where: str) -> None:
        self.compiled = compiled
        self.signature = signature
        self.where = where
        self._programs: dict[Any, Any] = {}
        self._static = False  # set when a symbolic trace failed: one compile per size from then on
        self.traces = 0

    def _specs(self, args: tuple[Any, ...], dynamic: list[Any]) -> list[Any]:
        scope = jax.export.SymbolicScope()
        specs: list[Any] = []
        for sig, arg in zip(self.signature, args):
            leaves = [x for x in jax.tree_util.tree_leaves(arg, is_leaf=_is_variable) if isinstance(x, _DYNAMIC_TYPES)]
            if len(leaves) == 1 and sig is not None and -1 in sig.shape:
                dims = ", ".join(f"d{axis}" if d == -1 else str(d) for axis, d in enumerate(sig.shape))
                specs.append(jax.ShapeDtypeStruct(jax.export.symbolic_shape(dims, scope=scope), leaves[0].dtype))
            else:
                specs += [jax.ShapeDtypeStruct(np.shape(x), x.dtype) for x in leaves]
        specs += [jax.ShapeDtypeStruct(np.shape(x), x.dtype) for x in dynamic[len(specs):]]
        return specs

    def _export(self, key: Any, values: list[Any], specs: list[Any]) -> Any:
        compiled = self.compiled
        value_specs = [jax.ShapeDtypeStruct(np.shape(v), v.dtype, weak_type=getattr(v, "weak_type", False))
                       for v in values]
        pure = jax.jit(lambda vals, dyn: compiled._pure(vals, dyn, key))
        self.traces += 1
        exported = jax.export.export(pure)(value_specs, specs)
        return jax.jit(exported.call)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        check_inputs(self.where, self.signature, args)
        compiled = self.compiled
        if self._static:
            return compiled(*args, **kwargs)
        dynamic, key = _split_args(args, kwargs)

        def attempt() -> tuple[list[Any], Any]:
            values = [v._value for v in compiled.variables]
            program = self._programs.get((key, len(values)))
            if program is None:
                program = self._export(key, values, self._specs(args, dynamic))
                self._programs[(key, len(values))] = program
            return values, program

        try:
            values, program = run_growing_state(attempt, compiled.variables, compiled._ids, self.where)
        except Exception as exc:  # noqa: BLE001 - any failure of the symbolic trace: trace per size
            warnings.warn(f"{self.where}: the input signature's dynamic dimensions could not be traced "
                          f"symbolically ({type(exc).__name__}: {str(exc).splitlines()[0][:200]}); the "
                          f"program is traced and compiled once per distinct input size instead",
                          RuntimeWarning, stacklevel=2)
            self._static = True
            return compiled(*args, **kwargs)
        variables = compiled.variables
        (out, checked), new, new_inputs = program(values, dynamic)
        raise_failed_checks(checked)
        layout = compiled._layout
        written, changed, lone, static = compiled._written[(key, len(values), layout and layout.token)]
        if lone:
            out = Tensor._wrap(out)
        elif static:
            out = unbox_static(out)
        for i, val in zip(written, new):
            object.__setattr__(variables[i], "_raw", val)
        if changed:
            inputs = _input_tensors((args, kwargs))
            for i, val in zip(changed, new_inputs):
                inputs[i]._write(val)  # in place: a from_numpy Tensor's array sees it too
        return out


def dynamic_program(compiled: CompiledFunction, signature: tuple[Any, ...], where: str) -> DynamicProgram:
    """The :class:`DynamicProgram` of ``compiled`` for ``signature``, made once and kept on ``compiled``."""
    cache = compiled.__dict__.setdefault("_dynamic_programs", {})
    program = cache.get(signature)
    if program is None:
        program = cache[signature] = DynamicProgram(compiled, signature, where)
    return program


def set_jit_signature(function: Any, signature: Sequence[Any], where: str) -> None:
    """Give an ``@ms.jit`` function the input signature ``signature`` (one item per positional input,
    ``None`` for an unchecked one), as ``ms.jit(input_signature=...)`` would.

    Raises:
        ValueError: ``function`` is not an ``@ms.jit`` function.
    """
    from mindjax.transforms.jit import _JitFunction  # the class ms.jit returns

    if not isinstance(function, _JitFunction):
        raise ValueError(f"{where} can only be used for function or method decorated by ms.jit, but got "
                         f"{function}.")
    function._signature = as_signature(tuple(signature), where)
