import torch
from torch.autograd.graph import get_gradient_edge

x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 3
loss = (h**2).sum()
edge = get_gradient_edge(h)
print(type(edge).__name__, edge.node.name(), edge.output_nr)
(g,) = torch.autograd.grad(loss, edge, retain_graph=True)
print(g)
gx, gh = torch.autograd.grad(loss, (x, get_gradient_edge(h)), retain_graph=True)
print(gx, gh)
print(torch.autograd.grad(loss, [get_gradient_edge(x)], retain_graph=True))
# grad_outputs given as edges? outputs as an edge
print(torch.autograd.grad(get_gradient_edge(h), x, grad_outputs=torch.ones(2), retain_graph=True))
try:
    torch.autograd.grad(get_gradient_edge(h), x)
except RuntimeError as e:
    print(e)
loss.backward(inputs=[get_gradient_edge(x)], retain_graph=True)
print(x.grad)

# register_multi_grad_hook mode="all"
a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
c = torch.tensor(3.0, requires_grad=True)
calls = []


def hook(grads):
    calls.append([None if g is None else g.item() for g in grads])


handle = torch.autograd.graph.register_multi_grad_hook((a, b, c), hook)
(a * 2).backward()
print(calls)
(b * 3 + c * 4).backward()
print(calls)
(a * b).backward()
print(calls)
handle.remove()
(a * b * c).backward()
print(calls)
print(type(handle).__name__)

# mode="any"
calls.clear()
h2 = torch.autograd.graph.register_multi_grad_hook(
    (a, b), lambda g: calls.append(g.item()), mode="any"
)
(a * b).backward()
(a * 5).backward()
print(calls)
h2.remove()

# non-leaf tensors and grad()
p = torch.ones(2, requires_grad=True)
q = p * 2
r = p * 3
out = []
torch.autograd.graph.register_multi_grad_hook(
    [q, r], lambda gs: out.append([None if g is None else g.tolist() for g in gs])
)
(q.sum() + r.sum() * 2).backward(retain_graph=True)
print(out)
torch.autograd.grad(q.sum(), p)
print(out)
try:
    torch.autograd.graph.register_multi_grad_hook([p], print, mode="some")
except ValueError as e:
    print(e)
