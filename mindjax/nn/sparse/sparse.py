"""``mindspore.nn.sparse.sparse`` (implemented in :mod:`mindjax.cells.layers.sparse`)."""
from mindjax.cells.layers.sparse import SparseTensorDenseMatmul, SparseToDense

__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]
