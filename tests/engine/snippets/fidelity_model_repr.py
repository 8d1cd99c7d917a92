import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(c)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.act(self.bn(self.conv(x))) + x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1)
        self.blocks = nn.Sequential(*[Block(4) for _ in range(2)])
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(4, 10))
        self.extra = nn.ModuleDict({"a": nn.LeakyReLU(0.2), "b": nn.GELU()})
        self.params = nn.ParameterList([nn.Parameter(torch.zeros(2))])

    def forward(self, x):
        return self.head(self.pool(self.blocks(self.stem(x))))


torch.manual_seed(0)
net = Net()
print(net)
print(net(torch.randn(2, 1, 8, 8)).shape)
print(nn.LSTM(10, 20, num_layers=2, batch_first=True, dropout=0.1), nn.GRU(3, 4, bidirectional=True))
print(nn.Embedding(10, 3, padding_idx=0), nn.LayerNorm([4, 4]), nn.GroupNorm(2, 4), nn.MaxPool2d(2, stride=2))
print(nn.Conv1d(2, 3, 5, stride=2, dilation=2), nn.ConvTranspose2d(4, 2, 2, stride=2), nn.AvgPool2d(3))
print(nn.Softmax(dim=1), nn.LogSoftmax(dim=-1), nn.CrossEntropyLoss(), nn.BCEWithLogitsLoss(), nn.Identity())
print(torch.optim.Adam(net.parameters(), lr=1e-3))
print(torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9))
