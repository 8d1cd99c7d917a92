import torch
from torch import nn

model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    for p in model.parameters():
        p.fill_(0.5)
for p in model[0].parameters():
    p.requires_grad_(False)
print([(n, p.requires_grad) for n, p in model.named_parameters()])
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
print(len(opt.param_groups[0]["params"]))
loss = model(torch.tensor([[1.0, 2.0]])).sum()
print(loss)
loss.backward()
print(model[0].weight.grad, model[2].weight.grad)
opt.step()
print(model[0].weight, model[2].weight)
model.requires_grad_(False)
print(any(p.requires_grad for p in model.parameters()))
out = model(torch.tensor([[1.0, 2.0]]))
print(out.requires_grad, out.grad_fn)
try:
    out.sum().backward()
except RuntimeError as e:
    print(e)
model[2].requires_grad_()
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
