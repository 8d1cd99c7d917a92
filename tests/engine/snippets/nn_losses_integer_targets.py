import torch
import torch.nn as nn

# a target written as integers (one-hot rows, or labels in the input's shape) and integer
# predictions: PyTorch refuses each pairing in its own words
pred = torch.tensor([[0.2, 0.8], [0.6, 0.4]])
target = torch.tensor([[0, 1], [1, 0]])
losses = [
    nn.MSELoss(), nn.L1Loss(), nn.SmoothL1Loss(), nn.HuberLoss(), nn.BCELoss(),
    nn.BCEWithLogitsLoss(), nn.KLDivLoss(reduction="batchmean"), nn.CrossEntropyLoss(),
    nn.NLLLoss(),
]  # fmt: skip
for loss in losses:
    for a, b in [(pred, target), (target, target), (pred, target.float()), (target.bool(), target)]:
        try:
            print(loss, loss(a, b))
        except Exception as e:
            print(loss, type(e).__name__, e)
try:
    nn.CrossEntropyLoss(ignore_index=0)(pred, target.float())
except RuntimeError as e:
    print(e)
print(nn.CrossEntropyLoss()(pred, torch.tensor([1, 0])))
try:  # huber writes into the input's dtype; mse and smooth_l1 promote
    nn.functional.huber_loss(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print(e)
