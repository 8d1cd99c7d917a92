import torch
import torch.nn as nn

torch.manual_seed(0)
asm = nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 7], div_value=2.0)
print(asm)
x = torch.randn(5, 8, requires_grad=True)
target = torch.tensor([0, 5, 9, 3, 7])
out = asm(x, target)
print(out)
out.loss.backward()
print(x.grad[0], asm.tail[1][1].weight.grad)
print(torch.allclose(asm.log_prob(x).exp().sum(1), torch.ones(5)), asm.predict(x))
print(asm(x[0], torch.tensor(8)))
try:
    asm(x, torch.tensor([0, 1, 12, 3, 4]))
except RuntimeError as e:
    print(e)
buf = torch.zeros(4, 2)
buf.index_copy_(0, torch.tensor([3, 0]), torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(buf)
