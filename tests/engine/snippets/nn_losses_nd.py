import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4).sin().requires_grad_()
target = torch.tensor([[0, 1, 2, 1], [2, 2, 0, -100]])
loss = nn.CrossEntropyLoss()(logits, target)
print(loss, loss.grad_fn.name())
loss.backward()
print(logits.grad[0])
print(F.cross_entropy(logits, target, reduction="none"))
m = nn.LogSoftmax(dim=1)
nll = nn.NLLLoss()
inp = torch.tensor([[0.2, 1.0, -0.5], [1.5, 0.3, 0.0]], requires_grad=True)
out = nll(m(inp), torch.tensor([1, 0]))
print(out, out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())
bce = nn.BCELoss()
s = torch.sigmoid(torch.tensor([0.5, -1.0, 2.0], requires_grad=True))
print(bce(s, torch.tensor([1.0, 0.0, 1.0])))
print(nn.BCELoss(weight=torch.tensor([1.0, 2.0, 3.0]), reduction="sum")(s, torch.tensor([1.0, 0.0, 1.0])))
print(nn.KLDivLoss(reduction="batchmean")(F.log_softmax(inp, 1), F.softmax(inp.detach() * 2, 1)))
try:
    F.binary_cross_entropy(torch.tensor([0.5, 1.5]), torch.tensor([1.0, 0.0]))
except RuntimeError as e:
    print(e)
try:
    F.mse_loss(torch.ones(2, 2), torch.ones(3))
except RuntimeError as e:
    print(e)
