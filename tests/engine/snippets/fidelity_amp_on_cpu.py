import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.cuda.amp.GradScaler()
x = torch.randn(4, 3)
y = torch.randn(4, 1)
for step in range(3):
    opt.zero_grad()
    with torch.cuda.amp.autocast():
        loss = nn.functional.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    print(step, round(loss.item(), 4), loss.dtype, scaler.get_scale(), scaler.is_enabled())
scaler2 = torch.amp.GradScaler("cuda")
with torch.autocast(device_type="cuda", dtype=torch.float16):
    out = model(x)
print(out.dtype, scaler2.is_enabled())
with torch.autocast("cpu", enabled=False):
    print(model(x).dtype)
