import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "ok", out)
    except Exception as err:
        print(label, type(err).__name__, err)


x = torch.tensor([1.0, 2.0], requires_grad=True)
i = torch.tensor([1, 2])
attempt("int scalar backward", lambda: (i.sum()).backward())
attempt("grad assign size", lambda: setattr(x, "grad", torch.zeros(3)))
attempt("grad assign dtype", lambda: setattr(x, "grad", torch.zeros(2).double()))
attempt("grad assign type", lambda: setattr(x, "grad", [1.0, 2.0]))
attempt(
    "backward lengths", lambda: torch.autograd.backward([x.sum(), x.sum()], [torch.tensor(1.0)])
)
attempt("grad nonscalar", lambda: torch.autograd.grad(x * 2, x))
attempt("grad outputs len", lambda: torch.autograd.grad([x.sum()], [x], grad_outputs=[None, None]))
attempt("detach_ view", lambda: x.view(2).detach_())
attempt("retain_grad no grad", lambda: torch.ones(2).retain_grad())
attempt("hook no grad", lambda: torch.ones(2).register_hook(lambda g: g))
attempt("item many", lambda: x.item())
attempt("len 0d", lambda: len(torch.tensor(1.0)))
attempt("iter 0d", lambda: iter(torch.tensor(1.0)))
attempt("index int float", lambda: [1, 2, 3][torch.tensor(1.0)])
attempt("backward grad shape", lambda: (x * 2).backward(torch.ones(2, 1)))
attempt("autograd grad no req", lambda: torch.autograd.grad(x.sum(), torch.ones(2)))
