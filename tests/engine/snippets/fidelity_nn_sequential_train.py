import torch

torch.manual_seed(42)
x = torch.linspace(-1, 1, 100).unsqueeze(1)
y = x.pow(2) + 0.1 * torch.rand(x.size())
net = torch.nn.Sequential(torch.nn.Linear(1, 10), torch.nn.ReLU(), torch.nn.Linear(10, 1))
optimizer = torch.optim.SGD(net.parameters(), lr=0.2)
loss_func = torch.nn.MSELoss()
for t in range(50):
    prediction = net(x)
    loss = loss_func(prediction, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if t % 10 == 0:
        print(t, f"{loss.data.numpy():.4f}")
print(net[0].weight.grad.norm())
print(net(torch.tensor([[0.5]])))
