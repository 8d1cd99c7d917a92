import torch

# clamp has two overloads: Tensor bounds or Number bounds, never one of each; a 0-d tensor that
# needs no grad counts as a Number
x = torch.tensor([1.0, 5.0, -3.0], requires_grad=True)
lo = torch.tensor([2.0, 2.0, 0.0])
attempts = {
    "function, keywords": lambda: torch.clamp(x, min=lo, max=3.0),
    "function, positions": lambda: torch.clamp(x, lo, 3),
    "function, number min": lambda: torch.clamp(x, min=0, max=lo),
    "function, out": lambda: torch.clamp(x.detach(), min=lo, max=3, out=torch.empty(3)),
    "method, keywords": lambda: x.clamp(min=lo, max=3.0),
    "method, positions": lambda: x.clamp(lo, 3),
    "method, max keyword": lambda: x.clamp(lo, max=3),
    "method, too many": lambda: x.clamp(lo, 3, 4),
    "in place": lambda: x.detach().clone().clamp_(min=lo, max=3),
    "torch.clamp_": lambda: torch.clamp_(x.detach().clone(), min=lo, max=3),
    "clip": lambda: torch.clip(x, min=lo, max=3),
    "method clip": lambda: x.clip(min=lo, max=3),
    "grad 0-d min": lambda: torch.clamp(x, min=torch.tensor(2.0, requires_grad=True), max=3),
    "numpy max": lambda: torch.clamp(x, min=lo, max=__import__("numpy").float64(3)),
    "string": lambda: torch.clamp(x, min="a"),
    "method string": lambda: x.clamp(min="a"),
    "list": lambda: x.clamp([1.0], 3),
    "no bounds": lambda: torch.clamp(x),
}
for name, attempt in attempts.items():
    try:
        print(name, attempt())
    except (TypeError, RuntimeError) as err:
        print(name, type(err).__name__, err)

two = torch.tensor(2.0)
for y in (torch.clamp(x, min=two, max=3), x.clamp(two), torch.clamp(x, two, two), x.clamp(min=lo), x.clip(lo, lo + 1)):
    print(y)
print(torch.clamp(torch.tensor([1, 5]), min=two, max=3), torch.clamp(x, min=True, max=3))
y = torch.clamp(x, min=lo, max=lo + 2)
y.sum().backward()
print(x.grad)
