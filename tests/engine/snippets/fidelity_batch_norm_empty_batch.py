import torch
bn = torch.nn.BatchNorm1d(3)
x = torch.randn(0, 3, requires_grad=True)
try:
    y = bn(x)
    print(y.shape, y.grad_fn.name() if y.grad_fn else None, bn.running_mean, bn.running_var, bn.num_batches_tracked)
    y.sum().backward()
    print(x.grad.shape, bn.weight.grad, bn.bias.grad)
except Exception as e:
    print(type(e).__name__, e)
bn.eval()
y = bn(torch.randn(0, 3))
print(y.shape)
try:
    print(torch.nn.functional.batch_norm(torch.randn(0, 3), torch.zeros(3), torch.ones(3), training=True))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(torch.nn.BatchNorm1d(3)(torch.randn(1, 3)))
except Exception as e:
    print(type(e).__name__, e)
bn2 = torch.nn.BatchNorm2d(2)
z = torch.randn(0, 2, 3, 3, requires_grad=True)
w = bn2(z)
print(w.shape, w.grad_fn.name(), [type(n).__name__ for n, _ in w.grad_fn.next_functions])
m = w.grad_fn.next_functions[0][0]
print([type(n).__name__ for n, _ in m.next_functions])
w.sum().backward()
print(z.grad.shape, bn2.weight.grad, bn2.bias.grad, bn2.num_batches_tracked, bn2.running_mean)
print(torch.nn.functional.batch_norm(torch.randn(0, 3), torch.zeros(3), torch.ones(3), training=False).shape)
print(torch.nn.BatchNorm1d(3, affine=False)(torch.randn(0, 3, requires_grad=True)).grad_fn.name())
