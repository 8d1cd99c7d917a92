# float sums and means print PyTorch's last digits: ATen's cascade order, not NumPy's pairwise one
import torch

state = 12345


def values(n):
    global state
    out = []
    for _ in range(n):
        state = (state * 1103515245 + 12345) % (1 << 31)
        out.append((state / (1 << 31) - 0.5) * 10 ** (state % 5 - 2))
    return out


for n in (5, 9, 16, 17, 33, 100, 257, 1000, 4097, 20000):
    x = torch.tensor(values(n))
    print(n, x.sum().item(), x.mean().item(), x.double().sum().item())
m = torch.tensor(values(37 * 6)).view(6, 37)
print(m.sum(1).tolist(), m.mean(-1, keepdim=True).view(-1).tolist())
print(m.sum(0).tolist()[:9], m.t().contiguous().sum(1).tolist()[:9])
c = torch.tensor(values(40 * 70), dtype=torch.float64).view(40, 7, 10)
print(c.sum((1, 2)).tolist()[:4], c.sum(0).view(-1).tolist()[60:64], c.sum().item())
print(torch.tensor(values(19)).view(19, 1).sum(0).item(), torch.tensor([-0.0, -0.0]).sum())
loss = torch.nn.functional.mse_loss(torch.tensor(values(64)), torch.tensor(values(64)))
print(loss.item(), torch.nn.functional.l1_loss(torch.tensor(values(50)), torch.zeros(50)).item())
for B, F in ((64, 32), (100, 3), (17, 40)):  # a broadcast's gradient is summed back (sum_to)
    b = torch.zeros(F, requires_grad=True)
    (torch.tensor(values(B * F)).view(B, F) + b).backward(torch.tensor(values(B * F)).view(B, F))
    print(b.grad.tolist()[:5])
