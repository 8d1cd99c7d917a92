import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
eb = nn.EmbeddingBag(10, 3, mode="mean")
print(eb, type(eb))
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 4])
out = eb(inp, offsets)
print(out, out.grad_fn.name())
out.pow(2).sum().backward()
print(eb.weight.grad)

eb_sum = nn.EmbeddingBag(10, 3, mode="sum")
print(eb_sum(torch.tensor([[1, 2], [3, 3]])))
w = torch.tensor([0.5, 1.0, 2.0, 1.0], requires_grad=True)
s = eb_sum(torch.tensor([1, 2, 3, 3]), torch.tensor([0, 2]), per_sample_weights=w)
print(s)
s.sum().backward()
print(w.grad)

em = nn.EmbeddingBag(5, 2, mode="max", padding_idx=0)
print(em)
mx = em(torch.tensor([0, 1, 2, 0, 3, 4]), torch.tensor([0, 3, 3]))
print(mx)
mx.sum().backward()
print(em.weight.grad)
table = torch.arange(12.0).reshape(4, 3).requires_grad_()
print(F.embedding_bag(torch.tensor([0, 1, 3]), table, torch.tensor([0, 1]), mode="sum"))
print(F.embedding_bag(torch.tensor([0, 1, 3, 2]), table, torch.tensor([0, 1, 4]), include_last_offset=True))
try:
    eb(inp)
except ValueError as e:
    print("ValueError:", e)
