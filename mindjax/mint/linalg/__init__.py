"""``mindspore.mint.linalg``: the ``mindjax.ops`` linear-algebra functions under mint's argument names."""
from mindjax import ops as _ops
from mindjax.mint._signature import KW_ONLY as _KW, REQUIRED as _REQUIRED, input_named as _input_named, \
    table as _table

_SPECS = {
    "matrix_norm": (_ops.matrix_norm, (("A", _REQUIRED), ("ord", "fro"), ("dim", (-2, -1)), ("keepdim", False), _KW,
                                       ("dtype", None)), {"dim": "axis", "keepdim": "keepdims"}),
    "vector_norm": (_ops.vector_norm, (("x", _REQUIRED), ("ord", 2), ("dim", None), ("keepdim", False), _KW,
                                       ("dtype", None)), {"dim": "axis", "keepdim": "keepdims"}),
    "norm": (_ops.norm, (("A", _REQUIRED), ("ord", None), ("dim", None), ("keepdim", False), _KW, ("dtype", None))),
    "qr": (_ops.qr, (("A", _REQUIRED), ("mode", "reduced")), {"A": "input"}),
}
_table(globals(), _SPECS, module="mint.linalg")
inv = _input_named(_ops.inverse, "inv", module="mint.linalg")

__all__ = ["inv", *_SPECS]
