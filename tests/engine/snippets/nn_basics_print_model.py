import torch
from torch import nn


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork()
print(model)
print(f"Model structure: {model}\n\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | dtype: {param.dtype} | grad: {param.requires_grad}")
print(sum(p.numel() for p in model.parameters()))
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
X = torch.ones(1, 28, 28)
logits = model(X)
print(logits.shape, logits.grad_fn)
pred_probab = nn.Softmax(dim=1)(logits)
print(pred_probab.shape, pred_probab.grad_fn.name())
y_pred = pred_probab.argmax(1)
print(y_pred.shape, y_pred.dtype)
