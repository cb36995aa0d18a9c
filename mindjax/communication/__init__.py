"""``mindjax.communication``: process groups over ``jax.distributed`` (MindSpore's ``communication``).

``init()`` joins the job through the XLA coordination service, reading the
environment that ``mindjax-run`` sets (or MindSpore's ``msrun`` names, or a
cluster JAX detects: SLURM, Open MPI ...). Collectives on CPU use gloo.
Ranks count processes: one process drives all its local devices, so
``get_rank()``/``get_group_size()`` are what a dataset shards by.
"""
from mindjax.communication import management
from mindjax.communication.management import *  # noqa: F401,F403

__all__ = list(management.__all__)


def __getattr__(name: str) -> object:
    # ``comm_func`` sits on ops (which imports this package): loaded on first use.
    if name == "comm_func":
        import importlib

        return importlib.import_module("mindjax.communication.comm_func")
    raise AttributeError(f"module 'mindjax.communication' has no attribute {name!r}")
