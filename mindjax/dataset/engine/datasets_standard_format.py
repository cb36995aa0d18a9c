"""``mindspore.dataset.engine.datasets_standard_format``: sources over standard file formats."""
from mindjax.dataset.mind_dataset import MindDataset
from mindjax.dataset.text_file import CSVDataset, TFRecordDataset

__all__ = ["MindDataset", "CSVDataset", "TFRecordDataset"]
