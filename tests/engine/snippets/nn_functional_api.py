import torch
import torch.nn.functional as F

x = torch.tensor([[-1.5, 0.0, 2.0], [0.5, -0.5, 1.0]], requires_grad=True)
for fn in [F.relu, F.relu6, F.elu, F.selu, F.celu, F.gelu, F.silu, F.mish, F.softplus, F.softsign,
           F.hardtanh, F.hardswish, F.hardsigmoid, F.logsigmoid, F.tanhshrink, torch.sigmoid, torch.tanh]:
    y = fn(x)
    print(fn.__name__, y.grad_fn.name(), y.detach().round(decimals=4).tolist())
print(F.leaky_relu(x, 0.2))
print(F.gelu(x, approximate="tanh"))
print(F.normalize(x, dim=1))
print(F.linear(x, torch.ones(2, 3), torch.tensor([0.5, -0.5])))
print(F.linear(x, torch.ones(2, 3)).grad_fn.name())
print(F.glu(torch.arange(4.0).reshape(1, 4)))
print(F.pad(x, (1, 1), value=9.0))
print(F.l1_loss(x, torch.zeros(2, 3)), F.smooth_l1_loss(x, torch.zeros(2, 3), beta=0.5))
print(F.binary_cross_entropy_with_logits(x, torch.ones(2, 3)))
print(F.kl_div(F.log_softmax(x, 1), F.softmax(torch.ones(2, 3), 1), reduction="batchmean"))
print(F.relu(x, inplace=False).grad_fn)
