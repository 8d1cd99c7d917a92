import torch

x = torch.tensor([[1.0], [2.0], [3.0], [4.0]])
y = 2 * x + 1
w = torch.zeros(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.05
for step in range(5):
    pred = x @ w + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
    print(step, round(loss.item(), 4), w.item(), b.item())
print(w, b, w.grad, w.is_leaf, b.grad_fn)
