import torch
from torch.optim import Optimizer


class MySGD(Optimizer):
    def __init__(self, params, lr=0.1, momentum=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        defaults = dict(lr=lr, momentum=momentum)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "buf" not in state:
                    state["buf"] = torch.zeros_like(p)
                state["buf"].mul_(group["momentum"]).add_(p.grad)
                p.add_(state["buf"], alpha=-group["lr"])
        return loss


w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = MySGD([w], lr=0.1, momentum=0.9)
print(opt)
for _ in range(3):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
    print(w)
print(opt.state_dict())
print(len(opt.state), opt.defaults)
print(torch.optim.Adam([w]), torch.optim.AdamW([w], lr=0.1), torch.optim.RMSprop([w]))
o = torch.optim.SGD([w], lr=0.1)
(w * w).sum().backward()
o.step()
print(o.state, o.state_dict()["state"])
o2 = torch.optim.Adam([w], lr=0.1)
o2.step()
print(list(o2.state.values())[0]["step"], type(o2.state).__name__)
