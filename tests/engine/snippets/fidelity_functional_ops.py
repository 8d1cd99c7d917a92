import torch
import torch.nn.functional as F

x = torch.linspace(-2, 2, 5, requires_grad=True)
for name in ["relu", "gelu", "silu", "elu", "leaky_relu", "softplus", "tanh", "sigmoid", "hardtanh", "relu6", "mish", "selu", "logsigmoid"]:
    y = getattr(F, name)(x)
    print(name, y, y.grad_fn)
y = F.softmax(x, dim=0)
print(y, y.grad_fn, F.log_softmax(x, 0).grad_fn)
img = torch.arange(16.0).reshape(1, 1, 4, 4)
print(F.avg_pool2d(img, 2), F.max_pool2d(img, 2, stride=1).shape)
print(F.pad(img, (1, 1, 0, 0)).shape, F.pad(x, (2, 0), value=-1.0))
print(F.interpolate(img, scale_factor=2, mode="nearest").shape)
print(F.normalize(torch.tensor([[3.0, 4.0]]), dim=1))
print(F.one_hot(torch.tensor([0, 2, 1]), num_classes=4))
print(F.linear(torch.ones(2, 3), torch.ones(4, 3), torch.zeros(4)).grad_fn)
print(F.conv2d(img, torch.ones(1, 1, 2, 2)).squeeze())
print(F.layer_norm(torch.arange(6.0).reshape(2, 3), (3,)))
print(F.embedding(torch.tensor([1, 0]), torch.arange(6.0).reshape(3, 2)))
print(F.dropout(x, p=0.5, training=False) is x, F.glu(torch.arange(4.0)), F.threshold(x, 0.5, -9.0))
