import copy
import io
import torch
from torch import nn

model = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
nn.init.constant_(model[0].weight, 0.25)
best = copy.deepcopy(model.state_dict())
with torch.no_grad():
    model[0].weight.add_(1.0)
print(best["0.weight"])
print(model.state_dict()["0.weight"])
model.load_state_dict(best)
print(model[0].weight)
clone = copy.deepcopy(model)
print(clone[0].weight is model[0].weight, torch.equal(clone[0].weight, model[0].weight))
print(clone)
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
print(buf.tell() > 0)
buf.seek(0)
sd = torch.load(buf, map_location="cpu")
print(sd["0.bias"].shape, sd["0.weight"].dtype)
sd2 = model.state_dict()
sd2["0.weight"].fill_(7)
print(model[0].weight[0])
sd3 = {k: v.clone() for k, v in model.state_dict().items()}
sd3["0.weight"].fill_(1)
print(model[0].weight[0])
print(model.state_dict(keep_vars=True)["0.weight"].requires_grad, model.state_dict()["0.weight"].requires_grad)
