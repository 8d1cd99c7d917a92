import torch
import torch.nn as nn
import torch.nn.functional as F

# integer data fed straight to layers (a LongTensor from torch.tensor([...])): PyTorch's
# floating-only kernels refuse it by name, the clamps keep the integer dtype
x = torch.tensor([[-2, 0, 3, 7]])
layers = [
    nn.ReLU(), nn.ReLU6(), nn.Hardtanh(), nn.Hardtanh(-0.5, 2.5), nn.Threshold(1.5, -7.9),
    nn.LeakyReLU(), nn.ELU(), nn.SELU(), nn.CELU(), nn.GELU(), nn.SiLU(), nn.Mish(),
    nn.Softplus(), nn.Hardsigmoid(), nn.Hardswish(), nn.LogSigmoid(), nn.Hardshrink(),
    nn.Softshrink(), nn.GLU(), nn.RReLU(), nn.PReLU(), nn.Softmax(dim=1), nn.Softmax(dim=0),
    nn.LogSoftmax(dim=1), nn.LogSoftmax(dim=0), nn.Softmin(dim=1), nn.Dropout(), nn.Dropout1d(),
    nn.Conv1d(1, 1, 2),
]  # fmt: skip
for dtype in [torch.int64, torch.int32, torch.uint8, torch.bool]:
    for layer in layers:
        try:
            inp = x.to(dtype) if not isinstance(layer, nn.Conv1d) else x.to(dtype).view(1, 1, 4)
            out = layer(inp)
            print(dtype, layer, out, out.dtype)
        except Exception as e:
            print(dtype, layer, type(e).__name__, e)
print(F.dropout(x, training=False), F.dropout(x, p=0.0), F.relu(x), x.relu())
try:
    F.rrelu(x, training=True)
except NotImplementedError as e:
    print(e)
try:
    F.prelu(x.double(), torch.tensor([0.25]))
except RuntimeError as e:
    print(e)
print(F.softmax(x, dim=1, dtype=torch.float64))
