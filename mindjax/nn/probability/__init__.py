"""``mindjax.nn.probability``: MindSpore's ``mindspore.nn.probability`` (``distribution`` and ``bijector``)."""
from mindjax.nn.probability import bijector, distribution

__all__ = ["bijector", "distribution"]
