# title: A random tensor that tracks its operations
# With requires_grad=True every operation on the tensor is tracked; backward() then computes
# all gradients, which accumulate into .grad. (detach() stops tracking; torch.no_grad() is
# useful when evaluating a model.)
import torch as t

a=t.randn(3,4,requires_grad=True)

a.sum().backward()
print(a.grad)
