import torch


class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()

    @staticmethod
    def backward(ctx, g1, g2):
        print(g1, g2)
        return g1 + g2


a = torch.tensor([1.0, 2.0], requires_grad=True)
p, q = Split.apply(a)
print(p.grad_fn.name(), p.output_nr if hasattr(p, "output_nr") else None)
(p * 3).sum().backward()
print(a.grad)
