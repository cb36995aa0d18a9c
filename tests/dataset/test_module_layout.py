"""mindjax.dataset, .text, .audio and mindjax.mindrecord have MindSpore's module paths and names."""
import importlib

import pytest

import mindjax.dataset as ds


@pytest.mark.parametrize("path, names", [
    ("mindjax.dataset.engine.datasets", ["Dataset", "GeneratorDataset", "MnistDataset", "MindDataset"]),
    ("mindjax.dataset.engine.datasets_vision", ["MnistDataset", "Cifar10Dataset", "ImageFolderDataset"]),
    ("mindjax.dataset.engine.datasets_user_defined", ["GeneratorDataset", "NumpySlicesDataset"]),
    ("mindjax.dataset.engine.datasets_standard_format", ["MindDataset"]),
    ("mindjax.dataset.engine.samplers", ["PKSampler", "Sampler", "Shuffle"]),
    ("mindjax.dataset.engine", ["GeneratorDataset", "DistributedSampler"]),
    ("mindjax.dataset.text", ["Vocab", "Lookup", "BertTokenizer", "NormalizeForm", "to_str"]),
    ("mindjax.dataset.text.transforms", ["Ngram", "SlidingWindow", "TruncateSequencePair"]),
    ("mindjax.dataset.audio", ["Spectrogram", "MelScale", "FrequencyMasking", "ScaleType", "melscale_fbanks"]),
    ("mindjax.dataset.transforms", ["Fill", "PadEnd", "TypeCast"]),
    ("mindjax.dataset.vision", ["Pad", "Border"]),
    ("mindjax.mindrecord", ["FileWriter", "FileReader", "MRMInvalidSchemaError"]),
    ("mindjax.mindrecord.common.exceptions", ["ParamValueError", "MRMDefineIndexError"]),
])
def test_mindspore_module_paths_hold_their_names(path, names):
    module = importlib.import_module(path)
    for name in names:
        assert hasattr(module, name), f"{path} lacks {name}"


def test_engine_paths_are_the_same_classes():
    from mindjax.dataset.engine.datasets_vision import MnistDataset

    assert MnistDataset is ds.MnistDataset and ds.Shuffle.GLOBAL == "global"
