import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.hooks import RemovableHandle

a = torch.ones(3, requires_grad=True)
b = torch.ones(1) * 2
c = torch.tensor([3.0, 4.0], requires_grad=True)
p = pad_sequence([a, b, c])
print(p, p.grad_fn)
print(pad_sequence([a, b, c], batch_first=True, padding_value=-1))
print(pad_sequence([a, b, c], batch_first=True, padding_side="left"))
print(pad_sequence([torch.ones(2, 2), torch.zeros(1, 2)]).shape)
(p * torch.arange(3.0).view(3, 1)).sum().backward()
print(a.grad, c.grad)
h = a.register_hook(lambda g: g)
print(isinstance(h, RemovableHandle), h.id >= 0)
lengths = torch.tensor([len(s) for s in (a, b, c)])
emb = torch.nn.Embedding(5, 2)
tokens = [torch.tensor([1, 2, 3]), torch.tensor([4])]
padded = pad_sequence(tokens, batch_first=True)
print(padded, lengths, (padded != 0).sum(dim=1))
