"""MINDIR files: MindSpore's ``ModelProto`` holding the graph, the parameters and a StableHLO program.

What a file written here holds:

- ``graph.parameter``: every Parameter of the Cell as a ``TensorProto`` with
  MindSpore's name (``ref_key``, e.g. ``1.weight``), dtype and raw little-endian data;
- ``graph.input``/``graph.output``: the inputs' and outputs' shapes and dtypes
  (-1 for a dynamic batch dimension);
- ``graph.node`` and ``primitives``: the computation as MindSpore primitives
  (see :mod:`mindjax.train.serialization._mindir_graph`); JAX operations with
  no MindSpore counterpart are listed in ``user_info['mindjax.unmapped_ops']``;
- ``user_info['mindjax.stablehlo']``: the ``jax.export`` serialization
  (base64) of the same function, taking the parameters as its first argument.
  It is what :func:`read_program` runs, so a loaded file computes exactly what
  was exported, whatever operations the network used.
"""
from __future__ import annotations

import base64
import json
import os
from typing import Any

import numpy as np

from mindjax.train.serialization._mindir_proto import DTYPE_TO_NP, messages
from mindjax.train.serialization.atomic import atomic_write_bytes

__all__ = ["MindIRProgram", "write_mindir", "read_program", "read_model", "load_mindir", "save_mindir"]

_PAYLOAD = "mindjax.stablehlo"
_FORMAT = "mindjax.format"
_FORMAT_VERSION = "1"


class MindIRProgram:
    """What :func:`read_program` returns: the exported program and its named parameters.

    Attributes:
        exported: the ``jax.export.Exported`` (called as ``exported.call(params, *inputs)``).
        names: the parameters' MindSpore names, in the program's order.
        values: their values (NumPy arrays).
        file_name: the file it was read from.
    """

    def __init__(self, exported: Any, names: list[str], values: list[np.ndarray], file_name: str) -> None:
        self.exported, self.names, self.values, self.file_name = exported, names, values, file_name


def write_mindir(path: str, graph: Any, primitives: list[Any], unmapped: set[str], exported: Any) -> None:
    """Write a ``ModelProto`` around ``graph`` and the serialized ``exported`` program, atomically."""
    import mindjax

    m = messages()
    model = m["ModelProto"](ir_version="1.1", producer_name="MindJAX",
                            model_version=str(getattr(mindjax, "__version__", "")), little_endian=True,
                            mind_ir_version=3)
    model.graph.CopyFrom(graph)
    model.primitives.extend(primitives)
    model.user_info[_FORMAT] = _FORMAT_VERSION
    model.user_info[_PAYLOAD] = base64.b64encode(bytes(exported.serialize())).decode("ascii")
    model.user_info["mindjax.unmapped_ops"] = json.dumps(sorted(unmapped))
    atomic_write_bytes(path, model.SerializeToString())


def read_model(file_name: str, where: str = "load") -> Any:
    """Parse ``file_name`` as a MindIR ``ModelProto`` (any producer's).

    Arguments:
        file_name: the file.
        where: the API named in errors.

    Raises:
        ValueError: the file is missing, or is not a MindIR protobuf; the message names it.
    """
    if not os.path.isfile(file_name):
        raise ValueError(f"For '{where}', the file {file_name} does not exist")
    with open(file_name, "rb") as f:
        data = f.read()
    model = messages()["ModelProto"]()
    try:
        model.ParseFromString(data)
    except Exception as exc:  # protobuf's DecodeError, or others on garbage
        raise ValueError(f"For '{where}', failed to read {file_name}: it is truncated, corrupted or not a MindIR "
                         f"file ({type(exc).__name__}: {exc})") from exc
    if not data or not model.HasField("graph"):
        raise ValueError(f"For '{where}', failed to read {file_name}: it is not a MindIR file (no graph)")
    return model


def load_mindir(file_name: str) -> Any:
    """MindSpore's ``load_mindir``: a MindIR file (MindSpore's or MindJAX's) as its ``ModelProto`` message.

    The message class is MindJAX's run-time build of MindSpore's schema, with the
    same field names (``graph.parameter``, ``user_info``, ...).

    Raises:
        TypeError: ``file_name`` is not a str.
        ValueError: the file does not exist or is not a MindIR protobuf.
    """
    if not isinstance(file_name, str):
        raise TypeError(f"The '{file_name}' must be string, but got {type(file_name)}.")
    return read_model(os.path.realpath(file_name), where="load_mindir")


def save_mindir(model: Any, file_name: str) -> None:
    """MindSpore's ``save_mindir``: write a ``ModelProto`` to ``file_name`` (``.mindir`` appended), atomically.

    Arguments:
        model: a ``ModelProto`` (from :func:`load_mindir`, or MindSpore's own message class).
        file_name: the file to write.

    Raises:
        TypeError: ``model`` is not a ModelProto, or ``file_name`` not a str.
    """
    descriptor = getattr(model, "DESCRIPTOR", None)
    if getattr(descriptor, "full_name", None) != "mind_ir.ModelProto":
        raise TypeError(f"For 'save_mindir', the argument 'model' must be ModelProto, but got {type(model)}.")
    if not isinstance(file_name, str):
        raise TypeError(f"The '{file_name}' must be string, but got {type(file_name)}.")
    if not file_name.endswith(".mindir"):
        file_name += ".mindir"
    atomic_write_bytes(os.path.realpath(file_name), model.SerializeToString())


def read_program(file_name: str) -> MindIRProgram:
    """Read a MINDIR file written by MindJAX's ``export`` as a runnable :class:`MindIRProgram`.

    Raises:
        ValueError: the file is missing, corrupted, or has no MindJAX program
            (a MindIR written by MindSpore itself); the message names the file.
    """
    from jax import export as jax_export

    model = read_model(file_name)
    if _PAYLOAD not in model.user_info:
        producer = model.producer_name or "an unknown producer"
        raise ValueError(f"For 'load', {file_name} is a MindIR file from {producer} without the StableHLO program "
                         f"that MindJAX runs: MindJAX loads only the MINDIR files its own ms.export writes "
                         f"(it does not execute MindSpore's graph nodes)")
    try:
        exported = jax_export.deserialize(bytearray(base64.b64decode(model.user_info[_PAYLOAD], validate=True)))
    except Exception as exc:
        raise ValueError(f"For 'load', failed to read {file_name}: its StableHLO program is corrupted "
                         f"({type(exc).__name__}: {exc})") from exc
    names, values = [], []
    for t in model.graph.parameter:
        dtype = DTYPE_TO_NP.get(t.data_type)
        if dtype is None:
            raise ValueError(f"For 'load', {file_name}: parameter {t.ref_key or t.name!r} has the unsupported "
                             f"data_type {t.data_type}")
        np_dtype = np.dtype(dtype) if dtype != "bfloat16" else _bfloat16()
        shape = tuple(int(d) for d in t.dims)
        count = int(np.prod(shape, dtype=np.int64))
        if len(t.raw_data) != count * np_dtype.itemsize:
            raise ValueError(f"For 'load', {file_name}: parameter {t.ref_key or t.name!r} holds "
                             f"{len(t.raw_data)} bytes, expected {count * np_dtype.itemsize} for shape {shape} "
                             f"{dtype}: the file is corrupted")
        values.append(np.frombuffer(t.raw_data, dtype=np_dtype.newbyteorder("<")).astype(np_dtype).reshape(shape))
        names.append(t.ref_key or t.name.split(":", 1)[-1])
    expected = exported.in_avals[:len(values)]
    for name, value, aval in zip(names, values, expected):
        if tuple(value.shape) != tuple(aval.shape) or np.dtype(value.dtype) != np.dtype(aval.dtype):
            raise ValueError(f"For 'load', {file_name}: parameter {name!r} is {value.shape} {value.dtype} but the "
                             f"program expects {aval.shape} {aval.dtype}: the file is corrupted")
    return MindIRProgram(exported, names, values, file_name)


def _bfloat16() -> np.dtype:
    import ml_dtypes

    return np.dtype(ml_dtypes.bfloat16)
