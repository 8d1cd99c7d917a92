import torch

x = torch.zeros(2, 1, 2, 1, 2)
print(x.size(), torch.squeeze(x).size(), torch.squeeze(x, 0).size(), torch.squeeze(x, 1).size())
print(torch.squeeze(x, (1, 2, 3)).size(), x.unsqueeze(0).shape, x.unsqueeze(-1).shape)
y = torch.tensor([1, 2, 3, 4])
print(torch.unsqueeze(y, 0), torch.unsqueeze(y, 1))
w = torch.tensor([1.0, 2.0], requires_grad=True)
u = w.unsqueeze(1).squeeze(1)
print(w.unsqueeze(0).grad_fn, u.grad_fn)
