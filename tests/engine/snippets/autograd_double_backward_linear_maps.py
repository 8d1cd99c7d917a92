import torch
import torch.nn.functional as F

# a backward that is linear in its incoming gradient (pooling, reflection padding, nll_loss) is
# one node over (grad_output, self) under create_graph, made even when grad_output does not
# require grad: the gradient requires grad and its self gradient is zeros. constant padding
# and channel_shuffle are their own backward, named as the forward's node at every order; the
# third order of the others is the forward op again.
torch.manual_seed(0)
x = torch.randn(1, 2, 4, 4, dtype=torch.float64, requires_grad=True)
cases = {
    "max_pool2d": lambda x: F.max_pool2d(x, 2),
    "avg_pool2d": lambda x: F.avg_pool2d(x, 2),
    "adaptive_avg_pool2d": lambda x: F.adaptive_avg_pool2d(x, 3),
    "adaptive_max_pool2d": lambda x: F.adaptive_max_pool2d(x, 3),
    "reflect": lambda x: F.pad(x, (1, 1, 1, 1), mode="reflect"),
    "replicate": lambda x: F.pad(x, (1, 1, 1, 1), mode="replicate"),
    "constant": lambda x: F.pad(x, (1, 1, 1, 1)),
    "channel_shuffle": lambda x: F.channel_shuffle(x, 2),
    "nll_loss": lambda x: F.nll_loss(x.reshape(8, 4), torch.tensor([0, 1, 2, 3, 0, 1, 2, 3])),
}
for name, f in cases.items():
    y = f(x)
    for wanted in (False, True):
        go = torch.ones_like(y).requires_grad_(wanted)
        (g,) = torch.autograd.grad(y, x, go, create_graph=True)
        fn = g.grad_fn
        edges = fn and [n and n.name() for n, _ in fn.next_functions]
        print(name, wanted, g.requires_grad, fn and fn.name(), edges)
        if g.requires_grad:
            ins = (x, go) if wanted else (x,)
            h = torch.autograd.grad(g.pow(2).sum(), ins, create_graph=True, allow_unused=True)
            print("  ", [None if t is None else t.abs().sum().item() for t in h])
            if wanted and "max" not in name:  # (max pools' third order: a gather, viewed)
                (k,) = torch.autograd.grad(h[1].pow(2).sum(), go, create_graph=True)
                print("  ", k.grad_fn.name(), k.abs().sum().item())

logits = torch.linspace(-2, 2, 12, dtype=torch.float64).reshape(3, 4).requires_grad_()
(g,) = torch.autograd.grad(F.cross_entropy(logits, torch.tensor([0, 3, 1])), logits, create_graph=True)
print(g.grad_fn.name(), [n.name() for n, _ in g.grad_fn.next_functions])
print(g.grad_fn.next_functions[0][0].next_functions)
(h,) = torch.autograd.grad(g.pow(2).sum(), logits)
print(h)

# abs's gradient is grad * self.sgn()
a = torch.tensor([-1.5, 0.0, 2.0], requires_grad=True)
(g,) = torch.autograd.grad(F.l1_loss(a, torch.zeros(3)), a, create_graph=True)
print(g, g.grad_fn.next_functions[1][0].name())
