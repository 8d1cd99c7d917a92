# title: A hook on an intermediate tensor
# Hooks registered on a tensor run during backward; they are mostly used for intermediate
# (non-leaf) tensors, whose .grad is not kept. The note's snippet uses a tensor C defined
# elsewhere: here C is the product of two leaves.
import torch

A = torch.tensor([1.0, 2.0], requires_grad=True)
B = torch.tensor([3.0, 0.5], requires_grad=True)
C = A * B


def variable_hook(grad):
    print('the gradient of C is：', grad)


D = C.exp()
D.register_hook(variable_hook)

D.sum().backward()
print(A.grad)
