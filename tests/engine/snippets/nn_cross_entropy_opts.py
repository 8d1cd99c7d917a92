import torch
import torch.nn.functional as F
from torch import nn

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.0], [1.0, 1.0, 1.0]], requires_grad=True)
target = torch.tensor([0, 2, 1, -100])
print(F.cross_entropy(logits, target))
print(F.cross_entropy(logits, target, reduction="sum"))
print(F.cross_entropy(logits, target, reduction="none"))
w = torch.tensor([1.0, 2.0, 0.5])
print(F.cross_entropy(logits, target, weight=w))
print(F.cross_entropy(logits, torch.tensor([0, 2, 1, 1]), ignore_index=1))
print(F.cross_entropy(logits, torch.tensor([0, 2, 1, 1]), label_smoothing=0.1))
loss = nn.CrossEntropyLoss(weight=w, ignore_index=-100)(logits, target)
print(loss)
loss.backward()
print(logits.grad)
print(nn.CrossEntropyLoss(reduction="none"))
probs = torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])
print(F.cross_entropy(torch.tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]]), probs))
print(F.nll_loss(F.log_softmax(logits, dim=1), target))
try:
    F.cross_entropy(logits, torch.tensor([0, 5, 1, 1]))
except (IndexError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    F.cross_entropy(logits, torch.tensor([0.0, 1.0, 1.0, 1.0]))
except RuntimeError as e:
    print(type(e).__name__, e)
