import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[0.1, 0.2, 0.4, 0.8], [0.3, -0.2, 0.5, 0.1]], requires_grad=True)
y = torch.tensor([[3, 0, -1, 1], [1, 2, -1, 0]])
loss = nn.MultiLabelMarginLoss()(x, y)
print(loss)
loss.backward()
print(x.grad)
x.grad = None

loss = nn.MultiMarginLoss()(x, torch.tensor([3, 1]))
print(loss)
loss.backward()
print(x.grad)
x.grad = None
print(F.multi_margin_loss(x, torch.tensor([0, 2]), p=2, margin=0.5, reduction="none"))
w = torch.tensor([1.0, 2.0, 0.5, 1.0])
print(nn.MultiMarginLoss(weight=w, reduction="sum")(x, torch.tensor([0, 2])))

t = torch.tensor([[1.0, -1.0, 1.0, -1.0], [-1.0, -1.0, 1.0, 1.0]])
loss = nn.SoftMarginLoss()(x, t)
print(loss)
loss.backward()
print(x.grad)
x.grad = None

a = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], requires_grad=True)
b = torch.tensor([[1.5, 1.0, 2.0], [1.0, 1.0, -1.0]], requires_grad=True)
cel = nn.CosineEmbeddingLoss(margin=0.1)
loss = cel(a, b, torch.tensor([1, -1]))
print(loss, loss.grad_fn.name())
loss.backward()
print(a.grad, b.grad)
print(F.cosine_embedding_loss(a, b, torch.tensor([-1, 1]), reduction="none"))

h = torch.tensor([0.3, -0.5, 2.0, 0.8], requires_grad=True)
loss = nn.HingeEmbeddingLoss(margin=1.0)(h, torch.tensor([1.0, -1.0, -1.0, 1.0]))
print(loss, loss.grad_fn.name())
loss.backward()
print(h.grad)

loss = nn.MultiLabelSoftMarginLoss()(x, (y > 0).float())
print(loss, loss.grad_fn.name())
loss.backward()
print(x.grad)
x.grad = None

mu = torch.tensor([[0.5, 1.0], [2.0, -1.0]], requires_grad=True)
var = torch.tensor([[0.5, 1.0], [2.0, 0.1]], requires_grad=True)
loss = nn.GaussianNLLLoss()(mu, torch.tensor([[1.0, 1.0], [1.0, 1.0]]), var)
print(loss, loss.grad_fn.name())
loss.backward()
print(mu.grad, var.grad)
print(F.gaussian_nll_loss(mu, torch.zeros(2, 2), torch.ones(2), full=True, reduction="sum"))
try:
    F.gaussian_nll_loss(mu, mu, torch.ones(3))
except ValueError as e:
    print("ValueError:", e)

tl = nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance(), margin=0.5)
print(tl)
print(nn.TripletMarginWithDistanceLoss())
print(tl(a, b, a * 2), F.triplet_margin_with_distance_loss(a, b, -a, swap=True))
cos_d = lambda u, v: 1.0 - F.cosine_similarity(u, v)
print(nn.TripletMarginWithDistanceLoss(distance_function=cos_d)(a, b, -b))
print(nn.MultiMarginLoss(), nn.SoftMarginLoss(), nn.CosineEmbeddingLoss())
for bad in (lambda: nn.TripletMarginWithDistanceLoss(margin=-1), lambda: nn.MultiMarginLoss(p=3)):
    try:
        bad()
    except ValueError as e:
        print("ValueError:", e)
