import torch


class NotStatic(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g


class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2


class BadShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return torch.ones(5)


def attempt(label, fn):
    try:
        print(label, "ok", fn())
    except Exception as err:
        print(label, type(err).__name__, err)


x = torch.tensor([1.0, 2.0], requires_grad=True)
attempt("too many", lambda: NotStatic.apply(x).sum().backward())
attempt("no backward", lambda: NoBackward.apply(x).sum().backward())
attempt("bad shape", lambda: BadShape.apply(x).sum().backward())
attempt("save non tensor", lambda: SaveBad.apply(x))


class SaveBad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x


attempt("save non tensor", lambda: SaveBad.apply(x))
