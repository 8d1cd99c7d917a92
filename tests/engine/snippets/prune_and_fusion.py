# the pruning tutorial's calls (torch.nn.utils.prune) and conv/linear + BatchNorm fusion
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune
torch.manual_seed(0)
m = nn.Linear(3, 3)
prune.l1_unstructured(m, 'weight', amount=0.3)
print(m.weight_mask.sum(), [n for n, _ in m.named_buffers()], [n for n, _ in m.named_parameters()])
prune.remove(m, 'weight')
print([n for n, _ in m.named_parameters()])
prune.random_unstructured(m, name="bias", amount=1)
print(m.bias)
prune.ln_structured(m, name="weight", amount=0.5, n=2, dim=0)
print(m.weight_mask)
from torch.nn.utils.fusion import fuse_conv_bn_eval
conv = nn.Conv2d(1, 2, 1).eval(); bn = nn.BatchNorm2d(2).eval()
f = fuse_conv_bn_eval(conv, bn)
x = torch.randn(1, 1, 2, 2)
print(type(f).__name__, torch.allclose(f(x), bn(conv(x)), atol=1e-6))
from torch.nn.utils.fusion import fuse_linear_bn_eval
lin = nn.Linear(3, 2).eval(); bn1 = nn.BatchNorm1d(2).eval()
bn1.running_mean.fill_(0.5); bn1.running_var.fill_(2.0)
fl = fuse_linear_bn_eval(lin, bn1)
z = torch.randn(4, 3)
print(torch.allclose(fl(z), bn1(lin(z)), atol=1e-6), fl.weight.requires_grad, type(fl.weight).__name__)
m = nn.Conv2d(2, 4, 3)
prune.random_structured(m, "weight", amount=2, dim=0)
print(m.weight_mask.sum(dim=(1, 2, 3)))
prune.l1_unstructured(m, "weight", amount=0.5)
print(len(m._forward_pre_hooks), type(list(m._forward_pre_hooks.values())[0]).__name__, len(list(m._forward_pre_hooks.values())[0]))
print(prune.is_pruned(m), int(m.weight_mask.sum()))
out = m(torch.randn(1, 2, 5, 5)).sum()
out.backward()
print(m.weight_orig.grad.abs().gt(0).sum() == m.weight_mask.sum())
model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2))
prune.global_unstructured([(model[0], "weight"), (model[1], "weight")], pruning_method=prune.L1Unstructured, amount=10)
print(int(model[0].weight_mask.sum() + model[1].weight_mask.sum()))
try:
    prune.remove(model[0], "bias")
except ValueError as e:
    print(e)
try:
    prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=5)
except ValueError as e:
    print(e)
try:
    prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=1.5)
except ValueError as e:
    print(e)
print(prune.L1Unstructured(amount=0.5).prune(torch.tensor([1., -3., 2., 0.5])))
