import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(4, 3, requires_grad=True)
target = torch.tensor([0, 2, 1, 2])
ce = F.cross_entropy(logits, target)
print(ce, ce.grad_fn)
ce.backward()
print(logits.grad)
print(F.cross_entropy(logits, target, reduction="none"))
print(F.cross_entropy(logits, target, label_smoothing=0.1))
print(F.nll_loss(F.log_softmax(logits, dim=1), target))
p = torch.sigmoid(torch.randn(5))
t = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0])
print(F.binary_cross_entropy(p, t), nn.BCELoss(reduction="sum")(p, t))
print(F.mse_loss(p, t), F.l1_loss(p, t), F.smooth_l1_loss(p * 3, t), F.huber_loss(p * 3, t, delta=0.5))
print(F.kl_div(F.log_softmax(logits, 1), F.softmax(torch.ones(4, 3), 1), reduction="batchmean"))
print(nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 3.0]))(logits, target))
print(F.cosine_similarity(logits[0:1], logits[1:2]), F.softmax(logits, dim=1).argmax(1))
