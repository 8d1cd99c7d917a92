import torch
import torch.nn.functional as F

# under create_graph a convolution's gradients (input, weight and bias alike) are outputs of
# one ConvolutionBackwardBackward0 node over (grad_output, input, weight), as PyTorch's
torch.manual_seed(0)
x1 = torch.randn(2, 3, 8, dtype=torch.float64, requires_grad=True)
w1 = torch.randn(4, 3, 3, dtype=torch.float64, requires_grad=True)
x2 = torch.randn(2, 4, 5, 5, dtype=torch.float64, requires_grad=True)
w2 = torch.randn(4, 4, 3, 3, dtype=torch.float64, requires_grad=True)
wg = torch.randn(4, 2, 3, 3, dtype=torch.float64, requires_grad=True)
wt = torch.randn(4, 2, 3, 3, dtype=torch.float64, requires_grad=True)
b = torch.randn(4, dtype=torch.float64, requires_grad=True)
cases = {
    "conv1d": (lambda: F.conv1d(x1, w1), (x1, w1)),
    "conv2d": (lambda: F.conv2d(x2, w2, b, padding=1), (x2, w2, b)),
    "conv2d_stride": (lambda: F.conv2d(x2, w2, stride=2, dilation=1), (x2, w2)),
    "conv2d_groups": (lambda: F.conv2d(x2, wg, b, groups=2), (x2, wg, b)),
    "conv_transpose2d": (lambda: F.conv_transpose2d(x2, wt, stride=2), (x2, wt)),
}
for name, (f, inputs) in cases.items():
    y = f()
    gs = torch.autograd.grad((y * y.detach().sin()).pow(2).sum(), inputs, create_graph=True)
    fn = gs[0].grad_fn
    print(name, fn.name(), all(g.grad_fn is fn for g in gs))
    print("  ", [n and n.name() for n, _ in fn.next_functions])
    print("  ", fn._saved_stride, fn._saved_padding, fn._saved_groups, fn._saved_transposed)
    h = torch.autograd.grad(sum((g * g).sum() for g in gs), inputs, create_graph=True)
    for t in h:
        print("  ", t.abs().sum().detach(), t.flatten()[:3].detach())
    third = torch.autograd.grad(sum(t.pow(2).sum() for t in h), inputs[0])[0]
    print("  ", third.flatten()[:4])

# only the input requires grad: the weight's gradient edge is None
xi = torch.randn(1, 3, 6, 6, dtype=torch.float64, requires_grad=True)
wf = torch.randn(2, 3, 3, 3, dtype=torch.float64)
(g,) = torch.autograd.grad(F.conv2d(xi, wf).pow(2).sum(), xi, create_graph=True)
print(g.grad_fn.name(), [n and n.name() for n, _ in g.grad_fn.next_functions])
