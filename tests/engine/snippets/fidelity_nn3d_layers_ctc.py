import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
# the nn.CTCLoss docs example, padded targets
T, C, N, S, S_min = 50, 20, 16, 30, 10
input = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()
target = torch.randint(low=1, high=C, size=(N, S), dtype=torch.long)
input_lengths = torch.full(size=(N,), fill_value=T, dtype=torch.long)
target_lengths = torch.randint(low=S_min, high=S, size=(N,), dtype=torch.long)
ctc_loss = nn.CTCLoss()
loss = ctc_loss(input, target, input_lengths, target_lengths)
print(loss, loss.grad_fn.name(), loss.grad_fn.next_functions[0][0].name())
loss.backward()
print(input.grad[0, 0], input.grad.abs().sum())
# unpadded (concatenated) targets, per-sample losses
lp = torch.arange(5 * 2 * 4.0).reshape(5, 2, 4).div(9).sin().log_softmax(2).requires_grad_()
per = F.ctc_loss(lp, torch.tensor([1, 2, 2, 3, 1]), (5, 4), (3, 2), reduction="none")
print(per, per.grad_fn.name())
per.sum().backward()
print(lp.grad[:, 1])
bad = F.ctc_loss(lp, torch.tensor([[1, 1, 1], [3, 1, 0]]), [2, 4], [3, 2], reduction="none")
print(
    bad,
    nn.CTCLoss(zero_infinity=True, reduction="sum")(
        lp, torch.tensor([[1, 1, 1], [3, 1, 0]]), [2, 4], [3, 2]
    ),
)
print(nn.CTCLoss(blank=3))
