import torch.nn as nn

# blog posts and tutorials print a module's own registries: plain dicts in PyTorch 2.x
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
print(net._modules)
print(net._modules.keys())
print(net[0]._parameters.keys(), type(net[0]._parameters).__name__)
bn = nn.BatchNorm1d(2)
print(bn._buffers.keys(), type(bn._buffers).__name__)
print(type(net.state_dict()).__name__, net.state_dict().keys())
