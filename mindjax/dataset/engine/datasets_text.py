"""``mindspore.dataset.engine.datasets_text``: the text dataset sources."""
from mindjax.dataset.text_file import TextFileDataset

__all__ = ["TextFileDataset"]
