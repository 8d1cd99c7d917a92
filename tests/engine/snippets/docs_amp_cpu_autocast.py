import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


model = Net()
optimizer = optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.CrossEntropyLoss()
data = [(torch.randn(5, 4), torch.randint(0, 3, (5,))) for _ in range(3)]
print(torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
for epoch in range(2):
    for input, target in data:
        optimizer.zero_grad()
        # Runs the forward pass with autocasting.
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            output = model(input)
            loss = loss_fn(output, target)
            print(torch.is_autocast_enabled("cpu"), output.dtype, loss.dtype)
        loss.backward()
        optimizer.step()
        print(epoch, round(loss.item(), 4), model.fc1.weight.grad.dtype)
print(output.grad_fn, output.grad_fn.next_functions)
print(loss.grad_fn, loss.grad_fn.next_functions[0][0].next_functions)
print(model.fc2.weight.grad)

x = torch.randn(2, 4)
with torch.autocast("cpu"):
    h = model.fc1(x)
    z = model.fc1(h.float()[:, :4])
    print(h.dtype, z.grad_fn.next_functions[2][0].next_functions)
    print(h.grad_fn.next_functions[2][0].next_functions[0][0] is z.grad_fn.next_functions[2][0].next_functions[0][0])
    print(torch.mm(x.double(), x.double().T).dtype, torch.mv(x, x[0]).dtype, (x[0] @ x[1]).dtype)
    print(torch.prod(x.bfloat16()).dtype, torch.cat([x, x.bfloat16()]).dtype)
    with torch.autocast("cpu", enabled=False):
        print((x @ x.T).dtype, torch.is_autocast_enabled("cpu"))
    with torch.autocast("cpu", dtype=torch.float16):
        print(torch.mm(x, x.T).dtype, torch.get_autocast_dtype("cpu"))
    print(torch.get_autocast_dtype("cpu"))


@torch.autocast("cpu")
def f(a):
    return a @ a.T


print(f(x))
with torch.autocast("cpu", dtype=torch.float64):
    print(torch.is_autocast_enabled("cpu"), (x @ x.T).dtype)
with torch.cpu.amp.autocast():
    print((x @ x.T).dtype)
conv = nn.Conv2d(1, 2, 3)
with torch.autocast("cpu"):
    out = conv(torch.randn(1, 1, 5, 5))
print(out.dtype, out.grad_fn, out.sum())
q = torch.randn(1, 2, 3, 4)
with torch.autocast("cpu"):
    att = torch.nn.functional.scaled_dot_product_attention(q, q * 2, q.flip(-1))
    net = nn.Sequential(nn.Linear(4, 4), nn.LayerNorm(4), nn.GELU(), nn.Linear(4, 2))
    o = net(q)
print(att.dtype, att.shape, o.dtype, o.grad_fn)
