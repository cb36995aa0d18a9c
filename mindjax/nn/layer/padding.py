"""``mindspore.nn.layer.padding`` (implemented in :mod:`mindjax.cells.layers.extra`)."""
from mindjax.cells.layers.extra import ZeroPad2d
from mindjax.cells.layers.padding import ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad2d"]
