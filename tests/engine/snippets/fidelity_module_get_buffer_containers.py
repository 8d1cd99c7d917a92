import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
print(model.state_dict().keys())
print({k: v.shape for k, v in model.named_buffers()}, len(list(model.parameters())))
missing = model.load_state_dict({"0.weight": torch.zeros(4, 3)}, strict=False)
print(missing)
try:
    model.load_state_dict({"0.weight": torch.zeros(3, 3)}, strict=False)
except RuntimeError as e:
    print(e)
print(model[0].weight.sum())
model.requires_grad_(False)
print([p.requires_grad for p in model.parameters()])
model.requires_grad_()
model.half()
print(model[0].weight.dtype)
model.float()
model.to(torch.float64)
print(model[2].bias.dtype, next(model.parameters()).is_leaf)
m = nn.Linear(2, 2)
m.register_buffer("running", torch.zeros(2), persistent=False)
print(list(m.state_dict()), list(dict(m.named_buffers())))
print(m.get_parameter("weight").shape, m.get_submodule(""), m.get_buffer("running"))
print([n for n, _ in model.named_modules()], [n for n, _ in model.named_children()])
model.apply(lambda mod: print(type(mod).__name__))
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
model.zero_grad()
model.train(False)
print(model.training, model[0].training)
del model[1]
print(model)
model.append(nn.Tanh())
model.insert(1, nn.Identity())
print(model, len(model))
print(model[1:])

net = nn.Sequential(nn.BatchNorm1d(3), nn.Linear(3, 2))
print(net.get_buffer("0.running_mean"), net.get_buffer("0.num_batches_tracked"))
print(net.get_parameter("1.bias").shape)
for f in [lambda: net.get_buffer("1.weight"), lambda: net.get_parameter("0.running_var"), lambda: net.get_buffer("0.nope"), lambda: net.get_buffer("2.x")]:
    try:
        f()
    except AttributeError as e:
        print(e)
