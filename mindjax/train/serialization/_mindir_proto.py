"""MindSpore's MindIR protobuf schema (``mind_ir.proto``), built at run time from a descriptor.

The message classes are made with ``google.protobuf.descriptor_pb2`` and
``message_factory`` in a private descriptor pool, so they never clash with
MindSpore's own generated module when both are imported in one process. Only
the messages MindJAX writes or reads are declared; their field numbers and
types are those of MindSpore 2.10's schema, so the bytes are MindIR on the
wire. Fields this schema leaves out are kept as unknown fields when a file is
parsed, never dropped silently on a read.
"""
from __future__ import annotations

import functools
from typing import Any

__all__ = ["messages", "ATTR", "DTYPE", "NP_TO_DTYPE", "DTYPE_TO_NP"]

# AttributeProto.AttributeType (the subset MindJAX writes, plus the container kinds).
ATTR = {"UNDEFINED": 0, "FLOAT": 1, "UINT8": 2, "INT8": 3, "UINT16": 4, "INT16": 5, "INT32": 6, "INT64": 7,
        "STRING": 8, "BOOL": 9, "FLOAT16": 10, "DOUBLE": 11, "UINT32": 12, "UINT64": 13, "COMPLEX64": 14,
        "COMPLEX128": 15, "BFLOAT16": 16, "TENSOR": 17, "GRAPH": 18, "TENSORS": 19, "TUPLE": 20, "LIST": 21,
        "DICT": 22, "UMONAD": 23, "IOMONAD": 24, "NONE": 25, "TYPE_NULL": 36, "SCALAR": 39}
# TensorProto.DataType.
DTYPE = {"UNDEFINED": 0, "FLOAT": 1, "UINT8": 2, "INT8": 3, "UINT16": 4, "INT16": 5, "INT32": 6, "INT64": 7,
         "STRING": 8, "BOOL": 9, "FLOAT16": 10, "DOUBLE": 11, "UINT32": 12, "UINT64": 13, "COMPLEX64": 14,
         "COMPLEX128": 15, "BFLOAT16": 16, "FLOAT64": 17}
NP_TO_DTYPE = {"float32": 1, "uint8": 2, "int8": 3, "uint16": 4, "int16": 5, "int32": 6, "int64": 7, "bool": 9,
               "float16": 10, "float64": 11, "uint32": 12, "uint64": 13, "complex64": 14, "complex128": 15,
               "bfloat16": 16}
DTYPE_TO_NP = {v: k for k, v in NP_TO_DTYPE.items()}
DTYPE_TO_NP[17] = "float64"

# (name, number, label, type, message or enum type name); labels: 1 optional, 3 repeated.
_OPT, _REP = 1, 3
_DOUBLE, _FLOAT, _INT64, _UINT64, _INT32, _BOOL, _STRING, _MESSAGE, _BYTES, _ENUM = 1, 2, 3, 4, 5, 8, 9, 11, 12, 14

_MESSAGES: dict[str, Any] = {
    "AttributeProto": {
        "enums": {"AttributeType": ATTR},
        "nested": {"SeqInfoProto": [("is_dyn_len", 1, _OPT, _BOOL, None),
                                    ("tuple_elem_item", 2, _OPT, _MESSAGE, ".mind_ir.AttributeProto")]},
        "fields": [("name", 1, _OPT, _STRING, None), ("f", 2, _OPT, _FLOAT, None), ("i", 3, _OPT, _INT64, None),
                   ("d", 4, _OPT, _DOUBLE, None), ("s", 5, _OPT, _BYTES, None),
                   ("t", 6, _OPT, _MESSAGE, ".mind_ir.TensorProto"), ("g", 7, _OPT, _MESSAGE, ".mind_ir.GraphProto"),
                   ("floats", 8, _REP, _FLOAT, None), ("doubles", 9, _REP, _DOUBLE, None),
                   ("ints", 10, _REP, _INT64, None), ("strings", 11, _REP, _BYTES, None),
                   ("tensors", 12, _REP, _MESSAGE, ".mind_ir.TensorProto"),
                   ("graphs", 13, _REP, _MESSAGE, ".mind_ir.GraphProto"), ("doc_string", 14, _OPT, _STRING, None),
                   ("ref_attr_name", 15, _OPT, _STRING, None),
                   ("type", 16, _OPT, _ENUM, ".mind_ir.AttributeProto.AttributeType"),
                   ("values", 17, _REP, _MESSAGE, ".mind_ir.AttributeProto"),
                   ("seq_info", 18, _OPT, _MESSAGE, ".mind_ir.AttributeProto.SeqInfoProto")]},
    "ValueInfoProto": {
        "fields": [("name", 1, _OPT, _STRING, None), ("tensor", 2, _REP, _MESSAGE, ".mind_ir.TensorProto"),
                   ("doc_string", 3, _OPT, _STRING, None), ("denotation", 4, _OPT, _STRING, None),
                   ("attr_info", 5, _OPT, _MESSAGE, ".mind_ir.AttributeProto")]},
    "NodeProto": {
        "fields": [("input", 1, _REP, _STRING, None), ("output", 2, _REP, _STRING, None),
                   ("name", 3, _OPT, _STRING, None), ("op_type", 4, _OPT, _STRING, None),
                   ("attribute", 5, _REP, _MESSAGE, ".mind_ir.AttributeProto"),
                   ("doc_string", 6, _OPT, _STRING, None), ("domain", 7, _OPT, _STRING, None),
                   ("node_attr", 8, _REP, _MESSAGE, ".mind_ir.AttributeProto"),
                   ("primal_attr", 9, _REP, _MESSAGE, ".mind_ir.AttributeProto")]},
    "ModelProto": {
        "nested": {"UserInfoEntry": [("key", 1, _OPT, _STRING, None), ("value", 2, _OPT, _STRING, None)]},
        "map_entries": {"UserInfoEntry"},
        "fields": [("ir_version", 1, _OPT, _STRING, None), ("producer_name", 2, _OPT, _STRING, None),
                   ("producer_version", 3, _OPT, _STRING, None), ("domain", 4, _OPT, _STRING, None),
                   ("model_version", 5, _OPT, _STRING, None), ("doc_string", 6, _OPT, _STRING, None),
                   ("graph", 7, _OPT, _MESSAGE, ".mind_ir.GraphProto"),
                   ("functions", 8, _REP, _MESSAGE, ".mind_ir.GraphProto"),
                   ("little_endian", 10, _OPT, _BOOL, None),
                   ("primitives", 12, _REP, _MESSAGE, ".mind_ir.PrimitiveProto"),
                   ("mind_ir_version", 13, _OPT, _INT64, None),
                   ("user_info", 14, _REP, _MESSAGE, ".mind_ir.ModelProto.UserInfoEntry")]},
    "GraphProto": {
        "fields": [("node", 1, _REP, _MESSAGE, ".mind_ir.NodeProto"), ("name", 2, _OPT, _STRING, None),
                   ("parameter", 3, _REP, _MESSAGE, ".mind_ir.TensorProto"), ("doc_string", 4, _OPT, _STRING, None),
                   ("input", 5, _REP, _MESSAGE, ".mind_ir.ValueInfoProto"),
                   ("output", 6, _REP, _MESSAGE, ".mind_ir.ValueInfoProto"), ("bprop_hash", 7, _OPT, _STRING, None),
                   ("attribute", 8, _REP, _MESSAGE, ".mind_ir.AttributeProto"),
                   ("bprop_filepath", 9, _OPT, _STRING, None)]},
    "TensorProto": {
        "enums": {"DataType": DTYPE, "CompressionType": {"NO_COMPRESSION": 0, "INDEXING": 1, "SPARSE": 2, "FSE": 3,
                                                         "BIT_PACKING": 4, "FSE_INT": 5, "FSE_INFER": 6}},
        "nested": {"ExternalDataProto": [("location", 1, _OPT, _STRING, None), ("offset", 2, _OPT, _INT64, None),
                                         ("length", 3, _OPT, _INT64, None)]},
        "fields": [("dims", 1, _REP, _INT64, None), ("data_type", 2, _OPT, _INT32, None),
                   ("float_data", 3, _REP, _FLOAT, None), ("int32_data", 4, _REP, _INT32, None),
                   ("string_data", 5, _REP, _BYTES, None), ("int64_data", 6, _REP, _INT64, None),
                   ("name", 7, _OPT, _STRING, None), ("doc_string", 8, _OPT, _STRING, None),
                   ("raw_data", 9, _OPT, _BYTES, None), ("double_data", 10, _REP, _DOUBLE, None),
                   ("uint64_data", 11, _REP, _UINT64, None),
                   ("external_data", 12, _OPT, _MESSAGE, ".mind_ir.TensorProto.ExternalDataProto"),
                   ("ref_key", 13, _OPT, _STRING, None), ("min_dims", 14, _REP, _INT64, None),
                   ("max_dims", 15, _REP, _INT64, None),
                   ("compression_type", 16, _OPT, _ENUM, ".mind_ir.TensorProto.CompressionType")]},
    "PrimitiveProto": {
        "enums": {"PrimType": {"PRIMITIVE": 1, "PRIMITIVE_FUNCTION": 2}},
        "fields": [("name", 1, _OPT, _STRING, None), ("op_type", 2, _OPT, _STRING, None),
                   ("attribute", 3, _REP, _MESSAGE, ".mind_ir.AttributeProto"),
                   ("instance_name", 4, _OPT, _STRING, None),
                   ("prim_type", 5, _OPT, _ENUM, ".mind_ir.PrimitiveProto.PrimType")]},
}


def _add_fields(message: Any, fields: list[tuple[str, int, int, int, str | None]]) -> None:
    for name, number, label, type_, type_name in fields:
        field = message.field.add(name=name, number=number, label=label, type=type_)
        if type_name is not None:
            field.type_name = type_name


def _file_descriptor() -> Any:
    from google.protobuf import descriptor_pb2

    fdp = descriptor_pb2.FileDescriptorProto(name="mindjax_mind_ir.proto", package="mind_ir", syntax="proto2")
    for name, spec in _MESSAGES.items():
        message = fdp.message_type.add(name=name)
        for enum_name, values in spec.get("enums", {}).items():
            enum = message.enum_type.add(name=enum_name)
            for value_name, number in values.items():
                enum.value.add(name=value_name, number=number)
        for nested_name, fields in spec.get("nested", {}).items():
            nested = message.nested_type.add(name=nested_name)
            _add_fields(nested, fields)
            if nested_name in spec.get("map_entries", ()):
                nested.options.map_entry = True
        _add_fields(message, spec["fields"])
    return fdp


@functools.lru_cache(maxsize=None)
def messages() -> dict[str, type]:
    """The MindIR message classes by name (``ModelProto``, ``GraphProto``, ``NodeProto``, ...)."""
    from google.protobuf import descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    pool.Add(_file_descriptor())
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"mind_ir.{name}"))
            for name in _MESSAGES}
