"""Placeholder: filled in by the ops work."""
__all__: list[str] = []
