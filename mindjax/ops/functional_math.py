"""More of MindSpore's ``mindspore.ops`` (being filled in)."""
from __future__ import annotations

__all__: list[str] = []
