import torch

a = torch.ones(2)
b = torch.ones(2, requires_grad=True)
print((a + b).requires_grad, (a * 2).requires_grad, (b.detach() + 1).requires_grad)
print(torch.cat([a, b]).requires_grad, torch.stack([a, a]).requires_grad, b[0].requires_grad)
print(b.sum().requires_grad, (b > 0).requires_grad, b.argmax().requires_grad, b.int().requires_grad)
print(
    b.clone().is_leaf,
    b.detach().is_leaf,
    a.is_leaf,
    (a + 1).is_leaf,
    b.requires_grad_(False).requires_grad,
)
