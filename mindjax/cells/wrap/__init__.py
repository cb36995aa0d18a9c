"""Placeholder: filled in by the training work."""
__all__: list[str] = []
