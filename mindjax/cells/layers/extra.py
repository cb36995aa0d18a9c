"""More of MindSpore's ``mindspore.nn`` layers (being filled in)."""
from __future__ import annotations

__all__: list[str] = []
