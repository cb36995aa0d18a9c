"""``mindspore.nn.layer.basic``: the basic layers (implemented in :mod:`mindjax.cells.layers`)."""
from mindjax.cells.layers.basic import Dense, Dropout, Flatten, Identity, Unflatten
from mindjax.cells.layers.extra import ClipByNorm, Dropout2d, Norm, OneHot, Pad, Tril, Triu, Unfold, Upsample
from mindjax.cells.layers.dropout_extra import Dropout1d, Dropout3d
from mindjax.cells.layers.linear import Linear
from mindjax.cells.layers.shuffle import Roll
from mindjax.cells.layers.math_image import L1Regularizer, MatrixDiag, MatrixDiagPart, MatrixSetDiag

from mindjax.cells.layers.ext import DropoutExt, Dropout2dExt

__all__ = ["L1Regularizer", "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag", "Dropout1d", "Dropout3d", "Linear", "Roll", "Dropout", "Flatten", "Dense", "ClipByNorm", "Norm", "OneHot", "Pad", "Unfold", "Tril", "Triu",
           "Dropout2d", "Upsample", "Identity", "Unflatten"]
__all__ += ["DropoutExt", "Dropout2dExt"]
