"""``mindspore.graph.mutable``: :func:`mutable`, kept in :mod:`mindjax.common.mutable`
(the layer below the compiled calls that read its marks)."""
from mindjax.common.mutable import mutable

__all__ = ["mutable"]
