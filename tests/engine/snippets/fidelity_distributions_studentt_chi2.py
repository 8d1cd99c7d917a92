import torch
from torch.distributions import Chi2, StudentT

torch.manual_seed(0)
df = torch.tensor([0.5, 1.5, 4.0], requires_grad=True)
c = Chi2(df)
print(c, c.batch_shape, c.support, c.arg_constraints, c.has_rsample, c.df)
z = c.rsample((2,))
print(z, z.grad_fn)
lp = c.log_prob(torch.tensor([0.5, 1.0, 3.0]))
print(lp, lp.grad_fn)
(z.sum() + lp.sum() + c.entropy().sum()).backward()
print(df.grad)
print(c.mean, c.mode, c.variance, c.entropy(), c.cdf(torch.tensor([0.5, 1.0, 3.0])))
x = c.expand((2, 3))
print(type(x).__name__, x.batch_shape, x.df, x.sample().shape)
print(Chi2(3.0).sample((4,)), Chi2(torch.tensor([2.0], dtype=torch.float64)).sample())
df = torch.tensor([0.8, 1.5, 2.5, 6.0], requires_grad=True)
loc = torch.tensor([0.0, 1.0, -1.0, 2.0], requires_grad=True)
scale = torch.tensor([1.0, 0.5, 2.0, 1.5], requires_grad=True)
t = StudentT(df, loc, scale)
print(t, t.batch_shape, t.event_shape, t.support, t.arg_constraints, t.has_rsample)
s = t.rsample((2,))
print(s, s.grad_fn)
lp = t.log_prob(torch.tensor([0.5, 0.0, 1.0, 3.0]))
print(lp, lp.grad_fn)
e = t.entropy()
print(e, e.grad_fn)
(s.sum() + lp.sum() + e.sum()).backward()
print(df.grad, loc.grad, scale.grad)
print(t.mean, t.mode, t.variance, t.stddev)
print(StudentT(3.0).sample((3,)), StudentT(2.0, 1.0, 2.0).rsample())
y = t.expand((2, 4))
print(y, y.batch_shape, y._chi2.batch_shape, y.rsample().shape, y.log_prob(torch.zeros(4)).shape)
print(StudentT(torch.tensor([5.0], dtype=torch.float64)).sample((2,)))
for bad in [lambda: StudentT(0.0), lambda: StudentT(1.0, 0.0, -1.0), lambda: Chi2(torch.tensor([1.0, -2.0]))]:
    try:
        bad()
    except ValueError as err:
        print(err)
try:
    t.log_prob(torch.ones(3))
except ValueError as err:
    print(err)
