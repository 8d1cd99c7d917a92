import torch
from torch import autograd


class MyFunc(autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        return inp.clone()

    @staticmethod
    def backward(ctx, gO):
        raise RuntimeError("Some error in backward")
        return gO.clone()


def run_fn(a):
    out = MyFunc.apply(a)
    return out.sum()


inp = torch.rand(10, 10, requires_grad=True)
out = run_fn(inp)
try:
    out.backward()
except RuntimeError as e:
    print(e)
with autograd.detect_anomaly():
    inp = torch.rand(10, 10, requires_grad=True)
    out = run_fn(inp)
    try:
        out.backward()
    except RuntimeError as e:
        print(e)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with autograd.set_detect_anomaly(True, check_nan=False):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    x = torch.tensor([0.0], requires_grad=True)
    y = x.sqrt() * 0
    y.backward()
    print(x.grad)
with autograd.detect_anomaly():
    x = torch.tensor([-1.0], requires_grad=True)
    y = x.sqrt()
    try:
        y.backward()
    except RuntimeError as e:
        print(e)
