# title: Saved tensors: pow saves its input
# Some operations save intermediate results during forward for use in backward; x -> x^2 saves
# its input x. The tensors a grad_fn saved are visible as its attributes prefixed with _saved.
import torch

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))  # True
print(x is y.grad_fn._saved_self)  # True

# backward reads the saved input: d(x^2)/dx = 2x
y.sum().backward()
print(torch.equal(x.grad, 2 * x))
