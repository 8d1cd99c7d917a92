import torch

x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x.sqrt() * 0
    z = (y / y).sum()
    try:
        z.backward()
    except RuntimeError as err:
        print("RuntimeError", err)
print(torch.is_anomaly_enabled())
with torch.autograd.set_detect_anomaly(True):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
print(torch.is_anomaly_enabled())
