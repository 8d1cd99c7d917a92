import pickle

import torch
import torch.distributions as D
from torch.distributions import transforms
from torch.distributions.relaxed_bernoulli import LogitRelaxedBernoulli
from torch.distributions.relaxed_categorical import ExpRelaxedCategorical

classes = [
    D.Bernoulli, D.Beta, D.Binomial, D.Categorical, D.Cauchy, D.Chi2, D.Dirichlet, D.Distribution,
    D.ExponentialFamily, D.Exponential, D.Gamma, D.Geometric, D.HalfCauchy, D.HalfNormal,
    D.Independent, D.Laplace, D.LogNormal, D.LowRankMultivariateNormal, D.MixtureSameFamily,
    D.Multinomial, D.MultivariateNormal, D.Normal, D.OneHotCategorical, D.Poisson,
    D.RelaxedBernoulli, D.RelaxedOneHotCategorical, D.StudentT, D.TransformedDistribution,
    D.Uniform, LogitRelaxedBernoulli, ExpRelaxedCategorical,
    transforms.AbsTransform, transforms.AffineTransform, transforms.ComposeTransform,
    transforms.ExpTransform, transforms.IndependentTransform, transforms.PowerTransform,
    transforms.ReshapeTransform, transforms.SigmoidTransform, transforms.SoftmaxTransform,
    transforms.SoftplusTransform, transforms.StickBreakingTransform, transforms.TanhTransform,
    transforms.Transform,
]
for cls in classes:
    print(cls, cls.__module__, cls.__name__)
print([type(d) for d in [D.Beta(1.0, 2.0), D.StudentT(3.0), D.Chi2(2.0), D.Geometric(0.5)]])
for d in [D.Gamma(torch.tensor([2.0]), torch.tensor([1.0])), D.Cauchy(0.0, 1.0), D.Multinomial(3, torch.tensor([0.5, 0.5]))]:
    back = pickle.loads(pickle.dumps(d))
    print(type(back), back, back.batch_shape, back.event_shape)
