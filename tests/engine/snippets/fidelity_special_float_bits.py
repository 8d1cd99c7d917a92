import torch

x = torch.tensor([0.3, -5.5, 8.0, 0.0], requires_grad=True)
m, e = torch.frexp(x)
print(m, e, m.grad_fn.name())
print(torch.frexp(x.detach()))
m.sum().backward()
print(x.grad)
print(torch.ldexp(m, e), torch.ldexp(torch.tensor([1.0, 2.0]), torch.tensor([3, -1])))
y = torch.ldexp(x, torch.tensor([1, -2, 0, 3]))
print(y, y.grad_fn.name())
x.grad = None
y.sum().backward()
print(x.grad)
print(
    torch.nextafter(torch.tensor([1.0, 0.0]), torch.tensor([2.0, -1.0])) - torch.tensor([1.0, 0.0])
)
print(torch.nextafter(x, torch.zeros(4)).grad_fn.name())
print(
    torch.gcd(torch.tensor([4, -6, 0, 7]), torch.tensor([6, 9, 0, 21])),
    torch.lcm(torch.tensor([4, 6]), torch.tensor(10)),
)
print(torch.tensor([12, 18]).gcd(torch.tensor([8, 12])), torch.hypot(x, x).grad_fn.name())
try:
    torch.gcd(torch.tensor([1.0]), torch.tensor([2.0]))
except NotImplementedError as e:
    print(e)
try:
    torch.frexp(torch.tensor([1, 2]))
except RuntimeError as e:
    print(e)
