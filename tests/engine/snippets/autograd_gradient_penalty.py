import torch

w = torch.tensor([[0.5, -0.2], [0.1, 0.3]], requires_grad=True)
real = torch.tensor([[1.0, 2.0], [0.5, -1.0]])
fake = torch.tensor([[0.0, 1.0], [1.5, 0.5]])
alpha = torch.tensor([[0.25], [0.75]])
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = (interp @ w).tanh().sum(dim=1)
grads = torch.autograd.grad(
    outputs=out,
    inputs=interp,
    grad_outputs=torch.ones_like(out),
    create_graph=True,
    retain_graph=True,
)[0]
print(grads)
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
print(gp, gp.grad_fn)
gp.backward()
print(w.grad)
print(interp.grad)
