import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
print(w.grad)
(w * 2).sum().backward()
print(w.grad)
w.grad = None
print(w.grad)
(w**2).sum().backward()
print(w.grad)
w.grad.zero_()
print(w.grad)
w.grad = torch.tensor([5.0, 5.0])
(w * 1).sum().backward()
print(w.grad)
try:
    w.grad = torch.tensor([1.0])
except RuntimeError as e:
    print(e)
