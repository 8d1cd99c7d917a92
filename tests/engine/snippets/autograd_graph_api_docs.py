# torch.autograd.graph / torch.autograd API docs: disable_saved_tensors_hooks, GradientEdge,
# grad with is_grads_batched, set_multithreading_enabled, Node checks.
import torch
from torch.autograd.graph import GradientEdge, get_gradient_edge

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
edge = get_gradient_edge(b)
print(type(edge).__name__, edge.node.name(), edge.output_nr)
print(isinstance(edge, tuple), edge == (b.grad_fn, 0))
c = b.sin().sum()
print(torch.autograd.grad(c, edge, retain_graph=True))
print(torch.autograd.grad(c, [get_gradient_edge(a)], retain_graph=True))
e2 = GradientEdge(b.grad_fn, 0)
print(e2.node is b.grad_fn)

with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    y = a.exp()
    try:
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
    except RuntimeError as err:
        print("RuntimeError:", err)
print(y.grad_fn)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    try:
        with torch.autograd.graph.disable_saved_tensors_hooks("nested"):
            pass
    except RuntimeError as err:
        print("RuntimeError:", err)

x = torch.randn(2, 2, requires_grad=True)
out = x * torch.tensor([[1.0, 2.0], [3.0, 4.0]])
batched = torch.eye(4).reshape(4, 2, 2)
(jac,) = torch.autograd.grad(out, x, batched, is_grads_batched=True)
print(jac)
with torch.autograd.set_multithreading_enabled(False):
    print(torch.autograd.grad((x ** 2).sum(), x)[0].shape)
print(torch.autograd.set_multithreading_enabled)
print(isinstance(b.grad_fn, torch.autograd.graph.Node), issubclass(type(b.grad_fn), torch.autograd.graph.Node))
print(b.grad_fn.metadata, b.grad_fn.next_functions)
torch.autograd.grad(out.sum(), x, torch.ones(3), is_grads_batched=True)
