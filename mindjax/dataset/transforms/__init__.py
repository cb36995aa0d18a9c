"""General dataset transforms (``mindspore.dataset.transforms``)."""
from mindjax.dataset.transforms import transforms as _transforms
from mindjax.dataset.transforms.base import RandomTransform, Transform
from mindjax.dataset.transforms.transforms import *  # noqa: F401,F403

__all__ = ["Transform", "RandomTransform", *_transforms.__all__]
