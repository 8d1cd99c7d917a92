import torch

x = torch.tensor(1.0, requires_grad=True)
y = x * 2
y.backward(retain_graph=True)
y.backward()
print(x.grad)
y = x * x
y.backward()
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
z = x.exp()
z.backward()
z.backward()
print(x.grad)
