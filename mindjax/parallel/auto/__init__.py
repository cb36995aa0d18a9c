"""AUTO_PARALLEL: a cost-model search over per-op strategies taken from the jaxpr.

``auto_parallel(network, *inputs)`` traces the network, searches a plan
(``recursive_programming`` with no annotations, or ``sharding_propagation``
around the user's sharded ops) and returns a Cell that runs it on GSPMD;
``get_strategy`` shows the plan; :mod:`.hlo` and :mod:`.verify` check it
against XLA, and with ``verify=True`` :mod:`.choose` picks among candidate
plans by their compiled memory and collectives. :mod:`.training` applies the
search in ``Model.train`` under ``AUTO_PARALLEL``.
"""
from mindjax.parallel.auto.choose import *  # noqa: F401,F403
from mindjax.parallel.auto.cost import *  # noqa: F401,F403
from mindjax.parallel.auto.graph import *  # noqa: F401,F403
from mindjax.parallel.auto.hlo import *  # noqa: F401,F403
from mindjax.parallel.auto.plan import *  # noqa: F401,F403
from mindjax.parallel.auto.rules import Spec, Strategy  # noqa: F401
from mindjax.parallel.auto.verify import *  # noqa: F401,F403
from mindjax.parallel.auto import choose, cost, graph, hlo, plan, verify

__all__ = (choose.__all__ + cost.__all__ + graph.__all__ + hlo.__all__ + plan.__all__ + verify.__all__
           + ["Spec", "Strategy"])
