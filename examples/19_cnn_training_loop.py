# title: A small CNN's training loop (Conv2d, BatchNorm2d, ReLU, MaxPool2d, Linear; 3 SGD steps)
# A LeNet-sized classifier on a batch of 28x28 images, trained for three steps with SGD and
# momentum. The graph shows one iteration at a time (pick another with the iteration selector);
# each module starts collapsed to one box: click it to see the ops inside.
import torch
from torch import nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(16)
        self.fc = nn.Linear(16 * 7 * 7, 10)

    def forward(self, x):
        x = self.pool(self.relu(self.bn1(self.conv1(x))))
        x = self.pool(self.relu(self.bn2(self.conv2(x))))
        return self.fc(torch.flatten(x, 1))


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
images = torch.randn(8, 1, 28, 28)
labels = torch.randint(0, 10, (8,))

for step in range(3):
    opt.zero_grad()
    loss = loss_fn(model(images), labels)
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")

print(model.fc.bias.grad.norm())
