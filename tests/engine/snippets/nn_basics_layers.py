import torch
from torch import nn

input_image = torch.arange(3 * 4 * 4, dtype=torch.float32).reshape(3, 4, 4) / 10
print(input_image.size())
flatten = nn.Flatten()
flat_image = flatten(input_image)
print(flat_image.size())
layer1 = nn.Linear(in_features=16, out_features=5)
with torch.no_grad():
    layer1.weight.copy_(torch.linspace(-1, 1, 80).reshape(5, 16))
    layer1.bias.fill_(0.05)
hidden1 = layer1(flat_image)
print(hidden1.size())
print(f"Before ReLU: {hidden1}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")
seq_modules = nn.Sequential(flatten, layer1, nn.ReLU(), nn.Linear(5, 2))
print(seq_modules)
print(seq_modules[1] is layer1, len(seq_modules))
print(seq_modules[:2])
softmax = nn.Softmax(dim=1)
print(softmax(hidden1).sum(1))
