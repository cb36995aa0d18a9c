"""A jaxpr as a MindIR ``GraphProto``: MindSpore primitive nodes, parameters as initializers.

Every equation of the (inlined) jaxpr whose JAX primitive has a direct MindSpore
counterpart becomes a node with MindSpore's primitive name and input layout
(``MatMul(x, w, transpose_a, transpose_b)``, ``BiasAdd(x, b, format)``,
``Reshape(x, shape)``, ``Conv2D`` with its attributes, ...), written the way
MindSpore 2.10's exporter writes them: ``op_type`` ``REF::<Prim>:<id>`` naming an
entry of ``ModelProto.primitives``, ``Constant`` nodes for the non-tensor
inputs, and each node's abstract shape in its ``shape`` attribute. Equations
with no counterpart become nodes named after the JAX primitive
(``jax.<name>``), and are listed in the result so that the file can say the
graph is not complete for MindSpore. The nodes describe the computation; what
MindJAX runs on ``load`` is the StableHLO program stored beside them.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from mindjax.common.dtype import type_id as _type_id
from mindjax.train.serialization._mindir_proto import ATTR, NP_TO_DTYPE, messages

__all__ = ["build_graph"]

# jit / custom_jvp functions that are one MindSpore primitive.
_NAMED = {"relu": "ReLU", "sigmoid": "Sigmoid", "silu": "SiLU", "relu6": "ReLU6", "softplus": "Softplus"}
_UNARY = {"exp": "Exp", "log": "Log", "tanh": "Tanh", "logistic": "Sigmoid", "neg": "Neg", "sqrt": "Sqrt",
          "rsqrt": "Rsqrt", "abs": "Abs", "sin": "Sin", "cos": "Cos", "floor": "Floor", "ceil": "Ceil",
          "sign": "Sign", "erf": "Erf", "erfc": "Erfc", "log1p": "Log1p", "expm1": "Expm1", "square": "Square", "round": "Round", "is_finite": "IsFinite"}
_BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "max": "Maximum", "min": "Minimum", "pow": "Pow",
           "atan2": "Atan2", "eq": "Equal", "ne": "NotEqual", "lt": "Less", "le": "LessEqual", "gt": "Greater",
           "ge": "GreaterEqual"}
_REDUCE = {"reduce_sum": "ReduceSum", "reduce_max": "ReduceMax", "reduce_min": "ReduceMin",
           "reduce_prod": "ReduceProd"}
_INLINE = {"pjit", "jit", "closed_call", "core_call", "custom_jvp_call", "custom_vjp_call",
           "custom_vjp_call_jaxpr", "remat", "checkpoint", "custom_lin"}


def _dim(d: Any) -> int:
    try:
        return int(d)
    except Exception:  # a symbolic dimension (dynamic batch)
        return -1


def _dtype_code(dtype: Any) -> int:
    name = np.dtype(dtype).name if str(dtype) != "bfloat16" else "bfloat16"
    return NP_TO_DTYPE.get(name, 0)


class _Builder:
    """Collects the nodes and primitives of one graph."""

    def __init__(self, graph_name: str) -> None:
        self.m = messages()
        self.graph = graph_name
        self.nodes: list[Any] = []
        self.prims: dict[str, Any] = {}
        self.count = 0
        self.unmapped: set[str] = set()
        self.meta: dict[str, tuple] = {}  # name -> how it was made (for BiasAdd / transposed MatMul / AvgPool)
        self.const_values: dict[str, Any] = {}

    def _next(self) -> int:
        self.count += 1
        return self.count

    def _abstract(self, attr: Any, avals: Sequence[Any]) -> None:
        if len(avals) == 1:
            attr.type = ATTR["TENSORS"]
            t = attr.tensors.add()
            t.dims.extend(_dim(d) for d in avals[0].shape)
            t.data_type = _dtype_code(avals[0].dtype)
            return
        attr.type = ATTR["TUPLE"]
        for aval in avals:
            self._abstract(attr.values.add(), [aval])

    def value(self, attr: Any, value: Any, item: bool = False) -> None:
        """Fill ``attr`` with a Python or NumPy value, as MindSpore writes a ``Constant``.

        The scalars of a tuple or list (``item``) go in the repeated fields (``ints``,
        ``floats``, ``strings``), as MindSpore's reader expects.
        """
        if isinstance(value, (bool, np.bool_)):
            attr.type = ATTR["BOOL"]
            attr.ints.append(int(value)) if item else setattr(attr, "i", int(value))
        elif isinstance(value, (int, np.integer)) and not isinstance(value, np.ndarray):
            attr.type = ATTR["INT64"]
            attr.ints.append(int(value)) if item else setattr(attr, "i", int(value))
        elif isinstance(value, float):
            attr.type = ATTR["FLOAT"]
            attr.floats.append(value) if item else setattr(attr, "f", value)
        elif isinstance(value, str):
            attr.type = ATTR["STRING"]
            attr.strings.append(value.encode()) if item else setattr(attr, "s", value.encode())
        elif isinstance(value, (tuple, list)):
            attr.type = ATTR["TUPLE"] if isinstance(value, tuple) else ATTR["LIST"]
            for v in value:
                self.value(attr.values.add(), v, item=True)
        else:
            array = np.asarray(value)
            attr.type = ATTR["TENSORS"]
            t = attr.tensors.add()
            t.dims.extend(array.shape)
            t.data_type = _dtype_code(array.dtype)
            t.raw_data = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()

    def const(self, value: Any) -> str:
        """A ``Constant`` node holding ``value``; returns its name."""
        name = f"ValueNode_{self._next()}"
        node = self.m["NodeProto"](name=name, op_type="Constant")
        node.output.append(name)
        attr = node.attribute.add(name="value")
        self.value(attr, value)
        self.nodes.append(node)
        self.const_values[name] = value
        return name

    def op(self, prim: str, inputs: Sequence[str], avals: Sequence[Any], attrs: dict[str, Any] | None = None,
           function: bool = True, instance: str = "") -> str:
        """A node calling MindSpore primitive ``prim`` on ``inputs``; returns its output's name."""
        key = prim if attrs is None else f"{prim}{sorted(attrs.items())!r}"
        if key not in self.prims:
            proto = self.m["PrimitiveProto"](name=f"{prim}:{self._next()}", op_type=prim, instance_name=instance,
                                             prim_type=2 if function else 1)
            for attr_name, attr_value in (attrs or {}).items():
                self.value(proto.attribute.add(name=attr_name), attr_value)
            self.prims[key] = proto
        name = f"{self.graph}:CNode_{self._next()}"
        node = self.m["NodeProto"](name=name, op_type=f"REF::{self.prims[key].name}",
                                   domain=f"Default/{prim}-op{self.count}")
        node.input.extend(inputs)
        node.output.append(name)
        self._abstract(node.attribute.add(name="shape"), avals)
        self.nodes.append(node)
        return name

    def getitem(self, tuple_name: str, index: int, aval: Any) -> str:
        """``TupleGetItem(tuple, index)``."""
        return self.op("TupleGetItem", [tuple_name, self.const(index)], [aval], function=False)


def _closed(j: Any) -> tuple[Any, list[Any]]:
    return (j.jaxpr, list(j.consts)) if hasattr(j, "consts") else (j, [])


def _sub_jaxpr(eqn: Any) -> Any:
    for key in ("jaxpr", "call_jaxpr", "fun_jaxpr"):
        if key in eqn.params:
            return eqn.params[key]
    return None


class _Translator:
    def __init__(self, builder: _Builder) -> None:
        self.b = builder

    def run(self, jaxpr: Any, consts: Sequence[Any], args: Sequence[str]) -> list[str]:
        env: dict[Any, str] = {}
        for var, c in zip(jaxpr.constvars, consts):
            env[var] = self.b.const(np.asarray(c))
        for var, name in zip(jaxpr.invars, args):
            env[var] = name

        def read(atom: Any) -> str:
            if hasattr(atom, "val"):  # a Literal
                return self.b.const(np.asarray(atom.val))
            return env[atom]

        for eqn in jaxpr.eqns:
            ins = [read(a) for a in eqn.invars]
            outs = self.eqn(eqn, ins)
            for var, name in zip(eqn.outvars, outs):
                env[var] = name
        return [read(a) for a in jaxpr.outvars]

    def eqn(self, eqn: Any, ins: list[str]) -> list[str]:
        b, p, name = self.b, eqn.params, eqn.primitive.name
        avals = [v.aval for v in eqn.outvars]
        in_avals = [a.aval for a in eqn.invars]
        if name in _INLINE:
            prim = _NAMED.get(str(p.get("name", "")))
            if prim is not None and len(ins) == 1 and len(avals) == 1:
                return [b.op(prim, ins, avals)]
            sub = _sub_jaxpr(eqn)
            if sub is not None:
                jaxpr, consts = _closed(sub)
                return self.run(jaxpr, consts, ins[len(ins) - len(jaxpr.invars):])
        out = self._mapped(name, p, ins, in_avals, avals)
        if out is not None:
            return out
        b.unmapped.add(name)
        node = b.op(f"jax.{name}", ins, avals, attrs=_simple_params(p), function=False)
        if len(avals) == 1:
            return [node]
        return [b.getitem(node, i, aval) for i, aval in enumerate(avals)]

    def _mapped(self, name: str, p: dict, ins: list[str], in_avals: list[Any], avals: list[Any]) -> list[str] | None:
        b = self.b
        out = avals[0] if avals else None
        if name in ("stop_gradient", "copy", "copy_p"):  # identities in an inference graph
            return [ins[0]]
        if name in _UNARY:
            return [b.op(_UNARY[name], ins, avals)]
        if name == "add" and len(out.shape) >= 2:
            for x, y in ((0, 1), (1, 0)):
                meta = b.meta.get(ins[y])
                if meta and meta[0] == "axis1" and tuple(in_avals[x].shape) == tuple(out.shape):
                    # x + b laid along axis 1 (a Dense's or a Conv's bias): MindSpore's BiasAdd
                    return [b.op("BiasAdd", [ins[x], meta[1], b.const(0)], avals, instance="bias_add")]
        if name in _BINARY:
            return [b.op(_BINARY[name], ins, avals)]
        if name == "div":
            meta, count = b.meta.get(ins[0]), b.const_values.get(ins[1])
            if meta and meta[0] == "wsum" and count is not None and np.all(np.asarray(count) == meta[3]):
                # a window sum over the window's size: MindSpore's AvgPool (x, kernel_size, strides,
                # pad_mode, data_format), pad_mode 2 = VALID and data_format 0 = NCHW as MindSpore 2.10 encodes them
                return [b.op("AvgPool", [meta[1], b.const(meta[2][2:]), b.const(meta[4][2:]), b.const(2), b.const(0)],
                             avals, instance="avg_pool")]
            prim = "RealDiv" if np.issubdtype(np.dtype(out.dtype), np.inexact) else "Div"
            return [b.op(prim, ins, avals)]
        if name in ("and", "or", "not") and np.dtype(out.dtype) == np.bool_:
            return [b.op({"and": "LogicalAnd", "or": "LogicalOr", "not": "LogicalNot"}[name], ins, avals)]
        if name == "integer_pow":
            if p["y"] == 2:
                return [b.op("Square", ins, avals)]
            return [b.op("Pow", [ins[0], b.const(np.asarray(p["y"], dtype=out.dtype))], avals)]
        if name in ("reshape", "squeeze", "expand_dims"):
            node = b.op("Reshape", [ins[0], b.const(tuple(_dim(d) for d in out.shape))], avals)
            shape = tuple(out.shape)
            if (len(in_avals[0].shape) == 1 and len(shape) >= 2 and shape[1] == in_avals[0].shape[0]
                    and all(d == 1 for i, d in enumerate(shape) if i != 1)):
                b.meta[node] = ("axis1", ins[0])
            return [node]
        if name == "transpose":
            node = b.op("Transpose", [ins[0], b.const(tuple(int(d) for d in p["permutation"]))], avals)
            if tuple(p["permutation"]) == (1, 0):
                b.meta[node] = ("t2d", ins[0])
            return [node]
        if name == "broadcast_in_dim":
            dims = tuple(int(d) for d in p["broadcast_dimensions"])
            src, src_shape = ins[0], tuple(in_avals[0].shape)
            shape = [1] * len(out.shape)
            for axis, d in zip(dims, src_shape):
                shape[axis] = d
            x = src
            if tuple(shape) != src_shape:
                x = b.op("Reshape", [src, b.const(tuple(_dim(d) for d in shape))],
                         [_Aval(tuple(shape), out.dtype)])
            node = b.op("BroadcastTo", [x, b.const(tuple(_dim(d) for d in out.shape))], avals)
            if len(src_shape) == 1 and dims == (1,):
                b.meta[node] = ("axis1", src)
            return [node]
        if name == "convert_element_type":
            type_id = _type_id(out.dtype) if str(out.dtype) != "bfloat16" else None
            if type_id is not None:
                return [b.op("Cast", [ins[0], b.const(type_id)], avals)]
            return None
        if name in _REDUCE:
            axes = b.const(tuple(int(a) for a in p["axes"]))
            extra = [b.const(False)] + ([b.const(False)] if name == "reduce_sum" else [])
            return [b.op(_REDUCE[name], [ins[0], axes] + extra, avals)]
        if name == "select_n" and len(ins) == 3:
            return [b.op("Select", [ins[0], ins[2], ins[1]], avals)]
        if name == "concatenate":
            tup = b.op("MakeTuple", ins, in_avals, function=False)
            return [b.op("Concat", [tup, b.const(int(p["dimension"]))], avals)]
        if name == "dot_general":
            return self._dot(p, ins, in_avals, avals)
        if name == "slice" and all(int(st) == 1 for st in (p.get("strides") or ())):
            begin = tuple(int(i) for i in p["start_indices"])
            size = tuple(int(e) - i for e, i in zip(p["limit_indices"], begin))
            return [b.op("Slice", [ins[0], b.const(begin), b.const(size)], avals)]
        if name == "gather":
            return self._gather(p, ins, in_avals, avals)
        if name == "conv_general_dilated":
            return self._conv(p, ins, in_avals, avals)
        if name in ("reduce_window_max", "reduce_window_sum"):
            window, strides = tuple(p["window_dimensions"]), tuple(p["window_strides"])
            if name == "reduce_window_sum":
                if (len(window) == 4 and window[:2] == (1, 1) and strides[:2] == (1, 1)
                        and all(tuple(x) == (0, 0) for x in p["padding"])):
                    node = b.op("jax.reduce_window_sum", ins, avals, attrs=_simple_params(p), function=False)
                    b.meta[node] = ("wsum", ins[0], tuple(int(w) for w in window), int(np.prod(window)),
                                    tuple(int(x) for x in strides))
                    b.unmapped.add(name)
                    return [node]
                return None
            if (len(window) == 4 and window[:2] == (1, 1) and strides[:2] == (1, 1)
                    and all(tuple(x) == (0, 0) for x in p["padding"])
                    and all(d == 1 for d in tuple(p["base_dilation"]) + tuple(p["window_dilation"]))):
                attrs = {"kernel_size": tuple(int(w) for w in window), "strides": tuple(int(s) for s in strides),
                         "pad_mode": "VALID", "format": "NCHW", "input_names": ["x"], "output_names": ["output"]}
                return [b.op("MaxPool", ins, avals, attrs=attrs, function=False, instance="max_pool")]
        return None

    def _dot(self, p: dict, ins: list[str], in_avals: list[Any], avals: list[Any]) -> list[str] | None:
        b = self.b
        (lc, rc), (lb, rb) = p["dimension_numbers"]
        ranks = (len(in_avals[0].shape), len(in_avals[1].shape))
        if len(lc) != 1 or len(rc) != 1:
            return None
        lc, rc = int(lc[0]), int(rc[0])
        if ranks == (2, 2) and not lb:
            x, w = ins
            ta, tb = lc == 0, rc == 1
            meta = b.meta.get(w)
            if meta and meta[0] == "t2d":  # x @ w.T as MindSpore's Dense writes it
                w, tb = meta[1], not tb
            return [b.op("MatMul", [x, w, b.const(ta), b.const(tb)], avals, instance="matmul")]
        if ranks[0] > 2 and ranks[1] == 2 and not lb and lc == ranks[0] - 1:
            # x[..., k] @ w: a Dense on N-D input, as MindSpore's Dense does it (flatten, MatMul, reshape)
            x = b.op("Reshape", [ins[0], b.const((-1, _dim(in_avals[0].shape[-1])))],
                     [_Aval((-1, in_avals[0].shape[-1]), in_avals[0].dtype)])
            w, tb = ins[1], rc == 1
            meta = b.meta.get(w)
            if meta and meta[0] == "t2d":
                w, tb = meta[1], not tb
            flat = b.op("MatMul", [x, w, b.const(False), b.const(tb)],
                        [_Aval((-1, avals[0].shape[-1]), avals[0].dtype)], instance="matmul")
            return [b.op("Reshape", [flat, b.const(tuple(_dim(d) for d in avals[0].shape))], avals)]
        n = ranks[0]
        batch = tuple(range(n - 2))
        if ranks[0] == ranks[1] and n >= 3 and tuple(lb) == batch and tuple(rb) == batch and lc in (n - 2, n - 1) \
                and rc in (n - 2, n - 1):
            return [b.op("BatchMatMul", [ins[0], ins[1], b.const(lc == n - 2), b.const(rc == n - 1)], avals)]
        return None

    def _gather(self, p: dict, ins: list[str], in_avals: list[Any], avals: list[Any]) -> list[str] | None:
        """``table[ids]`` along axis 0 (``jnp.take``, an Embedding) as MindSpore's ``Gather``."""
        dn = p["dimension_numbers"]
        table, idx = in_avals
        rank = len(table.shape)
        if not (tuple(dn.collapsed_slice_dims) == (0,) and tuple(dn.start_index_map) == (0,)
                and not tuple(getattr(dn, "operand_batching_dims", ())) and idx.shape and idx.shape[-1] == 1
                and tuple(p["slice_sizes"]) == (1,) + tuple(table.shape[1:])
                and tuple(dn.offset_dims) == tuple(range(len(idx.shape) - 1, len(idx.shape) - 1 + rank - 1))):
            return None
        b = self.b
        ids = b.op("Reshape", [ins[1], b.const(tuple(_dim(d) for d in idx.shape[:-1]))],
                   [_Aval(tuple(idx.shape[:-1]), idx.dtype)])
        return [b.op("Gather", [ins[0], ids, b.const(0), b.const(0)], avals)]  # (params, indices, axis, batch_dims)

    def _conv(self, p: dict, ins: list[str], in_avals: list[Any], avals: list[Any]) -> list[str] | None:
        dn = p["dimension_numbers"]
        specs = (tuple(dn.lhs_spec), tuple(dn.rhs_spec), tuple(dn.out_spec)) if dn is not None else None
        w_shape = tuple(in_avals[1].shape)
        if (specs != ((0, 1, 2, 3),) * 3 or tuple(p["lhs_dilation"]) != (1, 1)
                or p["batch_group_count"] != 1):
            return None
        (top, bottom), (left, right) = (tuple(int(v) for v in x) for x in p["padding"])
        stride, dilation = tuple(int(s) for s in p["window_strides"]), tuple(int(d) for d in p["rhs_dilation"])
        group = int(p["feature_group_count"])
        pad = (top, bottom, left, right)
        attrs = {"kernel_size": (int(w_shape[2]), int(w_shape[3])), "mode": 1, "out_channel": int(w_shape[0]),
                 "input_names": ["x", "w"], "pad": pad, "pad_mode": "pad" if any(pad) else "valid",
                 "format": "NCHW", "pad_list": pad, "groups": group, "stride": (1, 1) + stride, "group": group,
                 "dilation": (1, 1) + dilation, "output_names": ["output"]}
        return [self.b.op("Conv2D", ins, avals, attrs=attrs, function=False, instance="conv2d")]


class _Aval:
    def __init__(self, shape: tuple, dtype: Any) -> None:
        self.shape, self.dtype = shape, dtype


def _simple_params(params: dict) -> dict[str, Any]:
    """The jaxpr equation parameters that are plain values (written on an unmapped node's primitive)."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, (bool, int, float, str)):
            out[key] = value
        elif isinstance(value, tuple) and all(isinstance(v, (bool, int)) for v in value):
            out[key] = value
        elif value is not None and not callable(value) and not hasattr(value, "eqns") and not hasattr(value, "jaxpr"):
            text = str(value)
            if len(text) <= 200 and "lambda" not in text:  # not a sub-program (cond branches, loop bodies)
                out[key] = text
    return out


def build_graph(closed_jaxpr: Any, graph_name: str, input_names: Sequence[str], params: Sequence[tuple[str, Any]],
                input_avals: Sequence[Any]) -> tuple[Any, list[Any], set[str]]:
    """Translate ``closed_jaxpr`` (invars: the parameters, then the inputs) into a MindIR graph.

    Arguments:
        closed_jaxpr: the inference function's ``ClosedJaxpr``.
        graph_name: the graph's name (the prefix of its node and parameter names).
        input_names: one name per network input.
        params: ``(MindSpore parameter name, value)`` per parameter, in invar order.
        input_avals: the abstract inputs (shape, dtype), symbolic dims allowed.

    Returns:
        ``(GraphProto, the PrimitiveProtos it uses, the JAX primitives with no MindSpore counterpart)``.
    """
    b = _Builder(graph_name)
    m = b.m
    graph = m["GraphProto"](name=graph_name)
    arg_names = []
    for pname, value in params:
        array = np.asarray(value)
        t = graph.parameter.add(name=f"{graph_name}:{pname}", ref_key=pname, data_type=_dtype_code(array.dtype))
        t.dims.extend(array.shape)
        t.raw_data = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()
        t.compression_type = 0
        arg_names.append(t.name)
    for iname, aval in zip(input_names, input_avals):
        info = graph.input.add(name=f"{graph_name}:{iname}")
        t = info.tensor.add(data_type=_dtype_code(aval.dtype))
        t.dims.extend(_dim(d) for d in aval.shape)
        arg_names.append(info.name)
    jaxpr, consts = _closed(closed_jaxpr)
    outs = _Translator(b).run(jaxpr, consts, arg_names)
    out_avals = [v.aval for v in jaxpr.outvars]
    if len(outs) == 1:
        result = outs[0]
    else:
        result = b.op("MakeTuple", outs, out_avals, function=False)
    # Only what the outputs need (the jaxpr threads state such as the random key through every call).
    by_name = {n.name: n for n in b.nodes}
    needed: set[str] = set()
    stack = [result]
    while stack:
        name = stack.pop()
        if name in needed:
            continue
        needed.add(name)
        if name in by_name:
            stack.extend(by_name[name].input)
    for node in b.nodes:
        if node.name in needed:
            graph.node.append(node)
    used = {n.op_type[len("REF::"):] for n in graph.node if n.op_type.startswith("REF::")}
    prims = [proto for proto in b.prims.values() if proto.name in used]
    unmapped = {proto.op_type[len("jax."):] for proto in prims if proto.op_type.startswith("jax.")}
    info = graph.output.add(name=result)
    if len(outs) == 1:
        t = info.tensor.add(data_type=_dtype_code(out_avals[0].dtype))
        t.dims.extend(_dim(d) for d in out_avals[0].shape)
    else:
        info.denotation = "Tuple"
        b._abstract(info.attr_info, out_avals)
    return graph, prims, unmapped
