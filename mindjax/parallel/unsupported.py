"""MindSpore ``ms.parallel`` helpers with no counterpart here, each naming what to do instead.

MindJAX's parameters are global ``jax.Array``s: a checkpoint holds every
parameter whole, whatever the mesh, and loads onto any mesh. MindSpore's
sliced checkpoints and strategy files are converted by
:mod:`.checkpoint_transform` and ``mindjax.train.serialization.distributed``;
the helpers left here raise ``NotImplementedError`` with the way to get the
same result.
"""
from __future__ import annotations

from typing import Any, Callable, NoReturn

__all__ = ["set_op_strategy_config", "sync_pipeline_shared_parameters"]


def _unsupported(name: str, alternative: str) -> Callable[..., NoReturn]:
    def raise_it(*args: Any, **kwargs: Any) -> NoReturn:
        raise NotImplementedError(f"'mindjax.parallel.{name}' is not supported: {alternative}")

    raise_it.__name__ = raise_it.__qualname__ = name
    raise_it.__doc__ = (f"MindSpore's ``{name}``; not supported here.\n\nRaises:\n    NotImplementedError: "
                        f"always, naming the alternative: {alternative}.")
    return raise_it


set_op_strategy_config = _unsupported("set_op_strategy_config",
                                      "set strategies in code with Primitive.shard / Cell.shard, and read the "
                                      "plan with ms.parallel.get_strategy(net)")

def sync_pipeline_shared_parameters(net: Any) -> None:
    """MindSpore's ``sync_pipeline_shared_parameters``: nothing to do here.

    A weight that the Cells of two stages share (a tied embedding) is left out
    of the stage layout: it stays whole on every stage device and its
    gradients are summed over the stages, so it is always equal.

    Arguments:
        net: the network (unused).
    """
    return None
