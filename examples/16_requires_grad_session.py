# title: requires_grad, backward and leaf tensors (notebook session)
# compare: masked (random values)
# A notebook session (cells In [1] to In [5]). Since v0.4 Variable and Tensor are merged: a
# tensor that requires grad is what used to be a Variable. Calling backward on the root
# computes the gradient of every leaf. The values are random.
#
# variable.backward(gradient=None, retain_graph=None, create_graph=None):
# - gradient: see below
# - retain_graph: backward caches intermediate results and frees them afterwards; pass True to
#   keep them for several backward passes
# - create_graph: build a graph of the backward pass

# In [1]:
#pre
import torch as t

# In [2]:
a=t.randn(3,4,requires_grad=True)
'''
other ways to write it:
    a=t.randn(3,4).requires_grad_()

    a=t.randn(3,4)
    a.requires_grad=True
'''
print(a)
b=t.zeros(3,4).requires_grad_()
print(b)

# In [3]:
c=a+b
print(c)
d = c.sum()
print(d)
print(d.backward()) # backward pass
print(d.requires_grad)

# In [4]:
print(a.grad) # the derivative with respect to a

# c was not asked to require grad, but it depends on a, which does,
# so c.requires_grad is set to True automatically
print(a.requires_grad, b.requires_grad, c.requires_grad)

# In [5]:
# tensors created by the user are leaves; their grad_fn is None
print(a.is_leaf, b.is_leaf, c.is_leaf)

# c.grad is None: c is not a leaf, its gradient is only used to compute a's
# gradient, so although c.requires_grad is True the gradient is freed once used
print(c.grad is None)
