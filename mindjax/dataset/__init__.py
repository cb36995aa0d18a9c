"""Datasets and transforms with ``mindspore.dataset``'s API, on grain.

Example:
    >>> import numpy as np
    >>> import mindjax.dataset as ds
    >>> data = ds.NumpySlicesDataset({"x": np.arange(6, dtype=np.float32)}, shuffle=False).batch(4)
    >>> [b[0].shape for b in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    [(4,), (2,)]
"""
from mindjax.dataset import audio, config, text, transforms, vision
from mindjax.dataset.callback import DSCallback
from mindjax.dataset.cifar import Cifar10Dataset, Cifar100Dataset
from mindjax.dataset.dataset import BatchInfo, Dataset
from mindjax.dataset.image_folder import ImageFolderDataset
from mindjax.dataset.iterators import DeviceIterator, TupleIterator
from mindjax.dataset.mind_dataset import MindDataset, Shuffle
from mindjax.dataset.config import (ErrorSamplesMode, get_callback_timeout, get_debug_mode, get_enable_watchdog,
                                    get_error_samples_mode, get_multiprocessing_start_method,
                                    get_multiprocessing_timeout_interval, get_num_parallel_workers, get_seed,
                                    get_video_backend, set_seed, set_video_backend)
from mindjax.dataset.generated import PaddedDataset, RandomDataset
from mindjax.dataset.mnist import EMnistDataset, FashionMnistDataset, KMnistDataset, MnistDataset, QMnistDataset
from mindjax.dataset.ops import ConcatNode as ConcatDataset
from mindjax.dataset.schema import Schema
from mindjax.dataset.text_file import CSVDataset, TextFileDataset, TFRecordDataset
from mindjax.dataset.vision_datasets import CocoDataset, ManifestDataset, STL10Dataset, SVHNDataset, VOCDataset
from mindjax.dataset.ops import zip_datasets as zip  # noqa: A001 - mindspore.dataset.zip
from mindjax.dataset.samplers import (DistributedSampler, PKSampler, RandomSampler, Sampler, SequentialSampler,
                                      SubsetRandomSampler, SubsetSampler, WeightedRandomSampler)
from mindjax.dataset.sources import GeneratorDataset, NumpySlicesDataset

__all__ = ["config", "transforms", "vision", "text", "audio", "Dataset", "BatchInfo", "GeneratorDataset", "NumpySlicesDataset",
           "MnistDataset", "MindDataset", "Shuffle", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset", "TupleIterator", "DeviceIterator", "zip",
           "SequentialSampler", "RandomSampler", "DistributedSampler", "SubsetSampler", "SubsetRandomSampler",
           "WeightedRandomSampler", "PKSampler", "Sampler", "FashionMnistDataset", "KMnistDataset", "EMnistDataset",
           "QMnistDataset", "ConcatDataset", "PaddedDataset", "RandomDataset", "Schema", "CSVDataset",
           "TextFileDataset", "TFRecordDataset", "get_seed", "set_seed", "get_num_parallel_workers",
           "get_callback_timeout", "get_debug_mode", "get_enable_watchdog", "get_error_samples_mode",
           "get_multiprocessing_start_method", "get_multiprocessing_timeout_interval", "get_video_backend",
           "set_video_backend", "ErrorSamplesMode",
           "DSCallback", "WaitedDSCallback", "SVHNDataset", "STL10Dataset", "ManifestDataset", "CocoDataset",
           "VOCDataset"]


def __getattr__(name: str) -> object:
    # WaitedDSCallback is also a training Callback: built when first asked for (mindjax.train loads then).
    if name == "WaitedDSCallback":
        from mindjax.dataset import callback as _callback

        return _callback.WaitedDSCallback
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
