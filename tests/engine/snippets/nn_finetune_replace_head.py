import torch
from torch import nn, optim


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(4, 6), nn.ReLU())
        self.fc = nn.Linear(6, 10)

    def forward(self, x):
        return self.fc(self.features(x))


model = Backbone()
for param in model.parameters():
    param.requires_grad = False
model.fc = nn.Linear(6, 2)
print(model)
print([n for n, p in model.named_parameters() if p.requires_grad])
optimizer = optim.SGD(model.fc.parameters(), lr=1e-2, momentum=0.9)
nn.init.constant_(model.fc.weight, 0.1)
nn.init.zeros_(model.fc.bias)
with torch.no_grad():
    for p in model.features.parameters():
        p.fill_(0.2)
x = torch.arange(8.0).reshape(2, 4)
out = model(x)
print(out, out.grad_fn.name())
loss = nn.functional.cross_entropy(out, torch.tensor([0, 1]))
loss.backward()
print(model.features[0].weight.grad, model.fc.weight.grad)
optimizer.step()
print(model.fc.bias)
h = model.features(x)
print(h.requires_grad, h.grad_fn)
