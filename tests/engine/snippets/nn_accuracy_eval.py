import torch
from torch import nn

model = nn.Linear(2, 3)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]))
    model.bias.zero_()
x = torch.tensor([[2.0, 1.0], [0.0, 3.0], [-1.0, -2.0], [1.0, 1.5], [0.5, 0.4]])
y = torch.tensor([0, 1, 2, 0, 0])
model.eval()
with torch.no_grad():
    out = model(x)
    pred = out.argmax(1)
    print(pred)
    print(pred == y)
    print((pred == y).float().mean())
    print((pred == y).sum().item(), (pred == y).sum())
    acc = (out.argmax(dim=1) == y).float().mean().item()
    print(f"accuracy {acc:.2%} {acc * 100:.1f}")
    print(out.requires_grad)
    correct = (out.argmax(1) == y).type(torch.float).sum().item()
    print(correct, type(correct).__name__)
    _, predicted = torch.max(out.data, 1)
    print(predicted, (predicted == y).sum().item() / y.size(0))
    print(torch.max(out, 1))
