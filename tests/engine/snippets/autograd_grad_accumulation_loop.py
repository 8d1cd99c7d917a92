import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range(3):
    loss = (w * (i + 1)).sum()
    loss.backward()
    print(i, w.grad)
batches = [torch.tensor([1.0, 0.0]), torch.tensor([0.0, 2.0]), torch.tensor([1.0, 1.0])]
w.grad = None
for i, xb in enumerate(batches):
    loss = (w * xb).sum() / len(batches)
    loss.backward()
print(w.grad)
w.grad.data.mul_(0.5)
print(w.grad)
