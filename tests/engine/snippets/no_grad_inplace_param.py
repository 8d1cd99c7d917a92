import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w * w).sum()
loss.backward()
with torch.no_grad():
    w -= 0.1 * w.grad
print(w, w.requires_grad, w.is_leaf, w.grad_fn)
w.grad.zero_()
print(w.grad)
with torch.no_grad():
    w.mul_(2)
print(w, w._version)
