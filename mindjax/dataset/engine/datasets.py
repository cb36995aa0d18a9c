"""``mindspore.dataset.engine.datasets``: the ``Dataset`` base, its operations and every source."""
from mindjax.dataset.dataset import BatchInfo, Dataset
from mindjax.dataset.engine.datasets_standard_format import MindDataset
from mindjax.dataset.engine.datasets_user_defined import GeneratorDataset, NumpySlicesDataset
from mindjax.dataset.engine.datasets_vision import Cifar10Dataset, ImageFolderDataset, MnistDataset
from mindjax.dataset.ops import zip_datasets as zip  # noqa: A001 - mindspore.dataset.zip

__all__ = ["Dataset", "BatchInfo", "GeneratorDataset", "NumpySlicesDataset", "MnistDataset", "Cifar10Dataset",
           "ImageFolderDataset", "MindDataset", "zip"]
