import torch
import torch.nn.functional as F

# binary_cross_entropy's target gradient is weighted like the input's
x = torch.linspace(0.1, 0.9, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()
t = torch.linspace(0.2, 0.7, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()
w = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64)
for red in ("mean", "sum", "none"):
    y = F.binary_cross_entropy(x, t, weight=w, reduction=red)
    print(red, torch.autograd.grad(y.sum(), (x, t)))
y = F.binary_cross_entropy(x.sigmoid(), t, weight=w)
gx, gt = torch.autograd.grad(y.pow(2), (x, t), create_graph=True)
print(gt.detach(), torch.autograd.grad((gx * gx).sum() + gt.pow(2).sum(), (x, t)))

# embedding's gradient under create_graph is ATen's embedding_dense_backward's
idx = torch.tensor([[0, 2], [1, 1]])
E = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(3, 4).requires_grad_()
(g,) = torch.autograd.grad(F.embedding(idx, E).pow(2).sum(), E, create_graph=True)
print(g.grad_fn.name(), [n.name() for n, _ in g.grad_fn.next_functions])
print(torch.autograd.grad(g.pow(2).sum(), E))
