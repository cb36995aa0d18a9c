"""``export``, ``load`` and ``GraphCell``: a network's inference function as a StableHLO file.

``export`` traces the network in inference mode (``set_train(False)``) with
``jax.export``: the weights become constants of the program, so the file needs
no Python model code to run. The file is exactly ``Exported.serialize()``,
so plain JAX reads it with ``jax.export.deserialize``. The batch dimension can
be left symbolic (``dynamic_batch=True``), and then one file serves every batch
size.

Example:
    >>> ms.export(net, ms.Tensor(np.ones((1, 1, 32, 32), np.float32)),
    ...           file_name="lenet", file_format="STABLEHLO", dynamic_batch=True)   # doctest: +SKIP
    >>> graph = ms.load("lenet.stablehlo")                                          # doctest: +SKIP
    >>> graph(x).shape                                                              # doctest: +SKIP
"""
from __future__ import annotations

import os
from typing import Any, Sequence

import jax
import numpy as np

from mindjax.cells.cell import Cell
from mindjax.cells.state import collect_variables, substituted
from mindjax.common.random import RNG_STATE
from mindjax.train.serialization.atomic import atomic_write_bytes

__all__ = ["export", "load", "GraphCell"]

_SUFFIX = ".stablehlo"
_UNSUPPORTED = ("MINDIR", "AIR", "ONNX")


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


def export(net: Any, *inputs: Any, file_name: str, file_format: str = "STABLEHLO", **kwargs: Any) -> str:
    """Serialize ``net``'s inference function to ``file_name`` (``.stablehlo`` appended when missing).

    Arguments:
        net: a Cell or a function of arrays.
        inputs: example inputs (arrays or ``jax.ShapeDtypeStruct``), fixing the
            shapes and dtypes of the exported function.
        file_name: the file to write (atomically).
        file_format: ``'STABLEHLO'``. ``'MINDIR'``, ``'AIR'`` and ``'ONNX'`` are
            MindSpore back-end formats and raise ``ValueError``.
        dynamic_batch: (keyword) leave dimension 0 of every input symbolic.
        platforms: (keyword) the platforms to lower for, e.g. ``('cpu', 'cuda')``;
            the current back end by default.

    Returns:
        The path written.

    Raises:
        ValueError: an unsupported format or argument.
    """
    if not isinstance(file_format, str) or file_format.upper() != "STABLEHLO":
        if isinstance(file_format, str) and file_format.upper() in _UNSUPPORTED:
            raise ValueError(f"For 'export', file_format {file_format!r} is not supported, use 'STABLEHLO': "
                             f"MindJAX compiles with XLA and exports StableHLO via jax.export")
        raise ValueError(f"For 'export', 'file_format' must be 'STABLEHLO', got {file_format!r}")
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
    variables = variables + [RNG_STATE]
    was_training = net.training if isinstance(net, Cell) else False
    # Read outside the trace: a lazily created random key made inside it would be a tracer.
    values = [v._value for v in variables]

    def infer(*args: Any) -> Any:
        # Anything the network writes while traced (a random key) is put back.
        with substituted(variables, values):
            return net(*args)

    if isinstance(net, Cell):
        net.set_train(False)
    try:
        exported = jax_export.export(jax.jit(infer), platforms=kwargs.get("platforms"))(*specs)
    finally:
        if isinstance(net, Cell):
            net.set_train(was_training)
    path = file_name if file_name.endswith(_SUFFIX) else file_name + _SUFFIX
    atomic_write_bytes(path, bytes(exported.serialize()))
    return path


class GraphCell(Cell):
    """A Cell that runs an exported program (MindSpore's ``nn.GraphCell``).

    Arguments:
        graph: what :func:`load` returns, a ``jax.export.Exported``, or the
            path of a ``.stablehlo`` file.
        params_init: not supported (the weights are inside the program); must be None.

    Example:
        >>> net = GraphCell(ms.load("lenet.stablehlo"))   # doctest: +SKIP
    """

    def __init__(self, graph: Any, params_init: Any = None, obf_random_seed: Any = None) -> None:
        super().__init__()
        if params_init is not None:
            raise ValueError("For 'GraphCell', 'params_init' is not supported: the exported program holds its "
                             "weights")
        if isinstance(graph, GraphCell):
            graph = graph.exported
        elif isinstance(graph, str):
            graph = _read_exported(graph)
        from jax import export as jax_export

        if not isinstance(graph, jax_export.Exported):
            raise TypeError(f"For 'GraphCell', 'graph' must be what ms.load returns, got {type(graph).__name__}")
        self.__dict__["exported"] = graph

    def construct(self, *inputs: Any) -> Any:
        """Run the exported program."""
        if len(inputs) != len(self.exported.in_avals):
            raise ValueError(f"{self._where()}, expected {len(self.exported.in_avals)} inputs "
                             f"{[str(a) for a in self.exported.in_avals]}, got {len(inputs)}")
        return self.exported.call(*(x._value if hasattr(x, "_value") else x for x in inputs))


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
        file_name: the file (``.stablehlo`` may be omitted).

    Returns:
        A :class:`GraphCell`; ``nn.GraphCell(ms.load(f))`` works too, as in MindSpore.

    Raises:
        ValueError: the file is missing or is not an exported program.
    """
    if kwargs.get("dec_key") is not None:
        raise NotImplementedError("For 'load', encrypted files ('dec_key') are not supported by MindJAX")
    if isinstance(file_name, str) and file_name.lower().endswith(".mindir"):
        raise ValueError(f"For 'load', {file_name} is MINDIR, which is not supported, use STABLEHLO "
                         f"(ms.export(..., file_format='STABLEHLO'))")
    return GraphCell(_read_exported(file_name))
