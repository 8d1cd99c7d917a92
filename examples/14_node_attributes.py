# title: What a graph node knows
# Every node of the graph holds what forward and backward need. The note prints the
# attributes of a tensor y made earlier; y = x * 2 + 1 here.
import torch

x = torch.tensor([1.0], requires_grad=True)
y = x * 2 + 1

# node information
print(y.grad_fn)  # the operation that made y
print(y.grad_fn.next_functions)  # the nodes before it
print(y.is_leaf)  # is y a leaf?

y.backward()
print(x.grad)
