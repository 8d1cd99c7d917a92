import torch
# torch.histogram's docstring examples
print(torch.histogram(torch.tensor([1., 2, 1]), bins=4, range=(0., 3.), weight=torch.tensor([1., 2., 4.])))
print(torch.histogram(torch.tensor([1., 2, 1]), bins=4, range=(0., 3.), weight=torch.tensor([1., 2., 4.]), density=True))
print(torch.histogram(torch.tensor([2., 2, 2]), bins=2))
print(torch.histogram(torch.tensor([0.1, 0.5, 0.9, 1.0, -1.]), torch.tensor([0., 0.5, 1.])))
print(torch.tensor([1., 5, 3]).histogram(3))
torch.manual_seed(0)
x = torch.randn(1000)
hist, edges = torch.histogram(x, bins=10)
print(hist, edges)
print(torch.histogram(x.double(), 7, range=(-1, 1)).hist)
print(torch.histogram(torch.rand(50), torch.linspace(0, 1, 6), density=True))
try:
    torch.histogram(torch.tensor([1, 2]), 2)
except NotImplementedError as e:
    print(e)
x = torch.tensor([1., 2.], requires_grad=True)
h = torch.histogram(x, 2)
print(h.hist.requires_grad, h.hist.grad_fn, h.bin_edges.grad_fn)
