"""Placeholder: filled in by the loss work."""
__all__: list[str] = []
