"""``mindspore.dataset.engine.datasets_vision``: the image dataset sources."""
from mindjax.dataset.cifar import Cifar10Dataset, Cifar100Dataset
from mindjax.dataset.image_folder import ImageFolderDataset
from mindjax.dataset.mnist import EMnistDataset, FashionMnistDataset, KMnistDataset, MnistDataset, QMnistDataset
from mindjax.dataset.vision_datasets import CocoDataset, ManifestDataset, STL10Dataset, SVHNDataset, VOCDataset

__all__ = ["MnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset", "FashionMnistDataset",
           "KMnistDataset", "EMnistDataset", "QMnistDataset", "SVHNDataset", "STL10Dataset", "ManifestDataset",
           "CocoDataset", "VOCDataset"]
