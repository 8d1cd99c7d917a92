import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 2, 3)
        self.conv2 = nn.Conv2d(2, 3, 2)
        self.fc1 = nn.Linear(3 * 1 * 1, 4)
        self.fc2 = nn.Linear(4, 2)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


net = Net()
print(net)
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (-1) ** i)
params = list(net.parameters())
print(len(params), params[0].size())
inp = torch.arange(64, dtype=torch.float32).reshape(1, 1, 8, 8) / 64
out = net(inp)
print(out, out.grad_fn.name())
net.zero_grad()
out.backward(torch.tensor([[1.0, -1.0]]))
print(net.conv1.weight.grad)
print(net.conv1.bias.grad, net.fc2.bias.grad)
criterion = nn.MSELoss()
loss = criterion(net(inp), torch.tensor([[0.5, 0.5]]))
print(loss)
print(loss.grad_fn)
print(loss.grad_fn.next_functions[0][0])
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(criterion(net(inp), torch.tensor([[0.5, 0.5]])))
