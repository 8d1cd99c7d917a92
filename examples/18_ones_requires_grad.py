# title: Gradients of a non-scalar output need a gradient argument
# Every tensor's .grad_fn refers to the Function that created it (None for tensors created by
# the user); tensors and Functions form an acyclic graph. backward() needs no argument for a
# scalar; otherwise pass a `gradient` tensor of matching shape.
import torch as t

# In [6]:
x=t.ones(2,2,requires_grad=True)
print(x)

y = x * 3 + 1
y.backward(t.ones(2, 2))
print(x.grad)
