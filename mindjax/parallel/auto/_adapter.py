"""What the auto-parallel search needs from the rest of ``mindjax.parallel``, in one place.

The mesh and context helpers of ``mindjax.parallel`` are written alongside this
package; reaching them only through here keeps the search usable on its own.
"""
from __future__ import annotations

from typing import Any


def context_mesh() -> Any:
    """The mesh the parallel context built, or None when it has built none."""
    try:
        from mindjax.parallel import mesh as mesh_module  # type: ignore[attr-defined]
    except ImportError:
        return None
    for name in ("get_mesh", "current_mesh", "global_mesh"):
        fn = getattr(mesh_module, name, None)
        if callable(fn):
            try:
                found = fn()
            except Exception:  # noqa: BLE001 - no mesh configured yet
                return None
            return found
    return None
