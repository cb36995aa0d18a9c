"""``mindspore.nn.layer.basic``: the basic layers (implemented in :mod:`mindjax.cells.layers`)."""
from mindjax.cells.layers.basic import Dense, Dropout, Flatten, Identity, Unflatten
from mindjax.cells.layers.extra import ClipByNorm, Dropout2d, Norm, OneHot, Pad, Tril, Triu, Unfold, Upsample

__all__ = ["Dropout", "Flatten", "Dense", "ClipByNorm", "Norm", "OneHot", "Pad", "Unfold", "Tril", "Triu",
           "Dropout2d", "Upsample", "Identity", "Unflatten"]
