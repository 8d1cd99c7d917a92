# Tangents through a range of ops (values checked against PyTorch's forward formulas).
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
v = torch.tensor([[1.0, 0.5, -1.0], [0.25, 2.0, 1.0]])
w = torch.tensor([[1.0, 2.0], [0.0, -1.0], [3.0, 1.0]])

ops = {
    "tanh": lambda a: a.tanh(),
    "sigmoid": lambda a: torch.sigmoid(a),
    "relu": lambda a: F.relu(a),
    "softmax": lambda a: a.softmax(-1),
    "log_softmax": lambda a: F.log_softmax(a, dim=1),
    "mm": lambda a: a @ w,
    "sum_dim": lambda a: a.sum(1),
    "mean": lambda a: a.mean(),
    "pow": lambda a: a.pow(3),
    "div": lambda a: 1.0 / (a + 3.0),
    "exp_log": lambda a: (a.exp() + 1).log(),
    "transpose": lambda a: a.t() * 2,
    "reshape": lambda a: a.reshape(3, 2),
    "cat": lambda a: torch.cat([a, a * 2], 0),
    "stack": lambda a: torch.stack([a, -a]),
    "index": lambda a: a[:, 1:],
    "where": lambda a: torch.where(a > 0, a, a * a),
    "max": lambda a: a.max(),
    "norm": lambda a: a.norm(),
    "layer_norm": lambda a: F.layer_norm(a, (3,)),
    "mse": lambda a: F.mse_loss(a, torch.zeros(2, 3)),
    "to64": lambda a: a.double() * 2,
}
with fwAD.dual_level():
    for name, f in ops.items():
        out = f(fwAD.make_dual(x, v))
        p, t = fwAD.unpack_dual(out)
        print(name, t)
    y = fwAD.make_dual(x.clone(), v)
    y.mul_(2)
    print(y)
    q = torch.zeros(2, 3)
    q.add_(fwAD.make_dual(x, v))
    print(q)
