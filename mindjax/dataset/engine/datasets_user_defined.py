"""``mindspore.dataset.engine.datasets_user_defined``: sources over Python objects."""
from mindjax.dataset.generated import PaddedDataset, RandomDataset
from mindjax.dataset.sources import GeneratorDataset, NumpySlicesDataset

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "PaddedDataset", "RandomDataset"]
