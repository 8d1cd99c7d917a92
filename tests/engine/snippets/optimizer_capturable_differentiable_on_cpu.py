# capturable=True asserts an accelerator; differentiable=True steps with grad mode on, so a leaf
# parameter's in-place update fails (PyTorch on CPU)
import torch
for cls in [torch.optim.Adam, torch.optim.AdamW, torch.optim.NAdam, torch.optim.RAdam, torch.optim.Adamax, torch.optim.ASGD, torch.optim.Rprop, torch.optim.RMSprop, torch.optim.Adadelta, torch.optim.Adagrad, torch.optim.SGD]:
    for kw in (dict(capturable=True), dict(differentiable=True)):
        p = torch.nn.Parameter(torch.ones(2))
        try:
            o = cls([p], **kw)
        except Exception as e:
            print(cls.__name__, kw, 'INIT', type(e).__name__, e); continue
        (p**2).sum().backward()
        try: o.step(); print(cls.__name__, kw, 'ok')
        except Exception as e: print(cls.__name__, kw, type(e).__name__, e)
