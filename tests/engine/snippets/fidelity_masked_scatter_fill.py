import torch
x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], requires_grad=True)
src = torch.arange(10.0, 70.0, 10.0).view(2, 3).requires_grad_()
mask = x.detach() > 0
y = x.masked_scatter(mask, src)
print(y, y.grad_fn.name(), y.grad_fn.next_functions, sorted(a for a in dir(y.grad_fn) if a.startswith("_saved")))
(y * torch.arange(6.0).view(2, 3)).sum().backward()
print(x.grad, src.grad)
print(torch.zeros(2, 3).masked_scatter(torch.tensor([True, False, True]), torch.ones(5)))
z = torch.zeros(3)
print(z.masked_scatter_(torch.tensor([True, False, True]), torch.tensor([7.0, 8.0])), z)
for m, s in [(torch.tensor([1, 0, 1]), torch.ones(3)), (torch.tensor([True, True, True]), torch.ones(2)),
             (torch.tensor([True, True, True]), torch.ones(3, dtype=torch.float64))]:
    try:
        print(torch.zeros(3).masked_scatter(m, s))
    except Exception as e:
        print(type(e).__name__, e)
for dt in [torch.int64, torch.uint8, torch.float32]:
    try:
        torch.zeros(3).masked_fill(torch.zeros(3, dtype=dt), 1.0)
    except RuntimeError as e:
        print(e)
