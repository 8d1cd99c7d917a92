import torch

torch.manual_seed(0)
X = torch.linspace(-1, 1, 8).unsqueeze(1)
Y = 3 * X - 0.5
W = torch.zeros(1, 1, requires_grad=True)
B = torch.zeros(1, requires_grad=True)
for epoch in range(20):
    loss = torch.nn.functional.mse_loss(X @ W + B, Y)
    loss.backward()
    with torch.no_grad():
        for p in (W, B):
            p.sub_(0.3 * p.grad)
            p.grad.zero_()
    if epoch % 5 == 0:
        print(epoch, f"{loss.item():.5f}")
print(W, B)
