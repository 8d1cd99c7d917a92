import torch
# an in-place comparison of a tensor in the graph records its own node (zero gradients),
# float_power_ keeps only a double (or complex double) base, float_power's number base
a = torch.tensor([1., -2., 3.], requires_grad=True)
b = torch.zeros(3, requires_grad=True)
x = a * 2
x.gt_(0)
print(x, x.grad_fn)
y = a * 1
y.lt_(b * 1)
print(y, y.grad_fn, y.grad_fn.next_functions)
(x.sum() + y.sum()).backward()
print(a.grad, b.grad)
for name in ("eq_", "ne_", "le_", "ge_", "greater_", "less_equal_", "not_equal_"):
    z = a * 1
    getattr(z, name)(1.0)
    w = a * 1
    getattr(w, name)(torch.ones(3))
    print(name, z, z.grad_fn, w.grad_fn)
for t in (torch.tensor([1, 2]), torch.ones(2), torch.ones(2, dtype=torch.complex64)):
    try:
        t.float_power_(2)
    except RuntimeError as e:
        print(e)
print(torch.ones(2, dtype=torch.float64).float_power_(3))
print(torch.float_power(2, a), torch.float_power(a, 2).grad_fn.next_functions)
print(torch.float_power(a, 1j))
