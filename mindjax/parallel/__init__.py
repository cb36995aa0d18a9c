"""``mindjax.parallel``: the device mesh, Layout, strategies as shardings, data and semi-auto parallel.

Importing it installs the strategy hook of ``ops`` Primitives (see :mod:`.shard`).
"""
from mindjax.parallel import layout, mesh, shard as _shard_module, strategy
from mindjax.parallel.layout import Layout
from mindjax.parallel.mesh import *  # noqa: F401,F403
from mindjax.parallel.shard import place, reshard, shard, shard_cell, strategies_active
from mindjax.parallel import data_parallel, optimizer_parallel
from mindjax.parallel.data_parallel import shard_batch
from mindjax.parallel.auto import auto_parallel, get_strategy, search_plan
from mindjax.parallel import compiled_calls as _compiled_calls  # noqa: F401 - registers parallel_plan
from mindjax.parallel.pipeline import PipelineCell
from mindjax.parallel import algo, checkpoint_transform, strategy_file, unsupported
from mindjax.parallel.checkpoint_transform import *  # noqa: F401,F403
from mindjax.parallel.algo import *  # noqa: F401,F403
from mindjax.parallel.grad_reducer import DistributedGradReducer
from mindjax.parallel import micro_batch
from mindjax.parallel import per_device as _per_device_module
from mindjax.parallel.per_device import per_device
from mindjax.parallel.micro_batch import *  # noqa: F401,F403
from mindjax.parallel.unsupported import *  # noqa: F401,F403
from mindjax.parallel.broadcast import parameter_broadcast

__all__ = (["Layout", "reshard", "shard", "shard_cell", "place", "strategies_active", "shard_batch",
            "auto_parallel", "get_strategy", "search_plan", "PipelineCell", "DistributedGradReducer",
            "per_device", "parameter_broadcast"]
           + list(mesh.__all__) + list(algo.__all__) + list(unsupported.__all__) + list(micro_batch.__all__)
           + list(checkpoint_transform.__all__))
