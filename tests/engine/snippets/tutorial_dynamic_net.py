# "Learning PyTorch with examples": control flow + weight sharing (DynamicNet), small.
import math
import random

import torch


class DynamicNet(torch.nn.Module):
    def __init__(self):
        """
        In the constructor we instantiate five parameters and assign them as members.
        """
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))
        self.e = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x ** exp
        return y

    def string(self):
        return f'y = {self.a.item()} + {self.b.item()} x + {self.c.item()} x^2 + {self.d.item()} x^3 + {self.e.item()} x^4 ? + {self.e.item()} x^5 ?'


torch.manual_seed(0)
random.seed(0)
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
model = DynamicNet()
print(model)
print([(n, p.shape) for n, p in model.named_parameters()])
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(60):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 20 == 19:
        print(t, f"{loss.item():.5g}", loss.grad_fn)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}'[:30])
print(optimizer)
print(model.e.grad is not None, model.e.grad.shape, model.e.grad.dtype)
nodes = []
fn = model(x).sum().grad_fn
while fn is not None:
    nodes.append(fn.name())
    fn = fn.next_functions[0][0] if fn.next_functions else None
print(nodes)
