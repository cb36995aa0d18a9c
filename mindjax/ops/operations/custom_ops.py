"""MindSpore's ``mindspore.ops.operations.custom_ops``: ``ops.Custom``, a user-defined operator.

Two kinds of ``func`` run here:

- ``func_type="pyfunc"`` (MindSpore's default): a Python function on numpy
  arrays, run on the host through :func:`jax.pure_callback`, in PYNATIVE and
  GRAPH mode alike. ``out_shape``/``out_dtype`` say what it returns.
- ``func_type="pallas"`` (a MindJAX extension): a JAX Pallas kernel body
  (``kernel(*in_refs, *out_refs)``), launched with ``pl.pallas_call``: through
  Pallas's interpreter on CPU, compiled (Triton or Mosaic) on GPU and TPU.
  ``reg_info`` may carry ``pl.pallas_call`` keyword arguments (``grid``,
  ``in_specs``, ``out_specs``, ``compiler_params``, ``interpret`` ...).

``bprop(*inputs, out, dout)`` gives the gradients of the array inputs, as a
Cell's ``bprop`` does; it sees Tensors and may use any op, including another
``Custom``. Reverse-mode gradients flow through ``jax.custom_vjp``. A pyfunc
or Pallas kernel without ``bprop`` has no reverse-mode gradient in JAX (a host
callback is opaque, and Pallas differentiates kernels only in forward mode),
so differentiating one is an error that names the op and asks for ``bprop``.

MindSpore's compiler-specific kinds (``"hybrid"``, ``"akg"``, ``"tbe"``,
``"aicpu"``, ``"aot"``) raise NotImplementedError naming what is supported.

Example:
    >>> import numpy as np
    >>> import mindjax as ms
    >>> from mindjax import ops
    >>> add = ops.Custom(lambda a, b: a + b, out_shape=lambda a, _: a, out_dtype=lambda a, _: a,
    ...                  func_type="pyfunc")
    >>> add(ms.Tensor(np.ones(3, np.float32)), ms.Tensor(np.ones(3, np.float32))).asnumpy().tolist()
    [2.0, 2.0, 2.0]
"""
from __future__ import annotations

import json
import logging
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.dtype import to_jax_dtype, to_ms_dtype
from mindjax.common.tensor import as_array, unwrap, user_code, wrap
from mindjax.ops.operations._base import Primitive

__all__ = ["Custom"]

_LOG = logging.getLogger("mindjax")

#: The kinds MindJAX runs.
SUPPORTED_FUNC_TYPES = ("pyfunc", "pallas")
#: MindSpore's kinds that need its own kernel compilers (AKG, TBE, AICPU, a compiled .so).
_MINDSPORE_ONLY_FUNC_TYPES = ("hybrid", "akg", "tbe", "aicpu", "aot")


class Custom(Primitive):
    """A user-defined operator (MindSpore's ``ops.Custom``).

    Arguments:
        func: for ``"pyfunc"``, a Python function taking and returning numpy
            arrays; for ``"pallas"``, a Pallas kernel body ``kernel(*in_refs, *out_refs)``.
        out_shape: the output shape, a tuple of shapes for several outputs, or a
            function of the inputs' shapes (lists) returning them.
        out_dtype: the output dtype (a ``mindjax`` or numpy dtype), a tuple of
            them, or a function of the inputs' dtypes returning them.
        func_type: ``"pyfunc"`` (default) or ``"pallas"``.
        bprop: ``bprop(*inputs, out, dout)`` returning a tuple with one gradient
            per array input (None for no gradient).
        reg_info: MindSpore's registration info (a json str or dict, or a list of
            them), recorded; for ``"pallas"`` a dict of ``pl.pallas_call``
            keyword arguments.

    Inputs:
        *inputs: Tensors or arrays; other values (Python numbers, strings) are
            passed to ``func`` unchanged as attributes.

    Returns:
        a Tensor, or a tuple of Tensors for several outputs.

    Raises:
        ValueError: an unknown ``func_type``.
        NotImplementedError: one of MindSpore's compiler-specific kinds.
        TypeError: ``func`` is not callable, or ``out_shape``/``out_dtype`` are missing or of a wrong type.

    Example:
        >>> import numpy as np
        >>> from mindjax import ops, Tensor
        >>> square = ops.Custom(np.square, out_shape=lambda s: s, out_dtype=lambda d: d,
        ...                     bprop=lambda x, out, dout: (2 * x * dout,))
        >>> square(Tensor(np.array([3.0], np.float32))).asnumpy().tolist()
        [9.0]
    """

    _strategy_inputs = None

    def __init__(self, func: Callable[..., Any] | str, out_shape: Any = None, out_dtype: Any = None,
                 func_type: str = "pyfunc", bprop: Callable[..., Any] | None = None,
                 reg_info: str | dict[str, Any] | Sequence[Any] | None = None) -> None:
        super().__init__("Custom")
        self.log_prefix = f"For '{self.name}', 'func_type': {func_type}, 'func': {func}"
        if func_type in _MINDSPORE_ONLY_FUNC_TYPES:
            raise NotImplementedError(
                f"{self.log_prefix}: func_type {func_type!r} needs MindSpore's own kernel compilers and is not "
                f"available in MindJAX; supported func_type values are {list(SUPPORTED_FUNC_TYPES)} ('pyfunc': a "
                f"Python/numpy function, 'pallas': a JAX Pallas kernel)")
        if func_type not in SUPPORTED_FUNC_TYPES:
            raise ValueError(f"{self.log_prefix}, 'func_type' must be one of "
                             f"{list(_MINDSPORE_ONLY_FUNC_TYPES + SUPPORTED_FUNC_TYPES)}, but got {func_type}")
        if not callable(func):
            raise TypeError(f"{self.log_prefix}, 'func' must be a function, but got {type(func)}")
        if bprop is not None and not callable(bprop):
            raise TypeError(f"{self.log_prefix}, 'bprop' must be a function, but got {type(bprop)}")
        self.func = func
        self.func_type = func_type
        self.func_name = getattr(func, "__name__", type(func).__name__)
        self.out_shape = out_shape
        self.out_dtype = out_dtype
        self.bprop = bprop
        self.reg_info = reg_info
        self._pallas_options = _pallas_options(self.log_prefix, reg_info) if func_type == "pallas" else {}
        self.fake_output = func_type == "pyfunc" and not out_dtype
        self.add_prim_attr("func_name", self.func_name)
        self.add_prim_attr("func_type", func_type)
        if func_type == "pyfunc":
            self.add_prim_attr("fake_output", self.fake_output)

    def get_bprop(self) -> Callable[..., Any] | None:
        """The back-propagation function given at construction (MindSpore's ``get_bprop``)."""
        return self.bprop

    # -- output signature ---------------------------------------------------------------
    def _output_structs(self, arrays: list[jax.Array]) -> tuple[list[jax.ShapeDtypeStruct], bool]:
        """The outputs' ``ShapeDtypeStruct``s and whether there are several (MindSpore's ``__infer__``)."""
        shape = self.out_shape(*[list(a.shape) for a in arrays]) if callable(self.out_shape) else self.out_shape
        dtype = (self.out_dtype(*[to_ms_dtype(a.dtype) for a in arrays]) if callable(self.out_dtype)
                 else self.out_dtype)
        if self.func_type == "pyfunc":
            if shape == ():
                _LOG.warning("%s, 'out_shape' is an empty tuple. Add a placeholder instead.", self.log_prefix)
                shape = (1,)
            if dtype == () or (dtype is None and self.fake_output):
                dtype = np.int32
        if not isinstance(shape, (tuple, list)):
            raise TypeError(f"{self.log_prefix}, 'out_shape' must be one of [tuple, list, function], "
                            f"but got {type(shape)}")
        several = isinstance(dtype, (tuple, list))
        if dtype is None:
            raise TypeError(f"{self.log_prefix}, 'out_dtype' must be one of [mindspore.dtype, tuple, list, "
                            f"function], but got {type(dtype)}")
        if several:
            if len(shape) != len(dtype) or not all(isinstance(s, (tuple, list)) for s in shape):
                raise TypeError(f"{self.log_prefix}, several outputs need 'out_shape' as a tuple of shapes, one "
                                f"per dtype of 'out_dtype' ({len(dtype)}), but got {shape}")
            return [jax.ShapeDtypeStruct(tuple(int(d) for d in s), to_jax_dtype(t))
                    for s, t in zip(shape, dtype)], True
        return [jax.ShapeDtypeStruct(tuple(int(d) for d in shape), to_jax_dtype(dtype))], False

    # -- calling --------------------------------------------------------------------------
    def __call__(self, *inputs: Any) -> Any:
        if not inputs:
            raise TypeError(f"{self.log_prefix}, the Custom op needs at least one input")
        is_array = [_is_array_input(x) for x in inputs]
        arrays = [as_array(x) for x, flag in zip(inputs, is_array) if flag]
        structs, several = self._output_structs(arrays)

        def assemble(array_values: Sequence[Any]) -> list[Any]:
            values = iter(array_values)
            return [next(values) if flag else x for x, flag in zip(inputs, is_array)]

        forward = self._pyfunc_forward if self.func_type == "pyfunc" else self._pallas_forward

        def run(*array_values: jax.Array) -> tuple[jax.Array, ...]:
            return tuple(forward(assemble(array_values), is_array, structs))

        op = jax.custom_vjp(run)

        def fwd(*array_values: jax.Array) -> tuple[tuple[jax.Array, ...], tuple[Any, ...]]:
            outs = run(*array_values)
            return outs, (array_values, outs)

        def bwd(residual: tuple[Any, ...], cotangents: tuple[jax.Array, ...]) -> tuple[Any, ...]:
            array_values, outs = residual
            return self._backward(assemble(array_values), is_array, outs, cotangents, several)

        op.defvjp(fwd, bwd)
        outs = op(*arrays)
        return tuple(outs) if several else outs[0]

    def _pyfunc_forward(self, values: list[Any], is_array: list[bool],
                        structs: list[jax.ShapeDtypeStruct]) -> list[jax.Array]:
        arrays = [v for v, flag in zip(values, is_array) if flag]

        def host(*host_arrays: np.ndarray) -> tuple[np.ndarray, ...]:
            it = iter(host_arrays)
            result = self.func(*[np.asarray(next(it)) if flag else v for v, flag in zip(values, is_array)])
            return self._host_outputs(result, structs)

        if self.fake_output:
            # Run for its effect (MindSpore's empty output); io_callback is never pruned.
            from jax.experimental import io_callback

            return list(io_callback(host, tuple(structs), *arrays, ordered=True))
        return list(jax.pure_callback(host, tuple(structs), *arrays, vmap_method="sequential"))

    def _host_outputs(self, result: Any, structs: list[jax.ShapeDtypeStruct]) -> tuple[np.ndarray, ...]:
        if self.fake_output:
            return tuple(np.zeros(s.shape, s.dtype) for s in structs)
        results = list(result) if len(structs) > 1 else [result]
        if len(results) != len(structs):
            raise ValueError(f"{self.log_prefix}: 'func' returned {len(results)} outputs, "
                             f"'out_shape'/'out_dtype' declare {len(structs)}")
        outs = []
        for i, (value, struct) in enumerate(zip(results, structs)):
            value = np.asarray(unwrap(value))
            if tuple(value.shape) != struct.shape and value.size == int(np.prod(struct.shape, dtype=np.int64)) \
                    and struct.shape in ((1,), ()):
                value = value.reshape(struct.shape)
            if tuple(value.shape) != struct.shape:
                raise ValueError(f"{self.log_prefix}: output {i} of 'func' has shape {tuple(value.shape)}, "
                                 f"but 'out_shape' declares {struct.shape}")
            outs.append(value.astype(struct.dtype, copy=False))
        return tuple(outs)

    def _pallas_forward(self, values: list[Any], is_array: list[bool],
                        structs: list[jax.ShapeDtypeStruct]) -> list[jax.Array]:
        from jax.experimental import pallas as pl

        options = dict(self._pallas_options)
        options.setdefault("interpret", jax.default_backend() == "cpu")
        out_shape = tuple(structs) if len(structs) > 1 else structs[0]
        try:
            call = pl.pallas_call(self.func, out_shape=out_shape, **options)
        except TypeError as exc:
            raise TypeError(f"{self.log_prefix}: bad pl.pallas_call options {sorted(options)}: {exc}") from None
        outs = call(*values)
        return list(outs) if len(structs) > 1 else [outs]

    def _backward(self, values: list[Any], is_array: list[bool], outs: tuple[jax.Array, ...],
                  cotangents: tuple[jax.Array, ...], several: bool) -> tuple[Any, ...]:
        if self.bprop is None:
            raise ValueError(
                f"{self.log_prefix}: a {self.func_type!r} Custom op without 'bprop' has no reverse-mode gradient "
                f"(JAX can differentiate neither a host callback nor, in reverse mode, a Pallas kernel); pass "
                f"bprop=lambda *inputs, out, dout: (grad_input_0, ...) to ops.Custom")
        out = tuple(outs) if several else outs[0]
        dout = tuple(cotangents) if several else cotangents[0]
        with user_code():
            grads = self.bprop(*wrap(values), wrap(out), wrap(dout))
        grads = unwrap(grads)
        if not isinstance(grads, (tuple, list)):
            grads = (grads,)
        arrays = [v for v, flag in zip(values, is_array) if flag]
        array_grads = [g for g, flag in zip(grads, is_array) if flag] \
            if len(grads) == len(values) else list(grads)
        if len(array_grads) != len(arrays):
            raise ValueError(f"{self.log_prefix}: 'bprop' must return one gradient per input ({len(arrays)} "
                             f"array inputs), but returned {len(grads)}")
        result = []
        for i, (g, a) in enumerate(zip(array_grads, arrays)):
            if g is None or not jnp.issubdtype(a.dtype, jnp.inexact):
                result.append(None)
                continue
            g = jnp.asarray(g)
            if g.shape != a.shape:
                try:
                    g = jnp.broadcast_to(g, a.shape)
                except ValueError:
                    raise ValueError(f"{self.log_prefix}: 'bprop' gradient {i} has shape {g.shape}, but input "
                                     f"{i} has shape {a.shape}") from None
            result.append(g.astype(a.dtype))
        return tuple(result)


def _is_array_input(x: Any) -> bool:
    return hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, (str, bytes))


def _pallas_options(log_prefix: str, reg_info: Any) -> dict[str, Any]:
    """``pl.pallas_call`` keyword arguments from ``reg_info`` (a dict, or a json str of one)."""
    if reg_info is None:
        return {}
    if isinstance(reg_info, str):
        try:
            reg_info = json.loads(reg_info)
        except ValueError:
            raise TypeError(f"{log_prefix}, 'reg_info' must be a dict of pl.pallas_call options or its json "
                            f"str, but got {reg_info!r}") from None
    if not isinstance(reg_info, dict):
        raise TypeError(f"{log_prefix}, 'reg_info' for func_type 'pallas' must be a dict of pl.pallas_call "
                        f"options (grid, in_specs, out_specs, ...), but got {type(reg_info)}")
    return dict(reg_info)
