import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
f = x[0] ** 2 * x[1] + x[1] ** 3
(grad,) = torch.autograd.grad(f, x, create_graph=True)
rows = [torch.autograd.grad(grad[i], x, retain_graph=True)[0] for i in range(2)]
print(grad, torch.stack(rows))
print(torch.autograd.functional.hessian(lambda t: t[0] ** 2 * t[1] + t[1] ** 3, x))
print(torch.autograd.functional.jacobian(lambda t: t**2, torch.tensor([1.0, 3.0])))
