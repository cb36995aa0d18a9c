"""Placeholder: filled in by the layer work."""
__all__: list[str] = []
