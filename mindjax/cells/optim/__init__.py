"""Placeholder: filled in by the optimizer work."""
__all__: list[str] = []
