"""Image transforms (``mindspore.dataset.vision``), on numpy and Pillow."""
from mindjax.dataset.vision import augment, auto_augment, bbox, color, geometry, transforms, utils
from mindjax.dataset.vision.augment import *  # noqa: F401,F403
from mindjax.dataset.vision.auto_augment import *  # noqa: F401,F403
from mindjax.dataset.vision.bbox import *  # noqa: F401,F403
from mindjax.dataset.vision.color import *  # noqa: F401,F403
from mindjax.dataset.vision.geometry import *  # noqa: F401,F403
from mindjax.dataset.vision.transforms import *  # noqa: F401,F403
from mindjax.dataset.vision.utils import *  # noqa: F401,F403
from mindjax.dataset.transforms.transforms import not_random  # noqa: F401 - also exported here, as in MindSpore

__all__ = ["transforms", "utils", *transforms.__all__, *utils.__all__, *color.__all__, *geometry.__all__,
           *augment.__all__, *auto_augment.__all__, *bbox.__all__]
