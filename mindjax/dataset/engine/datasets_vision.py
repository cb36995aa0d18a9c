"""``mindspore.dataset.engine.datasets_vision``: the image dataset sources."""
from mindjax.dataset.cifar import Cifar10Dataset
from mindjax.dataset.image_folder import ImageFolderDataset
from mindjax.dataset.mnist import MnistDataset

__all__ = ["MnistDataset", "Cifar10Dataset", "ImageFolderDataset"]
