"""Image transforms (``mindspore.dataset.vision``), on numpy and Pillow."""
from mindjax.dataset.vision import transforms
from mindjax.dataset.vision.transforms import *  # noqa: F401,F403

__all__ = ["transforms", *transforms.__all__]
