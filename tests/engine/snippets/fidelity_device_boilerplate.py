import random

import numpy as np
import torch
import torch.nn as nn


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False


set_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, torch.cuda.is_available(), torch.cuda.device_count())
print(torch.backends.mps.is_available(), torch.backends.cudnn.is_available())
mps = "mps" if torch.backends.mps.is_available() else "cpu"
print(mps)
model = nn.Linear(3, 1).to(device)
x = torch.randn(4, 3, device=device)
print(model(x).device, next(model.parameters()).device, x.is_cuda)
print(model.weight.device.type, torch.device("cpu") == device, str(device))
torch.set_num_threads(1)
print(torch.get_num_threads())
torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled())
print(x.cpu().numpy().shape, x.to("cpu", torch.float64).dtype, x.to(x).dtype)
try:
    torch.cuda.current_device()
except AssertionError as e:
    print(e)
try:
    x.cuda()
except AssertionError as e:
    print(e)
