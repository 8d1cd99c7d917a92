# The examples on the torch.nn.Module docs page: to(), apply(), modules(), named_modules(),
# named_parameters(), children(), get_submodule(), register_buffer(), zero_grad, requires_grad_.
import torch
from torch import nn

torch.manual_seed(0)
linear = nn.Linear(2, 2)
print(linear.weight)
print(linear.to(torch.double))
print(linear.weight)
cpu = torch.device("cpu")
print(linear.to(cpu))
linear = nn.Linear(2, 2, bias=None).to(torch.cdouble)
print(linear.weight)
print(linear(torch.ones(3, 2, dtype=torch.cdouble)))


@torch.no_grad()
def init_weights(m):
    print(m)
    if type(m) is nn.Linear:
        m.weight.fill_(1.0)
        print(m.weight)


net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
print(net.apply(init_weights))

l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.modules()):
    print(idx, '->', m)
for idx, m in enumerate(net.named_modules()):
    print(idx, '->', m)
print([n for n, _ in net.named_modules(remove_duplicate=False)])
for name, param in net.named_parameters():
    if name in ['bias']:
        print(param.size())
print([n for n, _ in net.named_parameters(remove_duplicate=False)])
print(list(net.children()))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.net_b = nn.Module()
        self.net_b.net_c = nn.Module()
        self.net_b.net_c.conv = nn.Conv2d(16, 33, 3, 2)
        self.net_b.linear = nn.Linear(100, 200)
        self.register_buffer('running_mean', torch.zeros(4))
        self.register_buffer('tmp', torch.ones(1), persistent=False)


a = Net()
print(a.get_submodule("net_b.net_c.conv"))
print(a.get_parameter("net_b.linear.bias").shape)
print(a.get_buffer("running_mean"))
print(list(a.state_dict().keys()))
print([n for n, _ in a.named_buffers()])
try:
    a.get_submodule("net_b.missing")
except AttributeError as e:
    print("AttributeError:", e)
try:
    a.register_buffer("running_mean", torch.ones(2))
except KeyError as e:
    print("KeyError:", e)
try:
    a.register_buffer("x.y", torch.ones(2))
except KeyError as e:
    print("KeyError:", e)
a.requires_grad_(False)
print(all(not p.requires_grad for p in a.parameters()))
print(a.net_b.linear.extra_repr())
a.get_parameter("net_b.linear.weights")
