import torch

# the gradient of a slice, select or narrow under create_graph is one node named as PyTorch's
# (SliceBackwardBackward0, SelectBackwardBackward0, with their saved arguments), not a copy
# into a view of zeros; advanced indexing's is IndexPutImplBackward0; views and reshapes keep
# their own names
x = torch.linspace(-1, 1, 20, dtype=torch.float64).reshape(4, 5).requires_grad_()
cases = {
    "slice": lambda x: x[1:3],
    "slice_step": lambda x: x[:, ::2],
    "slice_neg": lambda x: x[..., 1:-1],
    "select": lambda x: x[1],
    "select_neg": lambda x: x[:, -1],
    "narrow": lambda x: x.narrow(1, 1, 2),
    "index": lambda x: x[[0, 2]],
    "view": lambda x: x.view(20),
    "reshape_t": lambda x: x.t().reshape(20),
    "flatten": lambda x: x.flatten(),
    "unbind": lambda x: x.unbind(1)[2],
}
for name, f in cases.items():
    (g,) = torch.autograd.grad((f(x) ** 3).sum(), x, create_graph=True)
    fn = g.grad_fn
    saved = {a[7:]: getattr(fn, a) for a in dir(fn) if a.startswith("_saved_")}
    print(name, fn.name(), [n and n.name() for n, _ in fn.next_functions], saved)
    (h,) = torch.autograd.grad(g.pow(2).sum(), x, create_graph=True)
    print("  ", h.grad_fn.name(), h[1])
    (k,) = torch.autograd.grad(h.pow(2).sum(), x)
    print("  ", k[1])
