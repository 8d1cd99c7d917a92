import torch
from torch.autograd import Function
from torch.autograd.function import BackwardCFunction, FunctionCtx


class MyExp(Function):
    @staticmethod
    def forward(ctx, x, k):
        y = x.exp() * k
        ctx.save_for_backward(y)
        # the ctx is the node: what forward set is readable while it runs
        print("forward:", type(ctx).__name__, len(ctx.to_save), ctx.dirty_tensors)
        print("forward:", ctx.non_differentiable)
        ctx.k = k
        ctx.note = "hi"
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y, None

    @staticmethod
    def jvp(ctx, gx, gk):
        return gx * 3


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MyExp.apply(x, 2.0)
node = y.grad_fn
cls = type(node)
print(cls.__name__, cls.__qualname__, cls.__module__, node.name())
print(cls is MyExp._backward_cls, node._forward_cls is MyExp)
print(isinstance(node, BackwardCFunction), isinstance(node, FunctionCtx))
print(isinstance(node, torch.autograd.graph.Node), issubclass(cls, BackwardCFunction))
print([n for n in dir(node) if not n.startswith("_") or n in ("_forward_cls", "_raw_saved_tensors")])
# after forward PyTorch keeps none of forward's bookkeeping
print(node.to_save, node.dirty_tensors, node.non_differentiable, node.needs_input_grad)
print(node.k, node.note, node.requires_grad, node.metadata)
try:
    node.materialize_grads
except AttributeError as e:
    print("AttributeError:", e)
node.materialize_grads = True
# apply runs the user's backward (grads as arguments), apply_jvp the user's jvp
print(node.apply(torch.ones(2)))
print(node.apply_boxed(torch.ones(2)))
print(node.apply_jvp(torch.ones(2), None))
# outside a backward nothing is freed
node.maybe_clear_saved_tensors()
print(node.saved_tensors)
y.sum().backward()
print(x.grad)
try:
    node.saved_tensors
except RuntimeError as e:
    print("RuntimeError:", str(e)[:50])
