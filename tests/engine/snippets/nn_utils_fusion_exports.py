# torch.nn.utils exports fusion and its fuse_* functions; their refusals are AssertionErrors with PyTorch's messages
import torch
import torch.nn as nn
torch.manual_seed(0)
conv = nn.Conv2d(2, 3, 3).eval()
bn = nn.BatchNorm2d(3).eval()
bn.running_mean.uniform_(); bn.running_var.uniform_(0.5, 1.5)
fused = nn.utils.fuse_conv_bn_eval(conv, bn)
x = torch.randn(1, 2, 5, 5)
print(fused, torch.allclose(fused(x), bn(conv(x)), atol=1e-6), type(fused.weight).__name__)
lin = nn.Linear(3, 4).eval(); bn1 = nn.BatchNorm1d(4).eval()
fl = nn.utils.fusion.fuse_linear_bn_eval(lin, bn1); print(fl, fl.bias)
w, b = nn.utils.fuse_linear_bn_weights(lin.weight, None, bn1.running_mean, bn1.running_var, 1e-5, bn1.weight, bn1.bias); print(w.shape, b)
w, b = nn.utils.fuse_conv_bn_weights(nn.ConvTranspose2d(2, 3, 3).weight, None, bn.running_mean[:3], bn.running_var, 1e-5, None, None, transpose=True); print(w.shape)
for f in (lambda: nn.utils.fuse_conv_bn_eval(nn.Conv2d(1, 1, 1), bn), lambda: nn.utils.fuse_linear_bn_eval(lin, nn.BatchNorm1d(3).eval()), lambda: nn.utils.fuse_conv_bn_eval(conv, nn.BatchNorm2d(3, track_running_stats=False).eval())):
    try: f()
    except AssertionError as e: print("AssertionError:", e)
