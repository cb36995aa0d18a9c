"""``mindspore.common.recompute``: the function form ``recompute(block, *args, ...)``.

It is implemented in :mod:`mindjax.transforms.custom_grad` (``jax.checkpoint``),
beside ``Cell.recompute()``; this module names it where MindSpore's code imports it from.
"""
from mindjax.transforms.custom_grad import recompute

__all__ = ["recompute"]
