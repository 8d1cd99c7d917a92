import torch
from torch import nn

model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
x = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [3.0, -2.0]])
y = torch.tensor([[1.0], [0.0], [2.0]])
for step in range(4):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    after = torch.sqrt(sum(p.grad.pow(2).sum() for p in model.parameters()))
    opt.step()
    print(step, f"loss={loss.item():.4f} norm={norm.item():.4f} after={after.item():.4f}", norm.dtype, norm.requires_grad)
print(nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=1.0))
print(nn.utils.get_total_norm([p.grad for p in model.parameters()]))
