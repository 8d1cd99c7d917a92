import torch

# torch.ldexp's docstring, and what its out= does with a wrong-sized output
print(torch.ldexp(torch.tensor([1.0]), torch.tensor([1])))
print(torch.ldexp(torch.tensor([1.0]), torch.tensor([1, 2, 3, 4])))
out = torch.empty(1)
print(torch.ldexp(torch.tensor([1.0, 2.0]), torch.tensor([1, 2]), out=out), out)
print(torch.ldexp(torch.tensor([[1.0], [2.0]]), torch.tensor([1.0, 2.0])))
print(torch.ldexp(torch.tensor(3.0), torch.tensor([1, 2])))
o2 = torch.empty(1, dtype=torch.float64)
print(torch.ldexp(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]), out=o2))
print(torch.ldexp(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0]), out=torch.empty(5)))
print(torch.ldexp(torch.tensor([1.0, 2.0]), torch.tensor([1, 2]), out=torch.empty(0)))
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 1
y.ldexp_(torch.tensor([1, 2]))
y.sum().backward()
print(y, x.grad)


def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)


attempt(lambda: torch.ldexp(x, torch.tensor([1, 2]), out=torch.empty(2)))
attempt(lambda: torch.ldexp(torch.tensor([1.0]), torch.tensor([1]), out=torch.empty(1, dtype=torch.int64)))
attempt(lambda: torch.tensor([1.0, 2.0]).ldexp_(torch.tensor([[1], [2]])))
attempt(lambda: torch.tensor([1, 2]).ldexp_(torch.tensor([3])))
attempt(lambda: torch.ldexp(torch.tensor([3.0]), torch.tensor([True, False])))
attempt(lambda: torch.ldexp(torch.tensor([3.0]), 2))
attempt(lambda: torch.ldexp(torch.tensor([1.0]), torch.tensor([1]), out=torch.empty(1, dtype=torch.float64)))
