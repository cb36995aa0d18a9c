"""MindSpore's ``mindspore.ops.operations.other_ops``: state, ordering and gradient-cut Primitives.

Example:
    >>> import numpy as np
    >>> from mindjax.ops import operations as P
    >>> P.Depend()(np.ones(2), np.zeros(2)).tolist()
    [1.0, 1.0]
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import Tensor, as_array, unwrap, user_code
from mindjax.ops.loops import differentiable_while_loop
from mindjax.ops.operations._base import Primitive, check_bool, record as record_attrs
# Existing Primitives of this family, re-exported under MindSpore's module path.
from mindjax.ops.primitives import Assign, Depend, StopGradient  # noqa: F401


class UpdateState(Primitive):
    """MindSpore's side-effect ordering token: returns its first input (JAX orders by data dependence).
    Call: ``UpdateState()(monad, *exprs)``."""

    _strategy_inputs = None

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, monad: Any, *exprs: Any) -> Any:
        return monad


class MoveTo(Primitive):
    """Place a tensor on a device kind. Call: ``MoveTo()(x, to, blocking)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, to: str = "CPU", blocking: bool = True) -> jax.Array:
        from mindjax.ops.function.other_func import move_to

        return move_to(x, to, blocking)


# --- box utilities ------------------------------------------------------------------------------------

class IOU(Primitive):
    """Intersection over union (``'iou'``) or over the ground truth's area (``'iof'``) of every box pair.

    Arguments:
        mode: ``'iou'`` (default) or ``'iof'``.

    Call: ``IOU()(anchor_boxes, gt_boxes)`` -> ``(M, N)`` for ``N`` anchors and ``M`` ground-truth boxes.
    """

    _strategy_inputs = 2

    def __init__(self, mode: str = "iou") -> None:
        super().__init__()
        if mode not in ("iou", "iof"):
            raise KeyError(f"For '{self.name}', 'mode' must be 'iou' or 'iof', but got {mode!r}.")
        record_attrs(self, mode=mode)

    def __call__(self, anchor_boxes: Any, gt_boxes: Any) -> jax.Array:
        from mindjax.ops.function.math_func import iou

        return iou(anchor_boxes, gt_boxes, self.mode)


class BoundingBoxEncode(Primitive):
    """The deltas ``(dx, dy, dw, dh)`` from anchor boxes to ground-truth boxes, normalised by ``means``/``stds``.

    Call: ``BoundingBoxEncode(means, stds)(anchor_box, groundtruth_box)`` -> ``(N, 4)``.
    """

    _strategy_inputs = 2

    def __init__(self, means: Any = (0.0, 0.0, 0.0, 0.0), stds: Any = (1.0, 1.0, 1.0, 1.0)) -> None:
        super().__init__()
        record_attrs(self, means=_four_floats(self.name, "means", means), stds=_four_floats(self.name, "stds", stds))

    def __call__(self, anchor_box: Any, groundtruth_box: Any) -> jax.Array:
        from mindjax.ops.function.image_func import bounding_box_encode

        return bounding_box_encode(anchor_box, groundtruth_box, self.means, self.stds)


class BoundingBoxDecode(Primitive):
    """Boxes from anchor boxes and deltas (de-normalised by ``means``/``stds``), clipped to ``max_shape``.

    Arguments:
        max_shape: ``(height, width)``. means, stds: 4 floats. wh_ratio_clip: Default: ``0.016``.

    Call: ``BoundingBoxDecode(max_shape)(anchor_box, deltas)`` -> ``(N, 4)``.
    """

    _strategy_inputs = 2

    def __init__(self, max_shape: Any, means: Any = (0.0, 0.0, 0.0, 0.0), stds: Any = (1.0, 1.0, 1.0, 1.0),
                 wh_ratio_clip: float = 0.016) -> None:
        super().__init__()
        if not isinstance(max_shape, (tuple, list)) or len(max_shape) != 2:
            raise ValueError(f"For '{self.name}', 'max_shape' must be a pair (height, width), but got {max_shape!r}.")
        record_attrs(self, max_shape=tuple(max_shape), means=_four_floats(self.name, "means", means),
                     stds=_four_floats(self.name, "stds", stds), wh_ratio_clip=float(wh_ratio_clip))

    def __call__(self, anchor_box: Any, deltas: Any) -> jax.Array:
        from mindjax.ops.function.image_func import bounding_box_decode

        return bounding_box_decode(anchor_box, deltas, self.max_shape, self.means, self.stds, self.wh_ratio_clip)


class CheckValid(Primitive):
    """Whether each box lies inside the image of ``img_metas = (height, width, ratio)``.
    Call: ``CheckValid()(bboxes, img_metas)`` -> bool ``(N,)``."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, bboxes: Any, img_metas: Any) -> jax.Array:
        from mindjax.ops.function.image_func import check_valid

        return check_valid(bboxes, img_metas)


def _four_floats(prim: str, name: str, value: Any) -> tuple[float, ...]:
    if not isinstance(value, (tuple, list)) or len(value) != 4:
        raise ValueError(f"For '{prim}', '{name}' must be a tuple of 4 floats, but got {value!r}.")
    return tuple(float(v) for v in value)


# --- functional control flow (MindSpore's ``manually_defined`` WhileLoop, ForiLoop, Scan) -------------------

def _check_function(prim: str, name: str, fn: Any) -> None:
    if not callable(fn) or isinstance(fn, type):
        raise TypeError(f"For '{prim}', the '{name}' must be a function, but got {type(fn).__name__}.")


def _is_traced(tree: Any) -> bool:
    return any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree_util.tree_leaves(unwrap(tree)))


class _Carry:
    """A loop value's structure: user values (Tensors, numbers, nested containers) <-> a tuple of arrays."""

    def __init__(self, prim: str, value: Any) -> None:
        leaves, self.treedef = jax.tree_util.tree_flatten(value, is_leaf=lambda x: isinstance(x, Tensor))
        self.prim = prim
        self.init = []
        for leaf in leaves:
            if isinstance(leaf, str) or leaf is None:
                raise ValueError(f"For '{prim}', a traced loop carries only tensors and numbers, but the initial "
                                 f"value holds {type(leaf).__name__} {leaf!r}.")
            self.init.append(jnp.asarray(as_array(leaf)))
        self.avals = [(a.shape, a.dtype) for a in self.init]

    def to_user(self, arrays: Any) -> Any:
        return jax.tree_util.tree_unflatten(self.treedef, [Tensor._wrap(a) for a in arrays])

    def to_arrays(self, value: Any, what: str) -> list[jax.Array]:
        leaves, treedef = jax.tree_util.tree_flatten(value, is_leaf=lambda x: isinstance(x, Tensor))
        if treedef != self.treedef:
            raise ValueError(f"For '{self.prim}', {what} must have the structure of the initial value "
                             f"{self.treedef}, but got {treedef}.")
        out = []
        for leaf, (shape, dtype) in zip(leaves, self.avals):
            arr = jnp.asarray(as_array(leaf))
            if arr.shape != shape:
                raise ValueError(f"For '{self.prim}', {what} must keep the initial value's shapes: expected "
                                 f"{shape}, but got {arr.shape}.")
            out.append(arr.astype(dtype))
        return out


def _run_user(prim: str, fn: Any, *args: Any) -> Any:
    try:
        with user_code():
            return fn(*args)
    except Exception as err:
        raise ValueError(f"For '{prim}', invalid loop_func, please check input arguments and return value, "
                         f"error info: {err}") from err


class WhileLoop(Primitive):
    """``while cond_func(val): val = loop_func(val)``; one ``lax.while_loop`` once the condition is traced.

    Call: ``WhileLoop()(cond_func, loop_func, init_val)`` -> the final value, of ``init_val``'s structure.
    Eagerly (and while the condition is a Python value) the loop runs in Python, as MindSpore's PYNATIVE
    does; when the condition depends on traced values (GRAPH mode, ``ms.jit``) the rest runs as one XLA
    while loop, whose carried values must keep their shapes; it is reverse-differentiable (the checkpointed
    loop of :mod:`mindjax.ops.loops`, as graph-mode ``while``).
    """

    _strategy_inputs = None

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, cond_func: Any, loop_func: Any, init_val: Any) -> Any:
        _check_function(self.name, "cond_func", cond_func)
        _check_function(self.name, "loop_func", loop_func)
        val = init_val
        while True:
            cond = _run_user(self.name, cond_func, val)
            if _is_traced(cond):
                return self._traced(cond_func, loop_func, val)
            if not bool(as_array(cond) if isinstance(cond, Tensor) else cond):
                return unwrap(val)
            val = _run_user(self.name, loop_func, val)

    def _traced(self, cond_func: Any, loop_func: Any, val: Any) -> Any:
        carry = _Carry(self.name, val)

        def cond(arrays: tuple[jax.Array, ...]) -> jax.Array:
            c = as_array(_run_user(self.name, cond_func, carry.to_user(arrays)))
            if c.size != 1:
                raise ValueError(f"For '{self.name}', cond_func must return one boolean, but got shape {c.shape}.")
            return c.reshape(()).astype(bool)

        def body(arrays: tuple[jax.Array, ...]) -> tuple[jax.Array, ...]:
            return tuple(carry.to_arrays(_run_user(self.name, loop_func, carry.to_user(arrays)),
                                         "the return value of loop_func"))

        out = differentiable_while_loop(cond, body, tuple(carry.init))
        return jax.tree_util.tree_unflatten(carry.treedef, list(out))


def _bound(prim: str, name: str, value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer, Tensor, jax.Array)):
        raise TypeError(f"For '{prim}', the '{name}' must be an int or a Tensor, but got {type(value).__name__}.")
    if isinstance(value, (int, np.integer)):
        return int(value)
    arr = as_array(value)
    if arr.size != 1 or not jnp.issubdtype(arr.dtype, jnp.integer):
        raise TypeError(f"For '{prim}', the '{name}' must be an integer scalar, but got a {arr.dtype} "
                        f"Tensor of shape {arr.shape}.")
    return arr.reshape(()) if isinstance(arr, jax.core.Tracer) else int(arr.reshape(()))


class ForiLoop(Primitive):
    """``for i in range(lower, upper): val = loop_func(i, val)``.

    Call: ``ForiLoop()(lower, upper, loop_func, init_val, unroll=True)``. With Python-valued bounds and
    ``unroll=True`` the loop runs (or is traced) step by step; with ``unroll=False`` under tracing, or traced
    bounds, it is one ``lax.fori_loop`` (a scan, reverse-differentiable, when the bounds are known).
    """

    _strategy_inputs = None

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, lower: Any, upper: Any, loop_func: Any, init_val: Any, unroll: bool = True) -> Any:
        lo, hi = _bound(self.name, "lower", lower), _bound(self.name, "upper", upper)
        _check_function(self.name, "loop_func", loop_func)
        check_bool(self.name, "unroll", unroll)
        static = isinstance(lo, int) and isinstance(hi, int)
        if static and (unroll or not _is_traced(init_val)):
            val = init_val
            for i in range(lo, hi):
                val = _run_user(self.name, loop_func, i, val)
            return unwrap(val)
        carry = _Carry(self.name, init_val)

        def body(i: jax.Array, arrays: tuple[jax.Array, ...]) -> tuple[jax.Array, ...]:
            out = _run_user(self.name, loop_func, Tensor._wrap(i), carry.to_user(arrays))
            return tuple(carry.to_arrays(out, "the return value of loop_func"))

        out = jax.lax.fori_loop(lo, hi, body, tuple(carry.init))
        return jax.tree_util.tree_unflatten(carry.treedef, list(out))


class Scan(Primitive):
    """``carry, y = loop_func(carry, x)`` for each ``x`` of ``xs``; returns ``(carry, [y, ...])``.

    Call: ``Scan()(loop_func, init, xs, length=None, unroll=True)``; ``xs`` is a list or tuple (or None,
    then ``length`` steps see ``None``). ``unroll=False`` stacks ``xs`` and runs one ``lax.scan`` (the
    ``ys`` come back as a list again).
    """

    _strategy_inputs = None

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, loop_func: Any, init: Any, xs: Any, length: Any = None, unroll: bool = True) -> Any:
        _check_function(self.name, "loop_func", loop_func)
        if xs is not None and not isinstance(xs, (list, tuple)):
            raise TypeError(f"For '{self.name}', the 'xs' must be a list, a tuple or None, but got "
                            f"{type(xs).__name__}.")
        if xs is None:
            if isinstance(length, bool) or not isinstance(length, int):
                raise TypeError(f"For '{self.name}', the 'length' must be an int when 'xs' is None, but got "
                                f"{type(length).__name__}.")
            xs = [None] * length
        check_bool(self.name, "unroll", unroll)
        if not xs:
            return unwrap(init), []
        if not unroll and all(x is not None for x in xs):
            return self._scanned(loop_func, init, list(xs))
        carry, ys = init, []
        for x in xs:
            carry, y = self._step(loop_func, carry, x)
            ys.append(y)
        return unwrap(carry), unwrap(ys)

    def _step(self, loop_func: Any, carry: Any, x: Any) -> tuple[Any, Any]:
        out = _run_user(self.name, loop_func, carry, x)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise ValueError(f"For '{self.name}', the return value of loop_func must be a tuple of two "
                             f"elements (carry, y), but got {type(out).__name__}.")
        return out[0], out[1]

    def _scanned(self, loop_func: Any, init: Any, xs: list[Any]) -> tuple[Any, list[Any]]:
        carry = _Carry(self.name, init)
        item = _Carry(self.name, xs[0])
        stacked = [jnp.stack(list(col)) for col in zip(*[item.to_arrays(x, "every element of 'xs'") for x in xs])]
        y_tree: list[Any] = []

        def body(arrays: tuple[jax.Array, ...], x_arrays: list[jax.Array]) -> tuple[Any, list[jax.Array]]:
            new, y = self._step(loop_func, carry.to_user(arrays), item.to_user(x_arrays))
            leaves, treedef = jax.tree_util.tree_flatten(y, is_leaf=lambda v: isinstance(v, Tensor))
            y_tree[:] = [treedef]
            return tuple(carry.to_arrays(new, "the carry loop_func returns")), [jnp.asarray(as_array(v))
                                                                                  for v in leaves]

        out, ys = jax.lax.scan(body, tuple(carry.init), stacked)
        final = jax.tree_util.tree_unflatten(carry.treedef, list(out))
        return final, [jax.tree_util.tree_unflatten(y_tree[0], [y[i] for y in ys]) for i in range(len(xs))]


# --- Python functions and confusion matrices --------------------------------------------------------------

class PyFunc(Primitive):
    """Run the Python function ``fn`` on numpy arrays, also from compiled code (a host callback).

    Arguments:
        fn: ``(*numpy arrays) -> numpy array or tuple of them``.
        in_types, in_shapes: the inputs' dtypes and shapes (lists of equal length).
        out_types, out_shapes: the outputs' dtypes and shapes (lists of equal length; empty: no output).
        stateful: ``fn`` has side effects: calls keep their order and are never dropped. Default: ``True``.

    Call: ``PyFunc(...)(*inputs)`` -> a tuple of Tensors, one per output.
    """

    _strategy_inputs = None

    def __init__(self, fn: Any, in_types: Any, in_shapes: Any, out_types: Any, out_shapes: Any,
                 stateful: bool = True) -> None:
        super().__init__()
        if not callable(fn):
            raise TypeError(f"For '{self.name}', 'fn' must be callable, but got {type(fn).__name__}.")
        for arg, value in (("in_types", in_types), ("in_shapes", in_shapes), ("out_types", out_types),
                           ("out_shapes", out_shapes)):
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"For '{self.name}', the type of '{arg}' should be one of ['list', 'tuple'], "
                                f"but got {type(value).__name__}.")
        for kind, types, shapes in (("in", in_types, in_shapes), ("out", out_types, out_shapes)):
            if len(types) != len(shapes):
                raise ValueError(f"For '{self.name}', the {kind}_types length should be = {kind}_shapes length: "
                                 f"{len(shapes)}, but got {len(types)}.")
        self.fn = fn
        record_attrs(self, in_types=in_types, in_shapes=in_shapes, out_types=out_types, out_shapes=out_shapes)
        self.add_prim_attr("side_effect_io", check_bool(self.name, "stateful", stateful))
        self.add_prim_attr("primitive_target", "CPU")
        self.add_prim_attr("fake_output", not out_types)

    def __call__(self, *inputs: Any) -> tuple[Any, ...]:
        from mindjax.common.dtype import to_jax_dtype

        if len(inputs) != len(self.in_types):
            raise ValueError(f"For '{self.name}', expected {len(self.in_types)} inputs (in_types), but got "
                             f"{len(inputs)}.")
        arrays = []
        for i, (x, dtype, shape) in enumerate(zip(inputs, self.in_types, self.in_shapes)):
            arr = jnp.asarray(as_array(x))
            if tuple(arr.shape) != tuple(shape) or arr.dtype != to_jax_dtype(dtype):
                raise ValueError(f"For '{self.name}', input {i} must be {to_jax_dtype(dtype)} of shape "
                                 f"{tuple(shape)} (in_types, in_shapes), but got {arr.dtype} of shape "
                                 f"{tuple(arr.shape)}.")
            arrays.append(arr)
        results = [jax.ShapeDtypeStruct(tuple(s), to_jax_dtype(t)) for t, s in zip(self.out_types, self.out_shapes)]

        def host(*values: Any) -> tuple[np.ndarray, ...]:
            out = self.fn(*[np.asarray(v) for v in values])
            out = () if out is None and not results else out
            out = tuple(out) if isinstance(out, (tuple, list)) else (out,)
            if len(out) != len(results):
                raise ValueError(f"For '{self.name}', 'fn' must return {len(results)} outputs (out_types), but "
                                 f"returned {len(out)}.")
            return tuple(np.asarray(o, dtype=r.dtype).reshape(r.shape) for o, r in zip(out, results))

        if self.attrs["side_effect_io"]:
            from jax.experimental import io_callback

            return tuple(io_callback(host, tuple(results), *arrays, ordered=True))
        return tuple(jax.pure_callback(host, tuple(results), *arrays))


class ConfusionMatrix(Primitive):
    """The ``(num_classes, num_classes)`` confusion matrix of ``labels`` (rows) against ``predictions``.

    Arguments:
        num_classes: the number of classes.
        dtype: the output's dtype name when weights are given (MindSpore's attribute). Default: ``'int32'``.

    Call: ``ConfusionMatrix(num_classes)(labels, predictions, weights=None)`` with 1-D inputs of one shape;
    each pair adds its weight (1 without weights); pairs outside ``[0, num_classes)`` add nothing.
    """

    _strategy_inputs = None

    def __init__(self, num_classes: int, dtype: str = "int32") -> None:
        super().__init__()
        if isinstance(num_classes, bool) or not isinstance(num_classes, int):
            raise TypeError(f"For '{self.name}', 'num_classes' must be an int, but got {type(num_classes).__name__}.")
        if not isinstance(dtype, str):
            raise TypeError(f"For '{self.name}', 'dtype' must be a str, but got {type(dtype).__name__}.")
        record_attrs(self, num_classes=num_classes, dtype=dtype)

    def __call__(self, labels: Any, predictions: Any, weights: Any = None) -> jax.Array:
        lab, pred = as_array(labels), as_array(predictions)
        if lab.ndim != 1:
            raise ValueError(f"For '{self.name}', 'labels' must be 1-D, but got shape {tuple(lab.shape)}.")
        for arg, value in (("predictions", pred), ("weights", None if weights is None else as_array(weights))):
            if value is not None and value.shape != lab.shape:
                raise ValueError(f"For '{self.name}', '{arg}' must have the shape of 'labels' {tuple(lab.shape)}, "
                                 f"but got {tuple(value.shape)}.")
        w = jnp.ones(lab.shape, lab.dtype) if weights is None else as_array(weights).astype(lab.dtype)
        n = self.num_classes
        inside = (lab >= 0) & (lab < n) & (pred >= 0) & (pred < n)
        flat = jnp.where(inside, lab.astype(jnp.int32) * n + pred.astype(jnp.int32), n * n)
        return jnp.zeros((n * n + 1,), lab.dtype).at[flat].add(w)[:n * n].reshape(n, n)
