import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
bag = nn.EmbeddingBag(10, 3, mode="sum")
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 4])
out = bag(inp, offsets)
print(out, out.grad_fn.name())
out.sum().backward()
print(bag.weight.grad[:, 0])
bag2 = nn.EmbeddingBag.from_pretrained(torch.arange(12.0).view(4, 3), mode="max")
print(bag2(torch.tensor([[0, 1], [2, 3]])))
bag3 = nn.EmbeddingBag(4, 2, mode="mean", padding_idx=0)
print(bag3.weight[0])
w = torch.arange(8.0).view(4, 2)
print(F.embedding_bag(torch.tensor([0, 1, 2, 3]), w, torch.tensor([0, 2]), mode="sum", per_sample_weights=torch.tensor([1.0, 2.0, 0.5, 0.5])))
print(F.embedding_bag(torch.tensor([0, 1, 2]), w, torch.tensor([0, 3, 3]), mode="mean"))
try:
    F.embedding_bag(torch.tensor([0, 1]), w, torch.tensor([0]), mode="max", per_sample_weights=torch.ones(2))
except Exception as e:
    print(type(e).__name__, e)
e = nn.Embedding(5, 2, max_norm=1.0)
with torch.no_grad():
    e.weight.fill_(3.0)
print(e(torch.tensor([1])), e.weight[1], e.weight[2])
x = torch.arange(16.0).view(1, 1, 4, 4).requires_grad_()
u = F.unfold(x, kernel_size=2, stride=2)
print(u.shape, u.grad_fn.name())
f = F.fold(u, output_size=(4, 4), kernel_size=2, stride=2)
print(torch.equal(f, x), f.grad_fn.name())
u2 = nn.Unfold(kernel_size=(2, 3), dilation=1, padding=1, stride=1)(torch.randn(2, 5, 3, 4))
print(u2.size())
print(F.fold(torch.ones(1, 4, 9), (4, 4), 2, stride=1))
try:
    F.fold(torch.ones(1, 5, 9), (4, 4), 2)
except Exception as e:
    print(type(e).__name__, e)
