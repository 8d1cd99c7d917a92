import torch
import warnings
x = torch.tensor(2.5, requires_grad=True)
y = x * 2
print(y.item())
print(int(torch.tensor(3.0, requires_grad=True)))
print(float(y))
print(float(y))
print(bool(torch.tensor(1.0, requires_grad=True)))
import math
print(math.exp(y))
print(torch.tensor([1.5], requires_grad=True).__index__ if False else "skip")
print(complex(torch.tensor(1.0, requires_grad=True)))
print("{:.2f}".format(y))
print(f"{y:.3f}")
with torch.no_grad():
    print(float(y))
print(float(y.detach()))
def f():
    return float(torch.ones((), requires_grad=True))
f(); f()
