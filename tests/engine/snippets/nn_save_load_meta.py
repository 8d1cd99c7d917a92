import io
import torch
buf = io.BytesIO()
x = torch.arange(6.0).reshape(2, 3)
torch.save({"shape": x.shape, "dtype": x.dtype, "t": x, "dev": torch.device("cpu"), "opt": torch.optim.Adam([torch.nn.Parameter(torch.ones(1))]).state_dict()}, buf)
buf.seek(0)
d = torch.load(buf, weights_only=True)
print(d)
print(type(d["shape"]).__name__, d["dtype"] is torch.float32)
