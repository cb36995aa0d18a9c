"""``mindspore.dataset.engine.datasets_standard_format``: sources over standard file formats."""
from mindjax.dataset.mind_dataset import MindDataset

__all__ = ["MindDataset"]
