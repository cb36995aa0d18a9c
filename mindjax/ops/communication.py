"""MindSpore's ``mindspore.ops.communication``: the collectives of ``ops`` (:mod:`mindjax.ops.function.comm_func`)."""
from mindjax.ops.function.comm_func import *  # noqa: F401,F403
from mindjax.ops.function.comm_func import __all__ as _all
from mindjax.ops.function.comm_func import gather, scatter  # noqa: F401 - MindSpore's module has them too

__all__ = list(_all) + ["gather", "scatter"]
