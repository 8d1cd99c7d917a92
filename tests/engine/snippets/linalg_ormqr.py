# torch.ormqr / Tensor.ormqr: values on each side, OrmqrBackward0 and its saved values, gradients, errors
import torch

torch.manual_seed(0)
a, tau = torch.geqrf(torch.randn(4, 3, dtype=torch.float64))
a.requires_grad_()
tau.requires_grad_()
c = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
for left in (True, False):
    for transpose in (False, True):
        other = c if left else c.detach().mT.clone().requires_grad_()
        r = torch.ormqr(a, tau, other, left=left, transpose=transpose)
        print(r)
        node = r.grad_fn
        print(type(node).__name__, node.name(), node._saved_left, node._saved_transpose)
        print([name for name in dir(node) if name.startswith("_saved")])
        print(node._saved_self.shape, node._saved_input2.shape, node._saved_input3.shape)
        (r * torch.arange(8.0, dtype=torch.float64).view(r.shape)).sum().backward()
        print(a.grad, tau.grad, other.grad)
        a.grad = tau.grad = None
print(a.detach().ormqr(tau.detach(), c.detach(), True, True))
out = torch.empty(0, dtype=torch.float64)
torch.ormqr(a.detach(), tau.detach(), c.detach(), out=out)
print(out)
print(torch.ormqr(torch.zeros(3, 2), torch.zeros(2), torch.zeros(3, 2)))
h, t = torch.geqrf(torch.randn(3, 3, dtype=torch.complex128))
print(torch.ormqr(h, t, torch.eye(3, dtype=torch.complex128), transpose=True))
d = torch.ones(4, 3, dtype=torch.float64)
for args, kw in [
    ((d, torch.ones(3, dtype=torch.float64), torch.ones(3, 2, dtype=torch.float64)), {}),
    ((d, torch.ones(2, dtype=torch.float64), torch.ones(2, 4, dtype=torch.float64)), {"left": False}),
    ((d, torch.ones(3, dtype=torch.float64), torch.ones(4, 2)), {}),
    ((d.long(), torch.ones(3).long(), torch.ones(4, 2).long()), {}),
    ((d, torch.ones(3, dtype=torch.float64), torch.ones(2, 4, 2, dtype=torch.float64)), {}),
    ((d,), {}),
    ((d, torch.ones(3), torch.ones(4, 2)), {"left": 1}),
]:
    try:
        torch.ormqr(*args, **kw)
    except (RuntimeError, TypeError, NotImplementedError) as e:
        print(type(e).__name__, e)
