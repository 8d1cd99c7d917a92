import torch
import torch.nn as nn
import torch.nn.functional as F

w = nn.Parameter(torch.arange(12.0).view(4, 3))
o = F.embedding(torch.tensor([[1, 1], [3, 0]]), w, max_norm=2.0)
print(o, w._version)
print(w)
o = F.embedding(torch.tensor([1, 1, 2]), w, scale_grad_by_freq=True)
o.sum().backward()
print(w.grad, o.grad_fn._saved_scale_grad_by_freq)
e = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), max_norm=1.0, norm_type=1.0)
print(e, e.weight.requires_grad)
print(e(torch.tensor([1])), e.weight)
e2 = nn.Embedding(3, 2, scale_grad_by_freq=True)
e2(torch.tensor([0, 0, 0, 1])).sum().backward()
print(e2.weight.grad)
bag = nn.EmbeddingBag.from_pretrained(torch.tensor([[3.0, 4.0], [0.3, 0.4]]), mode="sum", max_norm=1.0, freeze=False)
print(bag, bag.weight.requires_grad)
print(bag(torch.tensor([[0, 1]])), bag.weight)
try:
    nn.Embedding.from_pretrained(torch.ones(3))
except Exception as ex:
    print(type(ex).__name__, ex)
print(nn.Embedding(3, 2, padding_idx=1, max_norm=2.0, norm_type=3.0, scale_grad_by_freq=True, sparse=True))
