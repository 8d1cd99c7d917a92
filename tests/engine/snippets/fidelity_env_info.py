import sys

import torch

print(torch.__version__, torch.version.cuda, torch.cuda.is_available())
print(torch.__version__.split("+")[0], torch.__version__ >= "2.0")
print(torch.get_default_dtype(), torch.get_default_device(), torch.backends.mps.is_built())
print("torch" in sys.modules)
print(torch.float32, torch.int64, torch.bool, torch.float, torch.long, torch.double, torch.half)
print(torch.float32 == torch.float, torch.float32.is_floating_point, torch.int32.itemsize if hasattr(torch.int32, "itemsize") else 4)
print(repr(torch.device("cpu")), torch.device("cpu:0"), torch.device("cpu").type, torch.device("cpu", 0).index)
