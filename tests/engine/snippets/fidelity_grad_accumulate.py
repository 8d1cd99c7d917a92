import torch

w = torch.tensor([1.0, -2.0], requires_grad=True)
for i in range(3):
    loss = (w * (i + 1)).pow(2).sum()
    loss.backward()
    print(i, w.grad)
w.grad.zero_()
print(w.grad)
w.grad = None
(w.sum() * 3).backward()
print(w.grad)
x = torch.ones(2, requires_grad=True)
y = x * 2
y.sum().backward(retain_graph=True)
y.sum().backward()
print(x.grad)
try:
    y.sum().backward()
    z = x.exp()
    s = z.sum()
    s.backward()
    s.backward()
except RuntimeError as e:
    print(e)
