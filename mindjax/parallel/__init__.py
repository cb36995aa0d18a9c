"""``mindjax.parallel``: the device mesh, Layout, strategies as shardings, data and semi-auto parallel."""
from mindjax.parallel import mesh
from mindjax.parallel.mesh import *  # noqa: F401,F403

__all__ = list(mesh.__all__)
