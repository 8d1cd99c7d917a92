import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w * 3
target = y.detach() * 0.5
loss = ((y - target) ** 2).sum()
loss.backward()
print(target.requires_grad, w.grad)
w.grad.zero_()
with torch.no_grad():
    t2 = y * 0.5
loss2 = ((w * 3 - t2) ** 2).sum()
loss2.backward()
print(t2.requires_grad, w.grad, loss2.grad_fn)
