import torch

w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([0.5, -0.5], requires_grad=True)
x = torch.tensor([[1.0, -1.0], [2.0, 0.5]])
h = (x * w + b).tanh()
loss = (h * h).sum() / 4
print(loss)
loss.backward()
print(w.grad)
print(b.grad)
print(loss.grad_fn.name(), loss.grad_fn.next_functions[0][0].name())
