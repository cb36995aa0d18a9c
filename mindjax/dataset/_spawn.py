"""Whether worker processes can be started from here.

grain starts its worker processes with ``spawn``: each child re-runs the
main script (as ``__mp_main__``) before it unpickles the pipeline.
MindSpore starts its workers with ``fork``, so MindSpore scripts often build
and iterate pipelines at module level, without an
``if __name__ == "__main__":`` guard. Spawned from such a script, every
child would run the whole script again and die starting workers of its own;
from an interactive session (no script file) a child cannot find the
pipeline's functions at all. In both cases the Python work runs in threads
instead, with one warning. Without a script and outside an interactive
session (``python -c``, pytest-xdist workers) processes are safe.
"""
from __future__ import annotations

import ast
import builtins
import functools
import sys
import warnings
from typing import Any, Sequence

__all__: list[str] = []

_warned = False


def _is_main_guard(test: ast.expr) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    consts = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(consts) == 1


@functools.lru_cache(maxsize=8)
def _guarded_lines(path: str) -> tuple[tuple[int, int], ...] | None:
    """Line ranges of the top-level ``if __name__ == "__main__":`` bodies of ``path`` (``None``: unreadable)."""
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read(), filename=path)
    except (OSError, SyntaxError, ValueError):
        return None
    ranges = []
    for node in tree.body:
        if isinstance(node, ast.If) and _is_main_guard(node.test) and node.body:
            ranges.append((node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno))
    return tuple(ranges)


def _defined_in_main(obj: Any) -> bool:
    return getattr(obj, "__module__", None) == "__main__" or type(obj).__module__ == "__main__"


def main_module_is_spawn_safe(callables: Sequence[Any] = ()) -> bool:
    """Whether a spawned child can re-run ``__main__`` without re-running this call.

    True when the main script's module-level code reached here from inside its
    ``__main__`` guard (or does not appear on the stack at all), and when there
    is no script to re-run; false for an unguarded script and for interactive
    sessions (IPython, Jupyter, the REPL).
    """
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if not path:
        # Nothing to re-run (``python -c``, pytest-xdist workers), unless this is an interactive
        # session, or the pipeline's Python code lives in ``__main__``: a child cannot find it.
        if hasattr(builtins, "__IPYTHON__") or hasattr(sys, "ps1") or sys.flags.interactive:
            return False
        return not any(_defined_in_main(c) for c in callables)
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") == "__main__":
            ranges = _guarded_lines(frame.f_code.co_filename)
            if ranges is None:
                return False
            return any(lo <= frame.f_lineno <= hi for lo, hi in ranges)
        frame = frame.f_back
    return True


def processes_allowed(callables: Sequence[Any] = ()) -> bool:
    """:func:`main_module_is_spawn_safe` for a pipeline's Python callables, warning once when it says no."""
    global _warned
    if main_module_is_spawn_safe(callables):
        return True
    if not _warned:
        _warned = True
        warnings.warn("mindjax.dataset: python_multiprocessing runs in threads here: worker processes are "
                      "spawned and would re-run this script's module-level code (MindSpore forks instead). "
                      "Put the pipeline under `if __name__ == \"__main__\":` to use processes.",
                      RuntimeWarning, stacklevel=3)
    return False
