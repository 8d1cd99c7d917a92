import torch
import torchvision
from torchvision import models, transforms
from torchvision.models import resnet18

torch.manual_seed(0)
for name in ["resnet18", "resnet50", "vgg11", "mobilenet_v2"]:
    m = getattr(models, name)()
    sd = m.state_dict()
    n = sum(p.numel() for p in m.parameters())
    print(name, type(m).__name__, len(sd), n)
    print([(k, tuple(v.shape)) for k, v in sd.items()])
print(models.ResNet18_Weights.DEFAULT, models.ResNet50_Weights.DEFAULT)
m = resnet18(num_classes=10)
print(m.fc)
print(m.layer1)
x = torch.randn(2, 3, 64, 64, requires_grad=True)
y = m(x)
print(y.round(decimals=2), y.grad_fn.name())
(y * torch.arange(10.0)).sum().backward()
sums = [x.grad.abs().sum().item(), m.conv1.weight.grad.abs().sum().item()]
print([f"{v:.5g}" for v in sums], m.layer4[1].bn2.weight.grad[:4])
m.eval()
with torch.no_grad():
    print(m(x)[:, :3])
mb = models.mobilenet_v2(num_classes=5).eval()
print(mb.features[1])
print(mb(torch.randn(1, 3, 32, 32)).shape)

t = transforms.Compose(
    [transforms.Resize(32), transforms.CenterCrop(28), transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))]
)
img = torch.rand(3, 40, 50)
out = t(img)
print(out.shape, round(out.mean().item(), 3))
print(t)
import numpy as np

arr = (np.arange(2 * 3 * 3) % 256).astype(np.uint8).reshape(2, 3, 3)
print(transforms.ToTensor()(arr))
torch.manual_seed(1)
print(transforms.RandomCrop(2)(torch.arange(16.0).reshape(1, 4, 4)))
print(transforms.RandomHorizontalFlip(p=1.0)(torch.arange(4.0).reshape(1, 2, 2)))
print(transforms.RandomResizedCrop(4)(torch.arange(64.0).reshape(1, 8, 8)).shape)
print(transforms.functional.hflip(torch.arange(4.0).reshape(1, 2, 2)))
