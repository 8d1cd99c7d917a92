"""`torch.distributions`: the distributions, transforms, constraints and KL divergences users
paste from PyTorch's docs, written as PyTorch writes them (same draws from the generator, same
composed graph).

>>> torch.manual_seed(0); torch.distributions.Normal(0.0, 1.0).sample((2,))
tensor([ 1.5410, -0.2934])
"""

from __future__ import annotations

from engine.distributions import constraints, transforms, utils
from engine.distributions.beta import Beta
from engine.distributions.binomial import Binomial
from engine.distributions.cauchy import Cauchy
from engine.distributions.chi2 import Chi2
from engine.distributions.constraint_registry import biject_to, transform_to
from engine.distributions.continuous_bernoulli import ContinuousBernoulli
from engine.distributions.dirichlet import Dirichlet
from engine.distributions.distribution import Distribution
from engine.distributions.exp_family import ExponentialFamily
from engine.distributions.exponential import Exponential
from engine.distributions.fishersnedecor import FisherSnedecor
from engine.distributions.gamma import Gamma
from engine.distributions.generalized_pareto import GeneralizedPareto
from engine.distributions.geometric import Geometric
from engine.distributions.gumbel import Gumbel
from engine.distributions.half_cauchy import HalfCauchy
from engine.distributions.half_normal import HalfNormal
from engine.distributions.independent import Independent
from engine.distributions.inverse_gamma import InverseGamma
from engine.distributions.kinds import Bernoulli, Categorical, Normal, Uniform
from engine.distributions.kl import kl_divergence, register_kl
from engine.distributions.kumaraswamy import Kumaraswamy
from engine.distributions.laplace import Laplace
from engine.distributions.lkj_cholesky import LKJCholesky
from engine.distributions.log_normal import LogNormal
from engine.distributions.logistic_normal import LogisticNormal
from engine.distributions.lowrank_multivariate_normal import LowRankMultivariateNormal
from engine.distributions.mixture_same_family import MixtureSameFamily
from engine.distributions.multinomial import Multinomial
from engine.distributions.multivariate_normal import MultivariateNormal
from engine.distributions.negative_binomial import NegativeBinomial
from engine.distributions.one_hot_categorical import (
    OneHotCategorical,
    OneHotCategoricalStraightThrough,
)
from engine.distributions.pareto import Pareto
from engine.distributions.poisson import Poisson
from engine.distributions.relaxed_bernoulli import LogitRelaxedBernoulli, RelaxedBernoulli
from engine.distributions.relaxed_categorical import (
    ExpRelaxedCategorical,
    RelaxedOneHotCategorical,
)
from engine.distributions.studentT import StudentT
from engine.distributions.transformed_distribution import TransformedDistribution
from engine.distributions.transforms import (
    AbsTransform,
    AffineTransform,
    CatTransform,
    ComposeTransform,
    CorrCholeskyTransform,
    CumulativeDistributionTransform,
    ExpTransform,
    IndependentTransform,
    LowerCholeskyTransform,
    PositiveDefiniteTransform,
    PowerTransform,
    ReshapeTransform,
    SigmoidTransform,
    SoftmaxTransform,
    SoftplusTransform,
    StackTransform,
    StickBreakingTransform,
    TanhTransform,
    Transform,
    identity_transform,
)
from engine.distributions.von_mises import VonMises
from engine.distributions.weibull import Weibull
from engine.distributions.wishart import Wishart

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "Bernoulli",
    "Beta",
    "Binomial",
    "CatTransform",
    "Categorical",
    "Cauchy",
    "Chi2",
    "ComposeTransform",
    "ContinuousBernoulli",
    "CorrCholeskyTransform",
    "CumulativeDistributionTransform",
    "Dirichlet",
    "Distribution",
    "ExpRelaxedCategorical",
    "ExpTransform",
    "Exponential",
    "ExponentialFamily",
    "FisherSnedecor",
    "Gamma",
    "GeneralizedPareto",
    "Geometric",
    "Gumbel",
    "HalfCauchy",
    "HalfNormal",
    "Independent",
    "IndependentTransform",
    "InverseGamma",
    "Kumaraswamy",
    "LKJCholesky",
    "Laplace",
    "LogNormal",
    "LogisticNormal",
    "LogitRelaxedBernoulli",
    "LowRankMultivariateNormal",
    "LowerCholeskyTransform",
    "MixtureSameFamily",
    "Multinomial",
    "MultivariateNormal",
    "NegativeBinomial",
    "Normal",
    "OneHotCategorical",
    "OneHotCategoricalStraightThrough",
    "Pareto",
    "Poisson",
    "PositiveDefiniteTransform",
    "PowerTransform",
    "RelaxedBernoulli",
    "RelaxedOneHotCategorical",
    "ReshapeTransform",
    "SigmoidTransform",
    "SoftmaxTransform",
    "SoftplusTransform",
    "StackTransform",
    "StickBreakingTransform",
    "StudentT",
    "TanhTransform",
    "Transform",
    "TransformedDistribution",
    "Uniform",
    "VonMises",
    "Weibull",
    "Wishart",
    "biject_to",
    "constraints",
    "identity_transform",
    "kl_divergence",
    "register_kl",
    "transform_to",
    "transforms",
    "utils",
]
