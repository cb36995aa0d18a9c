"""``mindspore.dataset.engine.datasets_user_defined``: sources over Python objects."""
from mindjax.dataset.sources import GeneratorDataset, NumpySlicesDataset

__all__ = ["GeneratorDataset", "NumpySlicesDataset"]
