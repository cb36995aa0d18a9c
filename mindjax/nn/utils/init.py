"""MindSpore's ``mindspore.nn.utils.init``: ``no_init_parameters``, implemented with Parameter in the cells layer."""
from mindjax.cells.parameter import no_init_parameters

__all__ = ["no_init_parameters"]
