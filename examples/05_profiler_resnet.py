# title: Profiling forward and backward of torchvision's resnet18
# compare: profiler (timings differ on every run)
# torch.autograd.profiler gives per-op CPU timings. The note profiles torchvision's resnet18 on
# a 224x224 image; as written, except that it loops once instead of 100 times.
import torch
from torchvision.models import resnet18

x = torch.randn((1, 3, 224, 224), requires_grad=True)
model = resnet18()
with torch.autograd.profiler.profile() as prof:
    for _ in range(1):
        y = model(x)
        y = torch.sum(y)
        y.backward()
# NOTE: some columns were removed for brevity
print(prof.key_averages().table(sort_by="self_cpu_time_total"))
