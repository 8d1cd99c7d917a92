import torch
# torch.histogramdd's doc examples; narrow_copy's node; torch.normal with tensors that
# require grad records NormalBackward1/2/3 (zero gradients) and checks std first
x = torch.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.]])
print(torch.histogramdd(x, bins=[3, 3], weight=torch.tensor([1., 2., 4., 8.])))
print(torch.histogramdd(torch.tensor([[0., 0.], [1., 1.], [2., 2.]]), bins=[2, 2],
                        range=[0., 1., 0., 1.], density=True))
torch.manual_seed(0)
h = torch.histogramdd(torch.rand(5, 3, requires_grad=True), bins=2)
print(h.hist, h.hist.grad_fn is not None, len(h.bin_edges), type(h).__name__)

a = torch.randn(3, 4, requires_grad=True)
n = a.narrow_copy(1, 1, 2)
print(n.grad_fn, n.grad_fn._saved_start, n.grad_fn._saved_length, n.is_contiguous())
n.sum().backward()
print(a.grad)

m = torch.zeros(3, requires_grad=True)
s = torch.ones(3, requires_grad=True)
for sample in (torch.normal(m, 1.0), torch.normal(0.0, s), torch.normal(m, s)):
    print(sample.grad_fn)
    sample.sum().backward()
print(m.grad, s.grad)
for bad in ((m, -1.0), (m, -s)):
    try:
        torch.normal(*bad)
    except RuntimeError as e:
        print(e)
try:
    torch.normal(torch.zeros(3), torch.ones(2))
except RuntimeError as e:
    print(e)
