import torch
from torch import nn, optim
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader

x_train = torch.arange(32, dtype=torch.float32).reshape(8, 4) / 32
y_train = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1])
x_valid, y_valid = x_train[:4], y_train[:4]
loss_func = F.cross_entropy


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)

    def forward(self, xb):
        return self.lin(xb)


def get_model():
    model = Mnist_Logistic()
    with torch.no_grad():
        model.lin.weight.copy_(torch.linspace(-0.3, 0.3, 12).reshape(3, 4))
        model.lin.bias.zero_()
    return model, optim.SGD(model.parameters(), lr=0.5)


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def get_data(train_ds, valid_ds, bs):
    return (
        DataLoader(train_ds, batch_size=bs, shuffle=False),
        DataLoader(valid_ds, batch_size=bs * 2),
    )


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = sum(l * n for l, n in zip(losses, nums)) / sum(nums)
        print(epoch, f"{val_loss:.4f}")


train_ds = TensorDataset(x_train, y_train)
valid_ds = TensorDataset(x_valid, y_valid)
train_dl, valid_dl = get_data(train_ds, valid_ds, 2)
model, opt = get_model()
fit(3, model, loss_func, opt, train_dl, valid_dl)
print(model.lin.weight)


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


def preprocess(x):
    return x.view(-1, 1, 2, 2)


seq = nn.Sequential(
    Lambda(preprocess),
    nn.Conv2d(1, 2, kernel_size=2, stride=1, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
print(seq)
with torch.no_grad():
    seq[1].weight.fill_(0.25)
    seq[1].bias.fill_(-0.1)
out = seq(x_train)
print(out.shape, out[:2])
print(out.grad_fn)
