"""``mindspore.mint.special``: the special functions, the same functions as ``mindjax.mint``'s."""
from mindjax import ops as _ops
from mindjax.mint import erfc, exp2, expm1, log1p, sinc
from mindjax.mint._signature import input_named as _input_named
from mindjax.mint.nn.functional import log_softmax

round = _input_named(_ops.round, "round", module="mint.special")  # noqa: A001 - mint.special.round(input)

__all__ = ["erfc", "exp2", "expm1", "log1p", "log_softmax", "round", "sinc"]
