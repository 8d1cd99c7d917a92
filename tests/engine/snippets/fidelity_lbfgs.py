import torch

torch.manual_seed(0)
x_data = torch.linspace(-2, 2, 30)
y_data = 1.5 * x_data ** 3 - 0.5 * x_data + 0.3 + 0.1 * torch.randn(30)
params = torch.zeros(4, requires_grad=True)
optimizer = torch.optim.LBFGS([params], lr=1, max_iter=20)


def closure():
    optimizer.zero_grad()
    pred = params[0] * x_data ** 3 + params[1] * x_data ** 2 + params[2] * x_data + params[3]
    loss = ((pred - y_data) ** 2).mean()
    loss.backward()
    return loss


for i in range(3):
    loss = optimizer.step(closure)
    print(i, f"{loss.item():.4f}", params.detach().round(decimals=4))
print(optimizer.state[params]["func_evals"], optimizer.state[params]["n_iter"])
w = torch.tensor([-1.2, 1.0], requires_grad=True)
opt = torch.optim.LBFGS([w], line_search_fn="strong_wolfe", max_iter=50)


def rosen():
    opt.zero_grad()
    f = (1 - w[0]) ** 2 + 100 * (w[1] - w[0] ** 2) ** 2
    f.backward()
    return f


for _ in range(2):
    opt.step(rosen)
print(w.detach().round(decimals=4), f"{rosen().item():.6f}")
print(opt)
