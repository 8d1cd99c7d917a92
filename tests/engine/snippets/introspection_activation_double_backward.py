import torch
import torch.nn.functional as F
x = torch.randn(3, requires_grad=True, dtype=torch.float64)
names = ["relu", "gelu", "silu", "mish", "elu", "selu", "celu", "leaky_relu", "hardswish", "hardsigmoid", "softplus", "hardtanh", "relu6", "sigmoid", "tanh", "logsigmoid", "softsign", "tanhshrink", "hardshrink", "softshrink", "threshold"]
for n in names:
    f = getattr(F, n)
    try:
        y = f(x, 0.5, 0.0) if n == "threshold" else f(x)
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        print(n, y.grad_fn.name(), g.grad_fn.name() if g.grad_fn else None)
    except Exception as e:
        print(n, "ERR", e)
