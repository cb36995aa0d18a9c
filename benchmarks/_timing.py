"""Timing helpers shared by the benchmark scripts."""
from __future__ import annotations

import time
from typing import Any, Callable

import jax


def per_call_seconds(fn: Callable[[], Any], *, repeat: int = 7, number: int = 200,
                     timer: Callable[[], float] = time.perf_counter) -> float:
    """Best-of-``repeat`` mean seconds per call of ``fn`` (results are blocked on).

    ``timer=time.process_time`` counts this process's CPU time (all its threads), which
    other jobs on a loaded machine disturb less than the wall clock.
    """
    jax.block_until_ready(fn())  # compile and warm up
    best = float("inf")
    for _ in range(repeat):
        start = timer()
        for _ in range(number):
            out = fn()
        jax.block_until_ready(out)
        best = min(best, (timer() - start) / number)
    return best


def markdown_table(header: list[str], rows: list[list[Any]]) -> str:
    """A GitHub markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
