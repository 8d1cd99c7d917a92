import torch
from torch import nn

model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1),
    nn.BatchNorm2d(8),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Flatten(),
    nn.Linear(8 * 4 * 4, 10),
)
for name, param in model.named_parameters():
    print(name, tuple(param.shape), param.numel())
for name, buf in model.named_buffers():
    print("buffer", name, buf.shape, buf.dtype)
print(sum(p.numel() for p in model.parameters()))
print({k: list(v.shape) for k, v in model.state_dict().items()})
x = torch.ones(2, 3, 8, 8)
print(model(x).shape)
total = 0
for m in model.modules():
    if isinstance(m, (nn.Conv2d, nn.Linear)):
        total += m.weight.numel()
print(total)
print(model)
print(len(list(model.children())), len(list(model.modules())))
print(model[0].weight.dtype, model[0].stride, model[0].padding, model[0].kernel_size)
