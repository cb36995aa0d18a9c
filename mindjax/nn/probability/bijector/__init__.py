"""``mindjax.nn.probability.bijector``: MindSpore's bijectors, as Cells."""
from mindjax.nn.probability.bijector.bijector import Bijector
from mindjax.nn.probability.bijector.invert import Invert
from mindjax.nn.probability.bijector.power_transform import PowerTransform
from mindjax.nn.probability.bijector.exp import Exp
from mindjax.nn.probability.bijector.scalar_affine import ScalarAffine
from mindjax.nn.probability.bijector.softplus import Softplus
from mindjax.nn.probability.bijector.gumbel_cdf import GumbelCDF

__all__ = ["Bijector", "Exp", "GumbelCDF", "Invert", "PowerTransform", "ScalarAffine", "Softplus"]
