import torch

for kw in [dict(), dict(momentum=0.9), dict(momentum=0.9, nesterov=True), dict(weight_decay=0.1),
           dict(maximize=True), dict(momentum=0.5, dampening=0.5, weight_decay=0.01)]:
    w = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1, **kw)
    for _ in range(3):
        opt.zero_grad()
        loss = (w * torch.tensor([1.0, 2.0, 3.0])).pow(2).sum()
        loss.backward()
        opt.step()
    print(sorted(kw.items()), w.detach(), f"{loss.item():.5f}")
w = torch.tensor([3.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)


def closure():
    opt.zero_grad()
    loss = (w - 1) ** 2
    loss.backward()
    return loss


for _ in range(3):
    l = opt.step(closure)
    print(l, w)
try:
    torch.optim.SGD([w], lr=0.1, nesterov=True)
except ValueError as e:
    print(e)
try:
    torch.optim.SGD(w, lr=0.1)
except TypeError as e:
    print(e)
