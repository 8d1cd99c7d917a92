# FisherSnedecor: draws as a ratio of Gamma draws from PyTorch's stream, rsample gradients,
# log_prob, moments (nan where undefined) and expand
import torch
from torch.distributions import FisherSnedecor

torch.manual_seed(0)
print(FisherSnedecor(2.0, 3.0).sample((2,)))
df1 = torch.tensor([1.0, 4.0, 10.0], requires_grad=True)
df2 = torch.tensor([3.0, 6.0, 1.5], requires_grad=True)
f = FisherSnedecor(df1, df2)
print(f, f.batch_shape, f.event_shape, f.support, f.arg_constraints, f.has_rsample)
s = f.rsample((2,))
print(s, s.grad_fn)
lp = f.log_prob(torch.tensor([0.5, 1.0, 4.0]))
print(lp, lp.grad_fn)
(s.sum() + lp.sum()).backward()
print(df1.grad, df2.grad)
print(f.mean, f.mode, f.variance)
e = f.expand((4, 3))
print(type(e).__name__, e.batch_shape, e.sample().shape, e.df1.shape, e.log_prob(torch.ones(4, 3)).shape)
print(FisherSnedecor(torch.tensor([5.0], dtype=torch.float64), 8.0).sample((3,)))
print(FisherSnedecor(5.0, 8.0).mean, FisherSnedecor(5.0, 8.0).variance, FisherSnedecor(5.0, 8.0).mode)
try:
    FisherSnedecor(1.0, -1.0)
except ValueError as err:
    print(err)
try:
    f.entropy()
except NotImplementedError as err:
    print("entropy", type(err).__name__, err)
print(type(f).__module__)
