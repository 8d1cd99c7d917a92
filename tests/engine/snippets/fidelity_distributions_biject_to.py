import torch
from torch.distributions import Beta, Dirichlet, Gamma, Normal, Uniform, biject_to, constraints, transform_to
from torch.distributions.constraint_registry import ConstraintRegistry
from torch.distributions.transforms import ExpTransform

u = torch.tensor([[-1.0, 0.0, 2.0], [0.5, 0.25, -0.5]], requires_grad=True)
cases = [
    constraints.real, constraints.positive, constraints.nonnegative, constraints.greater_than(2.0),
    constraints.greater_than_eq(-1.0), constraints.less_than(3.0), constraints.unit_interval,
    constraints.interval(-2.0, 4.0), constraints.half_open_interval(0.0, 1.0), constraints.simplex,
    constraints.real_vector, constraints.independent(constraints.positive, 1),
]
for c in cases:
    for registry in (biject_to, transform_to):
        t = registry(c)
        y = t(u)
        print(c, t, y, t.bijective, t.domain, t.codomain)
        print(t.inv(y).shape, t.log_abs_det_jacobian(u, y) if t.bijective else None)
lo = torch.tensor([0.0, 1.0])
t = biject_to(constraints.interval(lo, lo + 2))
print(t, t(torch.zeros(2)))
for dist in [Normal(0.0, 1.0), Gamma(2.0, 1.0), Beta(1.0, 1.0), Dirichlet(torch.ones(3)), Uniform(0.0, 2.0)]:
    for name, c in dist.arg_constraints.items():
        if not constraints.is_dependent(c):
            print(type(dist).__name__, name, transform_to(c))
    print(type(dist).__name__, biject_to(dist.support))
z = transform_to(constraints.simplex)(u)
z.sum().backward()
print(z, u.grad)
for bad in [constraints.boolean, constraints.lower_triangular, constraints.positive_integer]:
    try:
        biject_to(bad)
    except NotImplementedError as err:
        print(err)
r = ConstraintRegistry()
try:
    r.register(3, lambda c: ExpTransform())
except TypeError as err:
    print(err)
r.register(constraints.boolean, lambda c: ExpTransform())
print(r(constraints.boolean))


@r.register(type(constraints.simplex))
def _simplex(c):
    return ExpTransform()


print(r(constraints.simplex))
print(Uniform(0.0, 2.0).arg_constraints)
for args in [(2.0, 1.0), (torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0]))]:
    try:
        Uniform(*args)
    except ValueError as err:
        print(err)
print(Uniform(2.0, 1.0, validate_args=False))
