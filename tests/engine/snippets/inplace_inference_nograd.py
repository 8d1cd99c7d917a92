import torch

with torch.inference_mode():
    t = torch.ones(2)
print(t.is_inference(), t.requires_grad)
try:
    t.add_(1)
except RuntimeError as err:
    print("RuntimeError", err)
with torch.inference_mode():
    t.add_(1)
print(t)
n = torch.ones(2)
with torch.inference_mode():
    n.add_(1)
print(n, n.is_inference())
with torch.no_grad():
    q = torch.ones(2)
print(q.is_inference())
