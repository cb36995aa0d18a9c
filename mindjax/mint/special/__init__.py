"""``mindspore.mint.special``: the special functions, the same functions as ``mindjax.mint``'s."""
from mindjax.mint import erfc, exp2, expm1, log1p, round, sinc
from mindjax.mint.nn.functional import log_softmax

__all__ = ["erfc", "exp2", "expm1", "log1p", "log_softmax", "round", "sinc"]
