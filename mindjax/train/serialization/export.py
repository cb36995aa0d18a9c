"""``export``, ``load`` and ``GraphCell``: a network's inference function as a StableHLO or MINDIR file.

**STABLEHLO.** ``export`` traces the network in inference mode (``set_train(False)``) with
``jax.export``: the weights become constants of the program, so the file needs
no Python model code to run. The file is exactly ``Exported.serialize()``,
so plain JAX reads it with ``jax.export.deserialize``. The batch dimension can
be left symbolic (``dynamic_batch=True``), and then one file serves every batch
size.

**MINDIR.** ``file_format='MINDIR'`` writes MindSpore's MindIR protobuf
(``ModelProto``, ``.mindir`` appended). The Cell's Parameters are the graph's
``TensorProto`` initializers with MindSpore's names and dtypes; the computation
is written as MindSpore primitive nodes (``MatMul``, ``BiasAdd``, ``ReLU``,
``Reshape``, ``Conv2D``, ``MaxPool``, ``AvgPool``, ``Gather``, ``Slice``,
element-wise ops, reductions, ...) so that tools reading MindIR see a familiar
graph; and the same function, taking the parameters as its first argument, is
stored as ``jax.export`` StableHLO in ``user_info['mindjax.stablehlo']``.
``ms.load`` runs that program with the stored parameters, so a loaded file
computes exactly what was exported for any network, and ``GraphCell(graph,
params_init={...})`` can replace parameters by name. What MindSpore can do with
such a file: parse it with its own ``mind_ir`` protobuf and read the
parameters, shapes and nodes; for networks whose operations all have a
MindSpore primitive, MindSpore 2.10's own ``mindspore.load`` + ``nn.GraphCell``
runs it (tested on an MLP and a LeNet-style conv net, a residual
BatchNorm/LayerNorm/GELU block and an Embedding + AvgPool net, equal outputs).
What it cannot be relied on for: running every file. JAX operations with no
direct MindSpore primitive are written as ``jax.<name>`` nodes (listed in
``user_info['mindjax.unmapped_ops']``), which MindSpore cannot run, and the
graph is not MindSpore's compiler output (no ``Load``/``UpdateState`` side-
effect chain). Likewise MindJAX does not execute MindSpore's graph nodes:
``ms.load`` reads only MINDIR files written by MindJAX and refuses one from
MindSpore with an error naming the file. In both formats, MindJAX's eager value
checks (an index outside an Embedding's vocabulary raises) are not part of the
exported program, which cannot call back to the host: out-of-range indices
there are filled or clamped as XLA does.

Example:
    >>> ms.export(net, ms.Tensor(np.ones((1, 1, 32, 32), np.float32)),
    ...           file_name="lenet", file_format="STABLEHLO", dynamic_batch=True)   # doctest: +SKIP
    >>> graph = ms.load("lenet.stablehlo")                                          # doctest: +SKIP
    >>> graph(x).shape                                                              # doctest: +SKIP
"""
from __future__ import annotations

import inspect
import os
from typing import Any, Sequence

import jax
import numpy as np

from mindjax.cells.cell import Cell
from mindjax.cells.state import collect_variables, run_with_state, substituted
from mindjax.common.checks import collect_checks
from mindjax.common.random import RNG_STATE
from mindjax.common.tensor import Tensor
from mindjax.train.serialization.atomic import atomic_write_bytes

__all__ = ["export", "load", "GraphCell"]

_SUFFIX = ".stablehlo"
_MINDIR_SUFFIX = ".mindir"
_UNSUPPORTED = ("AIR", "ONNX")


def _spec(x: Any, batch: Any) -> jax.ShapeDtypeStruct:
    if isinstance(x, jax.ShapeDtypeStruct):
        shape, dtype = tuple(x.shape), x.dtype
    else:
        value = x._value if hasattr(x, "_value") else x
        if isinstance(value, (bool, int, float)) or not hasattr(value, "shape"):
            value = np.asarray(value)
        shape, dtype = tuple(value.shape), value.dtype
    if batch is not None and shape:
        shape = (batch,) + shape[1:]
    return jax.ShapeDtypeStruct(shape, dtype)


def export(net: Any, *inputs: Any, file_name: str, file_format: str = "STABLEHLO", **kwargs: Any) -> None:
    """Serialize ``net``'s inference function to ``file_name`` (``.stablehlo``/``.mindir`` appended when missing).

    Arguments:
        net: a Cell or a function of arrays.
        inputs: example inputs (arrays or ``jax.ShapeDtypeStruct``), fixing the
            shapes and dtypes of the exported function.
        file_name: the file to write (atomically).
        file_format: ``'STABLEHLO'`` or ``'MINDIR'`` (see the module). ``'AIR'``
            and ``'ONNX'`` are MindSpore back-end formats and raise ``ValueError``.
        dynamic_batch: (keyword) leave dimension 0 of every input symbolic.
        platforms: (keyword) the platforms to lower for, e.g. ``('cpu', 'cuda')``;
            the current back end by default.

    Returns:
        None, as MindSpore's: the file is ``file_name`` with ``.stablehlo`` or
        ``.mindir`` appended when missing.

    Raises:
        ValueError: an unsupported format or argument; for ``'MINDIR'``, a
            Parameter read by the network that is neither in its Cell tree nor
            an argument (MindSpore's message).
    """
    fmt = file_format.upper() if isinstance(file_format, str) else None
    if fmt not in ("STABLEHLO", "MINDIR"):
        if fmt in _UNSUPPORTED:
            raise ValueError(f"For 'export', file_format {file_format!r} is not supported, use 'STABLEHLO' or "
                             f"'MINDIR': MindJAX compiles with XLA and exports StableHLO via jax.export")
        raise ValueError(f"For 'export', 'file_format' must be 'STABLEHLO' or 'MINDIR', got {file_format!r}")
    unknown = set(kwargs) - {"dynamic_batch", "platforms"}
    if unknown:
        raise ValueError(f"For 'export', unsupported keyword arguments {sorted(unknown)}; supported: "
                         f"dynamic_batch, platforms")
    if not isinstance(file_name, str) or not file_name:
        raise ValueError(f"For 'export', 'file_name' must be a non-empty str, got {file_name!r}")
    if not inputs:
        raise ValueError("For 'export', give example inputs: export(net, *inputs, file_name=...)")
    from jax import export as jax_export

    batch = jax_export.symbolic_shape("batch")[0] if kwargs.get("dynamic_batch", False) else None
    specs = [_spec(x, batch) for x in inputs]
    variables = collect_variables(net) if isinstance(net, Cell) else []
    was_training = net.training if isinstance(net, Cell) else False
    if isinstance(net, Cell):
        net.set_train(False)
    try:
        if fmt == "MINDIR":
            _export_mindir(net, variables, specs, file_name, kwargs.get("platforms"))
            return None
        variables = variables + [RNG_STATE]
        # Read outside the trace: a lazily created random key made inside it would be a tracer.
        values = [v._value for v in variables]

        def infer(*args: Any) -> Any:
            # Anything the network writes while traced (a random key) is put back.
            with substituted(variables, values), collect_checks():  # value checks: see _export_mindir
                return net(*args)

        exported = jax_export.export(jax.jit(infer), platforms=kwargs.get("platforms"))(*specs)
    finally:
        if isinstance(net, Cell):
            net.set_train(was_training)
    path = file_name if file_name.endswith(_SUFFIX) else file_name + _SUFFIX
    atomic_write_bytes(path, bytes(exported.serialize()))
    return None


def _arrays(out: Any) -> Any:
    return jax.tree_util.tree_map(lambda x: x._value if isinstance(x, Tensor) else x, out,
                                  is_leaf=lambda x: isinstance(x, Tensor))


def _input_names(net: Any, count: int) -> list[str]:
    try:
        params = list(inspect.signature(net.construct if isinstance(net, Cell) else net).parameters.values())
        names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        names = []
    if len(names) < count or len(set(names[:count])) < count:
        return [f"input_{i}" for i in range(count)]
    return names[:count]


def _export_mindir(net: Any, variables: list[Any], specs: list[Any], file_name: str, platforms: Any) -> None:
    """``export(..., file_format='MINDIR')``: the parameters as arguments of the traced program."""
    from jax import export as jax_export

    from mindjax.cells.parameter import Parameter
    from mindjax.train.serialization._mindir import write_mindir
    from mindjax.train.serialization._mindir_graph import build_graph

    values = [v._value for v in variables]
    rng = RNG_STATE._value  # read outside the trace (a lazily made key would be a tracer)
    known = {id(v) for v in variables} | {id(RNG_STATE)}
    strays: list[Any] = []

    def infer(params: tuple, *args: Any) -> Any:
        # Value checks (index ranges) are collected and left out: an exported program cannot call back
        # to the host, so out-of-range indices are clamped there as XLA does.
        with collect_checks():
            run = run_with_state(variables + [RNG_STATE], list(params) + [rng], lambda: net(*args))
        for key, var in run.touched.items():
            if key not in known and key not in run.created and isinstance(var, Parameter):
                strays.append(var)
        return _arrays(run.out)

    param_specs = tuple(jax.ShapeDtypeStruct(np.shape(v), v.dtype) for v in values)
    closed = jax.make_jaxpr(infer)(param_specs, *specs)
    if strays:
        raise ValueError(f"There's a mindspore.Parameter that wasn't created in nn.Cell, and mindspore.export() "
                         f"does not support exporting such Parameters. The parameter name is: {strays[0].name}.")
    exported = jax_export.export(jax.jit(infer), platforms=platforms)(param_specs, *specs)
    cls = type(net) if isinstance(net, Cell) else net
    graph_name = f"{getattr(cls, '__module__', '')}_{getattr(cls, '__qualname__', 'net')}_construct"
    graph_name = "".join(c if c.isalnum() else "_" for c in graph_name).strip("_")
    names = [v.name for v in variables]
    graph, prims, unmapped = build_graph(closed, graph_name, _input_names(net, len(specs)),
                                         list(zip(names, [np.asarray(v) for v in values])), specs)
    path = file_name if file_name.endswith(_MINDIR_SUFFIX) else file_name + _MINDIR_SUFFIX
    write_mindir(path, graph, prims, unmapped, exported)


class GraphCell(Cell):
    """A Cell that runs an exported program (MindSpore's ``nn.GraphCell``).

    Arguments:
        graph: what :func:`load` returns, a ``jax.export.Exported``, or the
            path of a ``.stablehlo`` or ``.mindir`` file.
        params_init: for a MINDIR graph, a dict of parameter name to Tensor or
            Parameter: the graph's parameter of that name takes that value (its
            shape and dtype must match); names the graph lacks are ignored, as in
            MindSpore. A StableHLO graph holds its weights inside the program and
            takes no ``params_init``.
        obf_random_seed: accepted for MindSpore's signature; must be None.

    Example:
        >>> net = GraphCell(ms.load("lenet.mindir"))   # doctest: +SKIP
    """

    def __init__(self, graph: Any, params_init: dict | None = None, obf_random_seed: Any = None) -> None:
        super().__init__()
        from jax import export as jax_export

        from mindjax.cells.parameter import Parameter
        from mindjax.train.serialization._mindir import MindIRProgram, read_program

        if obf_random_seed is not None:
            raise ValueError("For 'GraphCell', 'obf_random_seed' (model obfuscation) is not supported by MindJAX")
        if isinstance(graph, GraphCell):
            graph = graph.__dict__["_program"] or graph.exported
        elif isinstance(graph, str):
            graph = read_program(graph) if graph.lower().endswith(_MINDIR_SUFFIX) else _read_exported(graph)
        program = graph if isinstance(graph, MindIRProgram) else None
        exported = program.exported if program is not None else graph
        if not isinstance(exported, jax_export.Exported):
            raise TypeError(f"For 'GraphCell', 'graph' must be what ms.load returns, got {type(graph).__name__}")
        self.__dict__["exported"] = exported
        self.__dict__["_program"] = program
        if program is None:
            if params_init is not None:
                raise ValueError("For 'GraphCell', 'params_init' is not supported for a StableHLO graph: the "
                                 "program holds its weights (export with file_format='MINDIR' to set them)")
            self.__dict__["_graph_params"] = []
            return
        if params_init is not None and not isinstance(params_init, dict):
            raise TypeError(f"For 'GraphCell', 'params_init' must be a dict of name to Tensor, got "
                            f"{type(params_init).__name__}")
        params = []
        for name, value in zip(program.names, program.values):
            init = (params_init or {}).get(name)
            if init is not None:
                new = np.asarray(init._value if hasattr(init, "_value") else init)
                if new.shape != value.shape or new.dtype != value.dtype:
                    raise ValueError(f"For 'GraphCell', params_init[{name!r}] must be {value.shape} {value.dtype} "
                                     f"as in the graph, got {new.shape} {new.dtype}")
                value = new
            param = Parameter(value.copy(), name=name)
            self.insert_param_to_cell(name, param, check_name_contain_dot=False)
            params.append(param)
        self.__dict__["_graph_params"] = params

    def construct(self, *inputs: Any) -> Any:
        """Run the exported program."""
        params = self.__dict__["_graph_params"]
        expected = self.exported.in_avals[len(params):]
        if len(inputs) != len(expected):
            raise ValueError(f"{self._where()}, expected {len(expected)} inputs "
                             f"{[str(a) for a in expected]}, got {len(inputs)}")
        args = [x._value if hasattr(x, "_value") else x for x in inputs]
        if self.__dict__["_program"] is None:
            return self.exported.call(*args)
        return self.exported.call(tuple(p._value for p in params), *args)


def _read_exported(file_name: str) -> Any:
    from jax import export as jax_export

    path = file_name
    if not os.path.isfile(path) and os.path.isfile(file_name + _SUFFIX):
        path = file_name + _SUFFIX
    if not os.path.isfile(path):
        raise ValueError(f"For 'load', the file {file_name} does not exist")
    with open(path, "rb") as f:
        data = f.read()
    try:
        return jax_export.deserialize(bytearray(data))
    except Exception as exc:  # flatbuffers raises assorted errors on bad bytes
        raise ValueError(f"For 'load', failed to read {path}: it is truncated, corrupted or not a file "
                         f"written by ms.export ({type(exc).__name__}: {exc})") from exc


def load(file_name: str, **kwargs: Any) -> GraphCell:
    """Load a file written by :func:`export` as a callable :class:`GraphCell`.

    Arguments:
        file_name: a ``.mindir`` file, or a StableHLO file (``.stablehlo`` may be omitted).

    Returns:
        A :class:`GraphCell`; ``nn.GraphCell(ms.load(f))`` works too, as in MindSpore.

    Raises:
        ValueError: the file is missing, corrupted, or is not a program written
            by MindJAX's ``export`` (a MindIR file from MindSpore itself holds
            no program MindJAX can run); the message names the file.
    """
    if kwargs.get("dec_key") is not None:
        raise NotImplementedError("For 'load', encrypted files ('dec_key') are not supported by MindJAX")
    if not isinstance(file_name, str) or not file_name:
        raise ValueError(f"For 'load', 'file_name' must be a non-empty str, got {file_name!r}")
    from mindjax.train.serialization._mindir import read_program

    if file_name.lower().endswith(_MINDIR_SUFFIX):
        return GraphCell(read_program(file_name))
    try:
        return GraphCell(_read_exported(file_name))
    except ValueError as exc:
        if not os.path.isfile(file_name):
            raise
        try:  # a MINDIR file under another name
            program = read_program(file_name)
        except ValueError:
            raise exc from None
        return GraphCell(program)
