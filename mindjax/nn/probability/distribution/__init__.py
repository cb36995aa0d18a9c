"""``mindjax.nn.probability.distribution``: MindSpore's distributions, as Cells.

Each is a Cell whose ``construct(name, *args)`` dispatches to its methods
(``prob``, ``log_prob``, ``cdf`` ... ``sample``), so they run in PYNATIVE and in
GRAPH mode, and ``ms.grad`` differentiates through them (e.g. ``log_prob``
with respect to a Parameter mean).
"""
from mindjax.nn.probability.distribution.distribution import Distribution
from mindjax.nn.probability.distribution.transformed_distribution import TransformedDistribution
from mindjax.nn.probability.distribution.bernoulli import Bernoulli
from mindjax.nn.probability.distribution.beta import Beta
from mindjax.nn.probability.distribution.categorical import Categorical
from mindjax.nn.probability.distribution.cauchy import Cauchy
from mindjax.nn.probability.distribution.exponential import Exponential
from mindjax.nn.probability.distribution.gamma import Gamma
from mindjax.nn.probability.distribution.geometric import Geometric
from mindjax.nn.probability.distribution.logistic import Logistic
from mindjax.nn.probability.distribution.normal import Normal
from mindjax.nn.probability.distribution.poisson import Poisson
from mindjax.nn.probability.distribution.uniform import Uniform
from mindjax.nn.probability.distribution.log_normal import LogNormal
from mindjax.nn.probability.distribution.gumbel import Gumbel

__all__ = ["Distribution", "TransformedDistribution", "Bernoulli", "Beta", "Categorical", "Cauchy", "Exponential",
           "Gamma", "Geometric", "Gumbel", "Logistic", "LogNormal", "Normal", "Poisson", "Uniform"]
