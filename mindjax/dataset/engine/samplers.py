"""``mindspore.dataset.engine.samplers``: the samplers and the ``Shuffle`` modes."""
from mindjax.dataset.mind_dataset import Shuffle
from mindjax.dataset.samplers import (BuiltinSampler, DistributedSampler, PKSampler, RandomSampler, Sampler,
                                      SequentialSampler, SubsetRandomSampler, SubsetSampler, WeightedRandomSampler)

__all__ = ["BuiltinSampler", "DistributedSampler", "PKSampler", "RandomSampler", "Sampler", "SequentialSampler",
           "SubsetRandomSampler", "SubsetSampler", "WeightedRandomSampler", "Shuffle"]
