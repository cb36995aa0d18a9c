"""``mindjax.nn``: MindSpore's ``mindspore.nn`` namespace (the ``cells`` layer)."""
from mindjax.cells import *  # noqa: F401,F403
from mindjax.cells import __all__  # noqa: F401
