"""MindSpore's ``mindspore.dataset.engine`` module paths, over MindJAX's dataset modules.

User code imports from these paths (``from mindspore.dataset.engine.datasets import
Dataset``); each module here re-exports the MindJAX classes that MindSpore defines there.
"""
from mindjax.dataset.engine.datasets import *  # noqa: F401,F403
from mindjax.dataset.engine.datasets import __all__ as _datasets
from mindjax.dataset.engine.samplers import *  # noqa: F401,F403
from mindjax.dataset.engine.samplers import __all__ as _samplers

__all__ = [*_datasets, *_samplers]
