# a dependent_property read on the class is a dependent constraint (GeneralizedPareto.support, CatTransform.domain, StackTransform.codomain), with the event_dim given to it or none
import torch
from torch.distributions import CatTransform, GeneralizedPareto, StackTransform, biject_to, constraints

def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)

for c in [GeneralizedPareto.support, CatTransform.domain, StackTransform.codomain]:
    print(type(c).__name__, c, constraints.is_dependent(c), isinstance(c, constraints.Constraint))
    show(lambda: c.event_dim)
    show(lambda: c.is_discrete)
    show(lambda: c.check(torch.zeros(2)))
show(lambda: biject_to(GeneralizedPareto.support))
print(GeneralizedPareto(0.0, 1.0, -0.5).support, CatTransform([]).lengths)
