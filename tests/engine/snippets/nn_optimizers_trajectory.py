import torch

for name, ctor in [
    ("SGD", lambda p: torch.optim.SGD(p, lr=0.1)),
    ("SGDm", lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.1)),
    ("Adam", lambda p: torch.optim.Adam(p, lr=0.1)),
    ("AdamW", lambda p: torch.optim.AdamW(p, lr=0.1, weight_decay=0.1)),
    ("Adam_ams", lambda p: torch.optim.Adam(p, lr=0.1, amsgrad=True)),
    ("RMSprop", lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.5)),
]:
    x = torch.tensor([1.5, -0.5], requires_grad=True)
    opt = ctor([x])
    for _ in range(5):
        opt.zero_grad()
        loss = (x - torch.tensor([0.2, 0.3])).pow(2).sum() + x.abs().sum()
        loss.backward()
        opt.step()
    print(name, x.detach(), f"{loss.item():.5f}")
