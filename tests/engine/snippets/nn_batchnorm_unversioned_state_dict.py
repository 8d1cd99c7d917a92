import torch
import torch.nn as nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4 * 4 * 4, 10)
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
    def forward(self, x):
        x = torch.relu(self.bn(self.conv(x)))
        return self.fc(x.flatten(1))
net = Net()
print(net)
print([k for k in net.state_dict()])
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
acts = {}
def hook(mod, inp, out):
    acts[type(mod).__name__] = out.shape
h = net.conv.register_forward_hook(hook)
net(torch.randn(2, 1, 4, 4))
print(acts); h.remove()
for n, mod in net.named_modules():
    print(repr(n), type(mod).__name__)
print(net.bn.running_mean, net.bn.num_batches_tracked)
nn.init.kaiming_normal_(net.conv.weight, mode='fan_out', nonlinearity='relu')
nn.init.constant_(net.conv.bias, 0)
nn.init.xavier_uniform_(net.fc.weight, gain=nn.init.calculate_gain('tanh'))
print(net.conv.weight.std().item() > 0, nn.init.calculate_gain('leaky_relu', 0.2))
net.eval()
with torch.no_grad():
    print(net(torch.ones(1, 1, 4, 4)).shape)
net2 = Net()
print(net2.load_state_dict(net.state_dict()))
try:
    net2.load_state_dict({"x": torch.ones(1)})
except RuntimeError as e:
    print(e)
print(net2.load_state_dict({"x": torch.ones(1)}, strict=False))
net.apply(lambda m: print(type(m).__name__) if isinstance(m, nn.Linear) else None)
print(net.fc.weight.grad_fn, net.training, net.bn.training)
print(nn.utils.parameters_to_vector(net.parameters()).shape)
print(nn.utils.clip_grad_norm_(net.parameters(), 1.0))
