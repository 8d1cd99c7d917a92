import torch


class SplitSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        idx = x.argmax()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x)
        return x.sum(), x * 2, idx

    @staticmethod
    def backward(ctx, g_sum, g_double, g_idx):
        (x,) = ctx.saved_tensors
        print("grads in:", g_sum, g_double, g_idx)
        return g_sum * torch.ones_like(x) + 2 * g_double


x = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
s, d, i = SplitSum.apply(x)
print(s, d, i, i.requires_grad, s.grad_fn.name())
s.backward(retain_graph=True)
print(x.grad)
x.grad = None
(s + d.sum()).backward()
print(x.grad)


class NoMat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.set_materialize_grads(False)
        return a.clone(), b.clone()

    @staticmethod
    def backward(ctx, ga, gb):
        print("ga", ga, "gb", gb)
        return ga, gb


a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
oa, ob = NoMat.apply(a, b)
oa.sum().backward()
print(a.grad, b.grad)


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, factor=2.0):
        ctx.factor = factor
        return x * factor

    @staticmethod
    def backward(ctx, g):
        return g * ctx.factor, None


y = Scale.apply(torch.tensor([1.0], requires_grad=True), 5.0)
print(y, y.grad_fn.next_functions)
print(Scale.apply(torch.tensor([1.0]), 3.0).requires_grad)
