import torch

# torch.Tensor.scatter_reduce_ (PyTorch's reference examples)
src = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
index = torch.tensor([0, 1, 0, 1, 2, 1])
input = torch.tensor([1.0, 2.0, 3.0, 4.0])
print(input.scatter_reduce(0, index, src, reduce="sum"))
print(input.scatter_reduce(0, index, src, reduce="sum", include_self=False))
input2 = torch.tensor([5.0, 4.0, 3.0, 2.0])
print(input2.scatter_reduce(0, index, src, reduce="amax"))
print(input2.scatter_reduce(0, index, src, reduce="amax", include_self=False))

# gradients through each reduction
w = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
s = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], requires_grad=True)
for reduce in ("sum", "prod", "mean", "amax", "amin"):
    out = w.scatter_reduce(0, index, s, reduce=reduce, include_self=False)
    out.backward(torch.arange(4.0))
    print(reduce, out, w.grad, s.grad)
    w.grad = s.grad = None

# torch.Tensor.put_
src = torch.tensor([[4, 3, 5], [6, 7, 8]])
print(src.put_(torch.tensor([1, 3]), torch.tensor([9, 10])))
x = torch.zeros(2, 3, requires_grad=True)
y = x.put(torch.tensor([0, 5, 0]), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
try:
    torch.zeros(4).put_(torch.tensor([4]), torch.tensor([1.0]))
except IndexError as e:
    print("IndexError:", e)
