import torch
class Id(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g
class IdV(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1)
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.ones(2, requires_grad=True)
a = x * 1
for F in (Id, IdV):
    y = F.apply(a)
    print(y._is_view(), y._base is a)
    try:
        y.add_(1)
        print("ok", y.grad_fn)
    except RuntimeError as e:
        print(e)
with torch.no_grad():
    y = Id.apply(a)
    y.add_(1)
    print(y.requires_grad)
b = torch.ones(2)
y = Id.apply(b)
y.add_(1)
print(y)
