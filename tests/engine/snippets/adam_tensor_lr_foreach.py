import torch

# Adam takes lr (and betas) as 1-element tensors, and foreach=True/False or fused on CPU, with
# the same values as floats; a tensor lr with foreach=True needs capturable=True


def run(**kw):
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
    b = torch.nn.Parameter(torch.tensor([[0.5, 0.25]]))
    opt = (torch.optim.AdamW if kw.pop("adamw", False) else torch.optim.Adam)([w, b], **kw)
    for _ in range(3):
        opt.zero_grad()
        loss = (w**2).sum() + (b * torch.tensor([[1.0, -3.0]])).sum()
        loss.backward()
        opt.step()
    print(kw, w.data, b.data, opt.state[w]["step"], opt.param_groups[0]["lr"], opt.param_groups[0]["betas"])


run(lr=0.01)
run(lr=torch.tensor(0.01))
run(lr=torch.tensor([0.01]))
run(lr=0.01, foreach=True)
run(lr=0.01, foreach=False)
run(lr=torch.tensor(0.01), foreach=False, amsgrad=True)
run(lr=0.01, fused=True)
run(lr=0.01, maximize=True, foreach=True)
run(lr=torch.tensor(0.01), betas=(torch.tensor(0.8), torch.tensor([0.99])))
run(lr=torch.tensor(0.01), adamw=True, foreach=False)
print(torch.optim.Adam([torch.nn.Parameter(torch.ones(1))], lr=torch.tensor(0.1)))
for kw in (
    dict(lr=torch.tensor(0.01), foreach=True),
    dict(lr=torch.tensor(0.01), foreach=True, adamw=True),
    dict(lr=torch.tensor([0.01, 0.02])),
    dict(lr=torch.tensor(0.01), fused=True, foreach=True),
    dict(lr=0.01, fused=True, foreach=True),
    dict(lr=0.01, fused=True, differentiable=True),
    dict(betas=(torch.tensor(0.9), 0.999)),
    dict(betas=(0.9, 1)),
    dict(betas=(torch.tensor(0.9), torch.tensor(0.999)), foreach=True),
    dict(betas=(torch.tensor([0.9, 0.8]), torch.tensor(0.999))),
    dict(lr=-1.0),
):
    try:
        run(**kw)
    except (ValueError, RuntimeError) as err:
        print(type(err).__name__, err)
