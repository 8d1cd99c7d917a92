import torch

x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], requires_grad=True)
s = torch.softmax(x, dim=1)
ls = torch.log_softmax(x, dim=-1)
print(s, ls, s.sum(dim=1))
print(x.softmax(0), torch.nn.functional.softmax(x, dim=1).grad_fn, x.logsumexp(1))
(s[:, 0].sum() + ls[:, 1].sum()).backward()
print(x.grad)
print(
    torch.softmax(torch.tensor([1000.0, 0.0]), 0), torch.log_softmax(torch.tensor([1000.0, 0.0]), 0)
)
print(torch.softmax(torch.tensor([1, 2]), 0, dtype=torch.float64))
