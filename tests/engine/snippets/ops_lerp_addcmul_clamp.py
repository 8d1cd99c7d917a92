import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 0.0, -1.0], requires_grad=True)
print(torch.lerp(a, b, 0.25), a.lerp(b, torch.tensor([0.1, 0.5, 1.0])))
print(torch.addcmul(a, a, b, value=0.5), torch.addcdiv(a, a, b + 5, value=2))
print(torch.clamp_min(a, 2.0), torch.clamp_max(a, b), a.clamp_min(0).grad_fn, a.clip(1.5, 2.5))
print(a.clamp(min=2), a.clamp(max=torch.tensor([1.0, 2.0, 3.0])), a.clamp(1, 2).grad_fn)
x = torch.arange(6.0).reshape(2, 3)
print(x.clone().clamp_(1, 4), x.clip(max=3), x.clone().clip_(min=2))
y = torch.lerp(a, b, 0.5).sum() + torch.addcmul(a, a, b).sum()
y.backward()
print(a.grad, b.grad)
try:
    x.clamp()
except RuntimeError as e:
    print(e)
