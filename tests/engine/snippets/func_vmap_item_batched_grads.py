import torch
from torch.func import vmap, grad

x = torch.randn(3, 2)
try:
    vmap(lambda t: t.sum().item())(x)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    vmap(lambda t: float(t.sum()))(x)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    vmap(lambda t: t.tolist())(x)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    vmap(lambda t: t if t.sum() > 0 else -t)(x)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    vmap(lambda t: t.numpy())(x)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    grad(lambda t: t.sum() * t.sum().item())(torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, e)
print(grad(lambda t: (t * 2).sum())(torch.ones(2)))
print(vmap(lambda t: t.shape[0] * t)(x).shape)

# is_grads_batched
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = a * a
eye = torch.eye(3)
(jac,) = torch.autograd.grad(y, a, grad_outputs=eye, is_grads_batched=True)
y = a * a
print(jac)
b = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
z = b.sin().sum(dim=1)
(j2,) = torch.autograd.grad(z, b, torch.eye(2), is_grads_batched=True, retain_graph=True)
y = a * a
print(j2.shape, j2)
g1, g2 = torch.autograd.grad([y, z], [a, b], [torch.eye(3)[:2], torch.ones(2, 2)], is_grads_batched=True, allow_unused=True)
y = a * a
c = torch.ones(2, requires_grad=True)
print(torch.autograd.grad(y, [a, c], eye, is_grads_batched=True, allow_unused=True, retain_graph=True))
print(torch.autograd.grad(y, [a, c], eye, is_grads_batched=True, materialize_grads=True))
y = a * a
print(g1, g2)
try:
    torch.autograd.grad(y, a, grad_outputs=torch.ones(3), is_grads_batched=True)
except RuntimeError as e:
    print(type(e).__name__, e)
(h,) = torch.autograd.grad(y, a, grad_outputs=eye, is_grads_batched=True, create_graph=True)
print(h.requires_grad, h.grad_fn is not None)
print(torch.autograd.functional.jacobian(lambda t: t ** 3, a, vectorize=True))
print(vmap(lambda t, s: t * s.item(), in_dims=(0, None))(torch.ones(2, 2), torch.tensor(2.0)))
print(vmap(grad(lambda t: (t ** 2).sum()))(torch.arange(4.0).reshape(2, 2)))
