"""``mindspore.dataset.engine.datasets``: the ``Dataset`` base, its operations and every source."""
from mindjax.dataset.dataset import BatchInfo, Dataset
from mindjax.dataset.engine.datasets_standard_format import CSVDataset, MindDataset, TFRecordDataset
from mindjax.dataset.engine.datasets_text import TextFileDataset
from mindjax.dataset.engine.datasets_user_defined import (GeneratorDataset, NumpySlicesDataset, PaddedDataset,
                                                          RandomDataset)
from mindjax.dataset.engine.datasets_vision import (Cifar10Dataset, Cifar100Dataset, CocoDataset, EMnistDataset,
                                                    FashionMnistDataset, ImageFolderDataset, KMnistDataset,
                                                    ManifestDataset, MnistDataset, QMnistDataset, STL10Dataset,
                                                    SVHNDataset, VOCDataset)
from mindjax.dataset.ops import ConcatNode as ConcatDataset
from mindjax.dataset.schema import Schema
from mindjax.dataset.ops import zip_datasets as zip  # noqa: A001 - mindspore.dataset.zip

__all__ = ["Dataset", "BatchInfo", "GeneratorDataset", "NumpySlicesDataset", "MnistDataset", "Cifar10Dataset",
           "ImageFolderDataset", "MindDataset", "zip", "CSVDataset", "TFRecordDataset", "TextFileDataset",
           "PaddedDataset", "RandomDataset", "Cifar100Dataset", "CocoDataset", "EMnistDataset", "FashionMnistDataset",
           "KMnistDataset", "ManifestDataset", "QMnistDataset", "STL10Dataset", "SVHNDataset", "VOCDataset",
           "ConcatDataset", "Schema"]
