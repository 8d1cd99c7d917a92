import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(3, 1, bias=False)
        self.register_buffer("scale", torch.tensor(2.0))

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x))) * self.scale


torch.manual_seed(0)
net = Net()
print(net)
print(sum(p.numel() for p in net.parameters()), [n for n, _ in net.named_parameters()])
print(list(net.state_dict().keys()), [n for n, _ in net.named_buffers()])
print([name for name, _ in net.named_modules()], len(list(net.children())))
out = net(torch.ones(2, 4))
print(out)
net.zero_grad()
out.sum().backward()
print(net.fc1.weight.grad)
net.requires_grad_(False)
print(net.fc1.weight.requires_grad, net.training, net.eval().training)
print(net.fc1.weight.dtype, net.double().fc1.weight.dtype)
sd = net.state_dict()
net2 = Net()
print(net2.load_state_dict(sd))
print(torch.equal(net2.fc1.weight, net.fc1.weight.float()))
print(nn.Sequential(nn.Linear(2, 2), nn.Sigmoid())[0], nn.ModuleList([nn.ReLU(), nn.Tanh()]))
print(net.fc1.extra_repr(), net.get_submodule("fc2"), net.get_parameter("fc1.bias").shape)
