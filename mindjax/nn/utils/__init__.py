"""MindSpore's ``mindspore.nn.utils``: ``no_init_parameters`` (module ``init``)."""
from mindjax.nn.utils import init
from mindjax.nn.utils.init import no_init_parameters

__all__ = ["no_init_parameters"]
