import torch
import torch.nn as nn

x = torch.arange(9.0).view(1, 1, 3, 3).requires_grad_()
for layer in [nn.ReflectionPad2d(1), nn.ReplicationPad2d((1, 0, 2, 1)), nn.ZeroPad2d(1), nn.ConstantPad2d(1, -1.0)]:
    y = layer(x)
    print(layer, y.shape, y.grad_fn)
    print(y[0, 0])
    y.sum().backward()
    print(x.grad[0, 0])
    x.grad = None
s = torch.arange(4.0).view(1, 1, 4)
print(nn.ReflectionPad1d(2)(s), nn.ReplicationPad1d((1, 2))(s))
print(type(nn.ReflectionPad2d(1)))
