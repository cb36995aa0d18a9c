"""MindSpore 1.x name of :mod:`mindjax.dataset.transforms`."""
from mindjax.dataset.transforms.transforms import *  # noqa: F401,F403
from mindjax.dataset.transforms.transforms import __all__  # noqa: F401
