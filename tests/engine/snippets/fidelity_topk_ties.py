import torch

# ties in topk come out in the order ATen's CPU selection leaves them
x = torch.tensor([1.0, 3.0, 3.0, 2.0, 3.0, 1.0, 2.0, 1.0, 0.0, 3.0])
for largest in (True, False):
    for s in (True, False):
        for k in (1, 3, 5, 10):
            v, i = torch.topk(x, k, largest=largest, sorted=s)
            print(largest, s, k, v.tolist(), i.tolist())

y = torch.tensor([[2, 2, 1, 1, 2], [0, 0, 0, 0, 0]])
print(y.topk(2))
print(y.topk(3, largest=False, sorted=False))

# k * 64 <= n takes std::partial_sort
z = torch.tensor([float(i % 3) for i in range(200)] + [float("nan")])
print(z.topk(3).indices, z.topk(3, largest=False).indices)

w = torch.tensor([1.0, 2.0, 2.0, 0.5], requires_grad=True)
values, indices = w.topk(2)
values.sum().backward()
print(values, indices, w.grad)
