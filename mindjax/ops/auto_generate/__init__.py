"""``mindspore.ops.auto_generate``: the Primitive classes MindSpore generates from its op definitions.

MindSpore's generated Primitives are its ordinary ones (``ops.auto_generate.Norm`` is
the class behind ``ops.norm``); here they are the Primitive classes of
:mod:`mindjax.ops.operations`, re-exported under this path, so it follows that module.
"""
from mindjax.ops import operations as _operations
from mindjax.ops.operations import *  # noqa: F401,F403  (this path names the same classes)

__all__ = list(_operations.__all__)
