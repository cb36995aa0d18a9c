"""MindSpore's ``mindspore.ops.operations.debug_ops``: printing and dumping Primitives.

Example:
    >>> from mindjax.ops import operations as P
    >>> type(P.Print()).__name__
    'Print'
"""
from __future__ import annotations

import functools
import inspect
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import as_array, unwrap, user_code, wrap
from mindjax.ops.operations._base import Primitive, check_int, record
# Existing Primitives of this family, re-exported under MindSpore's module path.
from mindjax.ops.primitives import Print  # noqa: F401


class TensorDump(Primitive):
    """Save a tensor as a ``.npy`` file, also from compiled code. Call: ``TensorDump(input_output)(file, input_x)``."""

    def __init__(self, input_output: str = "out") -> None:
        super().__init__()
        record(self, input_output=input_output)

    def __call__(self, file: str, input_x: Any) -> None:
        from mindjax.ops.function.debug_func import tensordump

        tensordump(file, input_x, self.input_output)


class _Summary(Primitive):
    """Record ``value`` under ``name`` for the next ``SummaryRecord.record(step)``; works in compiled code."""

    _channel = ""

    def __init__(self) -> None:
        super().__init__()
        self.add_prim_attr("side_effect_io", True)
        self.add_prim_attr("channel_name", self._channel)

    def __call__(self, name: str, value: Any) -> None:
        from mindjax.ops.function.debug_func import cache_summary

        cache_summary(self.name, name, value)


class ScalarSummary(_Summary):
    """Put a one-element Tensor into the summary file. Call: ``ScalarSummary()(name, value)``."""

    _channel = "ms_scalar_summary"


class ImageSummary(_Summary):
    """Put an ``(N, C, H, W)`` image Tensor into the summary file. Call: ``ImageSummary()(name, value)``."""

    _channel = "ms_image_summary"


class TensorSummary(_Summary):
    """Put a Tensor (rank >= 1) into the summary file. Call: ``TensorSummary()(name, value)``."""

    _channel = "ms_tensor_summary"


class HistogramSummary(_Summary):
    """Put a Tensor's histogram into the summary file. Call: ``HistogramSummary()(name, value)``."""

    _channel = "ms_histogram_summary"


def _assert_failed(prim: str, summarize: int, cond: Any, *data: Any) -> None:
    if bool(np.asarray(cond).reshape(-1)[0]):
        return
    shown = "\n".join(f"input data: {np.asarray(d).reshape(-1)[:summarize]}" for d in data)
    raise RuntimeError(f"For '{prim}', condition is false.\n{shown}")


class Assert(Primitive):
    """Raise a RuntimeError showing the first ``summarize`` elements of each input when ``condition`` is False.

    Arguments:
        summarize: how many elements of each input the error shows. Default: ``3``.

    Call: ``Assert(summarize)(condition, input_data)`` with a bool ``condition`` (a Python bool, a 0-d or
    ``(1,)`` Tensor) and a list or tuple of Tensors; in compiled code the check runs when the step runs.
    Returns an int32 ``(1,)`` Tensor (MindSpore's placeholder output).
    """

    _strategy_inputs = None

    def __init__(self, summarize: int = 3) -> None:
        super().__init__()
        record(self, summarize=check_int(self.name, "summarize", summarize))
        self.add_prim_attr("side_effect_io", True)

    def __call__(self, condition: Any, input_data: Any) -> jax.Array:
        cond = jnp.asarray(as_array(condition))
        if cond.dtype != jnp.bool_:
            raise TypeError(f"For '{self.name}', the 'condition' must be a bool Tensor, but got {cond.dtype}.")
        if cond.ndim > 1 or (cond.ndim == 1 and cond.shape[0] != 1):
            raise ValueError(f"For '{self.name}', the 'condition' must be 0-d or of shape (1,), but got shape "
                             f"{tuple(cond.shape)}.")
        if not isinstance(input_data, (list, tuple)):
            raise TypeError(f"For '{self.name}', the 'input_data' must be a list or tuple of Tensors, but got "
                            f"{type(input_data).__name__}.")
        data = [as_array(d) for d in input_data]
        check = functools.partial(_assert_failed, self.name, self.summarize)
        if isinstance(cond, jax.core.Tracer) or any(isinstance(d, jax.core.Tracer) for d in data):
            jax.debug.callback(check, cond, *data)
        else:
            check(cond, *data)
        return jnp.ones((1,), jnp.int32)


class Morph(Primitive):
    """Run the user function ``fn`` as one op, with ``bprop_fn(*args, out, dout)`` as its gradient when given.

    Arguments:
        fn: the function of Tensors.
        infer_shape, infer_dtype: MindSpore's shape and dtype inference functions (kept; JAX infers both).
        bprop_fn: optional ``(*args, out, dout) -> tuple of input gradients``.

    Call: ``Morph(fn, infer_shape, infer_dtype, bprop_fn)(*args)``. MindSpore runs it in GRAPH mode only;
    here it runs eagerly too.
    """

    _strategy_inputs = None

    def __init__(self, fn: Any, infer_shape: Any, infer_dtype: Any, bprop_fn: Any = None) -> None:
        super().__init__()
        for arg, value in (("fn", fn), ("infer_shape", infer_shape), ("infer_dtype", infer_dtype)):
            if not callable(value):
                raise TypeError(f"For '{self.name}', '{arg}' must be callable, but got {type(value).__name__}.")
        if bprop_fn is not None:
            for param in inspect.signature(fn).parameters.values():
                if param.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD or \
                        param.default is not inspect.Parameter.empty:
                    raise ValueError(f"When use `bprop` in Morph, Morph `fn` only support positional or keyword "
                                     f"parameters with default value is empty, but got param '{param.name}' of "
                                     f"kind '{param.kind.name}' with default value '{param.default}'.")
        self._infer_shape, self._infer_dtype = infer_shape, infer_dtype
        self.__morph_fn__, self.__morph_bprop_fn__ = fn, bprop_fn
        for attr in ("side_effect_backprop", "side_effect_mem", "side_effect_io", "__metamorphosis__"):
            self.add_prim_attr(attr, True)

    def __call__(self, *args: Any) -> Any:
        fn, bprop = self.__morph_fn__, self.__morph_bprop_fn__

        def run(*arrays: Any) -> Any:
            with user_code():
                return unwrap(fn(*wrap(arrays)))

        if bprop is None:
            return run(*[as_array(a) for a in args])

        @jax.custom_vjp
        def op(*arrays: Any) -> Any:
            return run(*arrays)

        def fwd(*arrays: Any) -> tuple[Any, Any]:
            out = run(*arrays)
            return out, (arrays, out)

        def bwd(res: Any, dout: Any) -> tuple[Any, ...]:
            arrays, out = res
            with user_code():
                grads = bprop(*wrap(arrays), wrap(out), wrap(dout))
            grads = tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)
            if len(grads) != len(arrays):
                raise ValueError(f"For '{self.name}', bprop_fn must return one gradient per input ({len(arrays)}), "
                                 f"but got {len(grads)}.")
            return tuple(jnp.asarray(as_array(g)).astype(a.dtype) for g, a in zip(grads, arrays))

        op.defvjp(fwd, bwd)
        return op(*[as_array(a) for a in args])
