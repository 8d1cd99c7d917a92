import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
print(torch.hardshrink(x, 0.5), torch.prelu(x, torch.tensor([0.25])))
print(torch.arctan2(x, torch.ones(3)), x.arctan2(torch.ones(3)), torch.ones(3).arctan2_(torch.ones(3)))
print(torch.conv3d(torch.ones(1, 1, 2, 2, 2), torch.ones(1, 1, 1, 1, 1)).shape, torch.conv_transpose3d(torch.ones(1, 1, 2, 2, 2), torch.ones(1, 1, 1, 1, 1)).shape)
y = torch.ones(3) * -1
print(torch.selu_(y.clone()), torch.celu_(y.clone()), torch.threshold_(y.clone(), 0.5, 7.0))
print(torch.rrelu(torch.ones(2) * -1, 0.1, 0.3, False))
print(x.is_cpu, x.is_sparse, x.is_quantized, x.is_meta, x.is_nested, x.is_pinned(), x.is_same_size(torch.ones(2, 3)), x.is_shared())
print(x.to_dense() is x)
