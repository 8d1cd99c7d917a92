import torch
from torch import nn

emb = nn.Embedding(5, 3)
with torch.no_grad():
    emb.weight.copy_(torch.arange(15.0).reshape(5, 3))
print(emb)
idx = torch.tensor([[0, 2], [4, 4]])
out = emb(idx)
print(out, out.shape)
out.sum().backward()
print(emb.weight.grad)
e2 = nn.Embedding(4, 2, padding_idx=0)
print(e2.weight[0])
e3 = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(e3(torch.tensor([1, 0])), e3.weight.requires_grad)
print(nn.functional.embedding(torch.tensor([1]), torch.tensor([[0.0], [9.0]])))
try:
    emb(torch.tensor([5]))
except IndexError as e:
    print(e)
