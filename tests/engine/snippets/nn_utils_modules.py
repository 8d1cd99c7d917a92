# torch.nn.utils' skip_init, stateless.functional_call, conv weight memory-format conversion and the convert_parameters/memory_format/init/stateless submodules
import warnings

import torch
import torch.nn.utils as u

print([n for n in u.__all__])
print(u.memory_format.__all__, u.stateless.__all__)
print(u.convert_parameters.parameters_to_vector is u.parameters_to_vector, u.init.skip_init is u.skip_init)
torch.manual_seed(0)
m = u.skip_init(torch.nn.Linear, 5, 2, bias=False)
print(m, m.weight.shape, m.weight.dtype, m.weight.requires_grad, type(m.weight).__name__)
print(torch.rand(3))  # skip_init leaves the generator alone
m2 = u.skip_init(torch.nn.Conv2d, in_channels=2, out_channels=3, kernel_size=2, device="cpu")
print(m2, m2.weight.shape, m2.bias.shape)
for bad in (int, torch.nn.Module):
    try:
        u.skip_init(bad)
    except RuntimeError as e:
        print("RuntimeError", str(e).replace("engine", "torch"))
lin = torch.nn.Linear(3, 2)
x = torch.randn(4, 3)
w = torch.ones(2, 3, requires_grad=True)
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter("always")
    y = u.stateless.functional_call(lin, {"weight": w}, (x,))
print([(type(c.message).__name__, str(c.message)) for c in ws])
print(y, type(y.grad_fn).__name__)
y.sum().backward()
print(w.grad, lin.weight.grad)
net = torch.nn.Sequential(torch.nn.Conv2d(2, 3, 2), torch.nn.Sequential(torch.nn.ConvTranspose2d(3, 2, 2)), torch.nn.Conv3d(1, 1, 1))
before = [p.clone() for p in net.parameters()]
out = u.convert_conv2d_weight_memory_format(net, torch.channels_last)
print(out is net, [p.is_contiguous(memory_format=torch.channels_last) for p in net.parameters()])
print([p.is_contiguous() for p in net.parameters()], [p.stride() for p in net.parameters()])
print(all(torch.equal(a, b) for a, b in zip(before, net.parameters())), type(net[0].weight).__name__)
u.convert_conv3d_weight_memory_format(net, torch.channels_last_3d)
print(net[2].weight.is_contiguous(memory_format=torch.channels_last_3d), net[2].weight.stride())
print(net[0].weight.requires_grad, net[0].weight.grad_fn)
