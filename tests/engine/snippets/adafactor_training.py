# torch.optim.Adafactor: factored second moments for matrices, a variance for vectors
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
opt = torch.optim.Adafactor(model.parameters(), lr=0.05, weight_decay=0.01)
x, y = torch.randn(8, 4), torch.randn(8, 1)
for _ in range(5):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print(round(loss.item(), 5))
print(model[0].weight)
print(model[2].bias)
print({k: tuple(v.shape) for k, v in opt.state[model[0].weight].items()}, opt.state[model[0].bias]["step"])
print(opt)
p = torch.nn.Parameter(torch.tensor([[1., -2.], [0.5, 3.]]))
o = torch.optim.Adafactor([p], maximize=True, eps=(1e-30, 1e-3), d=2.0)
(p ** 2).sum().backward()
o.step()
print(p)
for bad in (dict(lr=-1.), dict(beta2_decay=0.5), dict(d=0.5), dict(eps=(None, -1.))):
    try:
        torch.optim.Adafactor([p], **bad)
    except ValueError as e:
        print(e)
