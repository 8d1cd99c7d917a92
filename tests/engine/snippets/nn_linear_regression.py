import torch
import torch.nn as nn

x = torch.linspace(0, 1, 8).unsqueeze(1)
y = 3 * x + 0.5
model = nn.Linear(1, 1)
nn.init.zeros_(model.weight)
nn.init.zeros_(model.bias)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(60):
    optimizer.zero_grad()
    outputs = model(x)
    loss = criterion(outputs, y)
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 10 == 0:
        print(f"Epoch [{epoch + 1}/60], Loss: {loss.item():.4f}")
print(f"w={model.weight.item():.3f} b={model.bias.item():.3f}")
with torch.no_grad():
    predicted = model(torch.tensor([[2.0]]))
print(predicted.round(decimals=2))
print(model.weight.grad is not None, model.weight.grad.shape)
print(model.state_dict()["weight"].round(decimals=3))
