"""MindSpore 1.x name of :mod:`mindjax.dataset.vision`."""
from mindjax.dataset.vision import *  # noqa: F401,F403
from mindjax.dataset.vision import __all__  # noqa: F401
