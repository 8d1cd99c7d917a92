# the classes of distributions, transforms and constraints print under PyTorch's module paths (InverseGamma, LogisticNormal, OneHotCategoricalStraightThrough, the constraint classes)
import torch
from torch.distributions import InverseGamma, LogisticNormal, OneHotCategoricalStraightThrough, constraints

print(type(InverseGamma(2.0, 3.0)), type(LogisticNormal(torch.zeros(2), torch.ones(2))))
print(type(OneHotCategoricalStraightThrough(probs=torch.tensor([0.5, 0.5]))))
for c in [constraints.real, constraints.positive, constraints.simplex, constraints.corr_cholesky, constraints.positive_definite, constraints.real_vector, constraints.dependent, constraints.cat([constraints.real]), constraints.stack([constraints.real])]:
    print(type(c), c)
print(constraints.Constraint, constraints.MixtureSameFamilyConstraint, constraints.interval, constraints.multinomial)
