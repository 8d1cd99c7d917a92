# A complex-valued parameter fitted by plain gradient descent (complex SGD).
import torch

target = torch.tensor([2 - 1j, 0.5 + 3j])
w = torch.zeros(2, dtype=torch.cfloat, requires_grad=True)
xs = torch.tensor([1 + 0j, 1j])
for step in range(4):
    pred = w * xs
    loss = (pred - target).abs().pow(2).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.25 * w.grad
    print(step, round(loss.item(), 4), w.detach())
    w.grad.zero_()
opt = torch.optim.SGD([w], lr=0.1)
loss = ((w * xs - target).abs() ** 2).mean()
loss.backward()
opt.step()
print(w)
print(loss.grad_fn.name(), loss.grad_fn.next_functions[0][0].name())
(w * xs).sum().backward()
