# linalg refuses integer and bool matrices with ATen's messages (dtype named as ATen names it)
import torch

ints = torch.arange(4).reshape(2, 2)
flags = torch.eye(2, dtype=torch.bool)
calls = {
    "svd": torch.linalg.svd,
    "svdvals": torch.linalg.svdvals,
    "qr": torch.linalg.qr,
    "eigh": torch.linalg.eigh,
    "inv": torch.linalg.inv,
    "det": torch.linalg.det,
    "slogdet": torch.linalg.slogdet,
    "cholesky": torch.linalg.cholesky,
    "pinv": torch.linalg.pinv,
}
for name, f in calls.items():
    for a in (ints, flags):
        try:
            f(a)
            print(name, a.dtype, "ok")
        except Exception as e:  # noqa: BLE001
            print(name, a.dtype, type(e).__name__, e)
for a in (torch.ones(3), torch.ones((), dtype=torch.half)):
    try:
        torch.linalg.pinv(a)
    except RuntimeError as e:
        print("pinv", a.dtype, e)
