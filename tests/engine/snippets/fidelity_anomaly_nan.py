import torch

x = torch.tensor([0.0, 1.0], requires_grad=True)
y = torch.sqrt(x)
y.sum().backward()
print(x.grad)
x.grad = None
z = (x / x).sum()
z.backward()
print(x.grad)
x.grad = None
with torch.autograd.detect_anomaly():
    try:
        w = torch.log(x * 0)
        (w * 0).sum().backward()
    except RuntimeError as e:
        print(e)
print(torch.is_anomaly_enabled())
r = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
torch.relu(r).sum().backward()
print(r.grad)
r.grad = None
r.abs().sum().backward()
print(r.grad)
r.grad = None
torch.clamp(r, 0, 1).sum().backward()
print(r.grad)
r.grad = None
r.max().backward()
print(r.grad)
m = torch.tensor([2.0, 2.0, 1.0], requires_grad=True)
m.max().backward()
print(m.grad)
m.grad = None
m.amax().backward()
print(m.grad)
