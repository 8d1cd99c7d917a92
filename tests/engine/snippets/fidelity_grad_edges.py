import torch
from torch.autograd.graph import get_gradient_edge, register_multi_grad_hook

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
e = get_gradient_edge(b)
print(e.node.name(), e.output_nr, e.ownership_token)
print(get_gradient_edge(a).node.name())
print(isinstance(e, tuple), len(e))
try:
    get_gradient_edge(torch.ones(2))
except RuntimeError as err:
    print("RuntimeError:", err)

c = torch.tensor([3.0], requires_grad=True)
calls = []
h = register_multi_grad_hook((a, c), lambda gs: calls.append([g.tolist() for g in gs]))
(a * c).sum().backward()
print(calls)
(a.sum() * c * 2).sum().backward()
print(calls)
h.remove()
(a * c).sum().backward()
print(len(calls))

firsts = []
h2 = register_multi_grad_hook([a, c], lambda g: firsts.append(g.shape), mode="any")
(a * c).sum().backward()
print(firsts)
h2.remove()
try:
    register_multi_grad_hook([a], print, mode="some")
except ValueError as err:
    print("ValueError:", err)
