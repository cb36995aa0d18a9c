"""MindSpore's ``nn.probability.distribution._utils`` package: the distributions' shared checks
and conversions (module ``utils``)."""
from mindjax.nn.probability.distribution._utils import utils
from mindjax.nn.probability.distribution._utils.utils import *  # noqa: F401,F403
from mindjax.nn.probability.distribution._utils.utils import __all__  # noqa: F401
