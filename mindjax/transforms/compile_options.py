"""XLA options for the programs MindJAX compiles (GRAPH-mode Cells, ``ms.jit``, ``Model``'s steps).

On XLA:CPU the newer fusion emitters make compilation the larger part of a
first training step. With them off, measured here on ResNet- and DenseNet-style
training steps, XLA:CPU compiled in 0.47x and 0.73x the time and the compiled
steps ran as fast (within the machine's noise). The options apply to MindJAX's
own programs only, never to other ``jax.jit`` calls in the process, and not on
other backends.
"""
from __future__ import annotations

from typing import Any

import jax

_CPU_OPTIONS = {"xla_cpu_use_fusion_emitters": False}


def program_compiler_options() -> dict[str, Any] | None:
    """The ``compiler_options`` for ``jax.jit`` of a MindJAX program on the default backend (``None``: XLA's own)."""
    return dict(_CPU_OPTIONS) if jax.default_backend() == "cpu" else None
