# Wishart: Bartlett draws (with PyTorch's redraw and its "Singular sample detected." warning), rsample and log_prob gradients, moments, entropy, the three parametrisations, batches, expand, KL by Bregman divergence, errors and the low-df warning
import torch
from torch.distributions import Wishart, kl_divergence

def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)

torch.manual_seed(0)
cov = torch.tensor([[2.0, 0.3], [0.3, 1.0]], requires_grad=True)
df = torch.tensor(4.0, requires_grad=True)
w = Wishart(df, covariance_matrix=cov)
print(w, type(w), w.batch_shape, w.event_shape, w.support, w.arg_constraints, w.has_rsample)
s = w.rsample()
s.sum().backward()
print(s, s.grad_fn, df.grad, cov.grad)
print(w.mean, w.mode, w.variance, w.entropy(), w.scale_tril, w.precision_matrix, w.covariance_matrix)
df.grad, cov.grad = None, None
w = Wishart(df, covariance_matrix=cov)
lp = w.log_prob(s.detach())
lp.backward()
print(lp, df.grad, cov.grad)
print(w.sample((3,)).shape)
w2 = Wishart(torch.tensor([3.0, 5.0]), scale_tril=torch.tensor([[1.0, 0.0], [0.5, 2.0]]))
print(w2, w2.batch_shape, w2.rsample().shape, w2.rsample((2,)).shape, w2.mean, w2.mode, w2.entropy())
w3 = Wishart(3, precision_matrix=torch.eye(3) * 2)
print(w3, w3.df, w3.scale_tril, w3.log_prob(torch.eye(3)), w3.sample())
w4 = w2.expand([4, 2])
print(w4, w4.batch_shape, w4.sample().shape, w4.df)
print(kl_divergence(w, Wishart(5.0, covariance_matrix=torch.eye(2))), kl_divergence(w2, w2))
show(lambda: Wishart(1.5, covariance_matrix=torch.eye(2)))
show(lambda: Wishart(0.5, covariance_matrix=torch.eye(2)))
show(lambda: Wishart(torch.tensor([3.0, 0.5]), covariance_matrix=torch.eye(2)))
show(lambda: Wishart(3.0))
show(lambda: Wishart(3.0, covariance_matrix=torch.eye(2), scale_tril=torch.eye(2)))
show(lambda: Wishart(3.0, covariance_matrix=torch.ones(2)))
show(lambda: Wishart(3.0, covariance_matrix=-torch.eye(2)))
show(lambda: Wishart(3.0, scale_tril=torch.ones(2, 2)))
show(lambda: w.log_prob(-torch.eye(2)))
show(lambda: Wishart(3.0, covariance_matrix=torch.eye(3)).mode)
print(Wishart(torch.tensor([1.5, 4.0]), covariance_matrix=torch.eye(2)).mode)
