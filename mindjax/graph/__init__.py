"""``mindspore.graph``: what shapes a compiled (GRAPH mode) call.

Its submodules hold ``mutable`` (:mod:`mindjax.graph.mutable`), ``lazy_inline``
and ``no_inline`` (:mod:`mindjax.graph.lazy_inline`, :mod:`mindjax.graph.no_inline`),
``Symbol`` (:mod:`mindjax.graph.symbol`), ``enable_dynamic``
(:mod:`mindjax.graph.dynamic_shape`) and ``set_recursion_limit``
(:mod:`mindjax.graph.api`); each is exported at ``mindjax``'s top level.
MindSpore's custom graph passes and backends (``register_custom_pass`` ...) have
no counterpart: XLA compiles the program.
"""
