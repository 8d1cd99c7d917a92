# clip_grad_value_ with no gradient at all: PyTorch's device/dtype grouping refuses the empty list
import torch
from torch import nn

m = nn.Linear(2, 2)
for params in (m.parameters(), [], m.weight, iter([])):
    try:
        torch.nn.utils.clip_grad_value_(params, 1.0)
    except RuntimeError as e:
        print("RuntimeError:", e)
m.weight.grad = torch.tensor([[3.0, -3.0], [0.5, 2.0]])
print(torch.nn.utils.clip_grad_value_(m.parameters(), 1.0), m.weight.grad)
print(torch.nn.utils.clip_grad_value_(m.weight, 0.5, foreach=True), m.weight.grad)
try:
    torch.nn.utils.clip_grad_value_(m.bias, 1.0, foreach=False)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.nn.utils.clip_grad_norm_([], 1.0))
