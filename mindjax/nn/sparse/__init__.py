"""``mindspore.nn.sparse``: the sparse Cells."""
from mindjax.nn.sparse import sparse
from mindjax.nn.sparse.sparse import SparseTensorDenseMatmul, SparseToDense

__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]
