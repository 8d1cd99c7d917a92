# title: Profiling forward and backward of a small ResNet block
# compare: profiler (timings differ on every run)
# torch.autograd.profiler gives per-op CPU timings. The note profiles torchvision's resnet18 on
# a 224x224 image 100 times; here a small ResNet-style block built from torch.nn stands in,
# on a 32x32 image, for 3 iterations. Timings differ on every run.
import torch
from torch import nn

torch.manual_seed(0)


class BasicBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + x)


def resnet_tiny():
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False),
        nn.BatchNorm2d(8),
        nn.ReLU(),
        BasicBlock(8),
        nn.AdaptiveAvgPool2d((1, 1)),
        nn.Flatten(),
        nn.Linear(8, 10),
    )


x = torch.randn((1, 3, 32, 32), requires_grad=True)
model = resnet_tiny()
with torch.autograd.profiler.profile() as prof:
    for _ in range(3):
        y = model(x)
        y = torch.sum(y)
        y.backward()
# NOTE: some columns were removed for brevity
print(prof.key_averages().table(sort_by="self_cpu_time_total"))
