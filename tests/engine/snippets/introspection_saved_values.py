import torch
import torch.nn.functional as F

torch.manual_seed(0)
a = torch.randn(2, 3, requires_grad=True)
m = torch.randn(3, 4, requires_grad=True)
v = torch.randn(3, requires_grad=True)
b3 = torch.randn(2, 2, 3, requires_grad=True)
w3 = torch.randn(2, 3, 4, requires_grad=True)
img = torch.randn(1, 2, 5, 5, requires_grad=True)
k = torch.randn(3, 2, 3, 3, requires_grad=True)
cases = {
    "mm": lambda: a.mm(m), "matmul": lambda: a @ m, "addmm": lambda: torch.addmm(torch.zeros(4), a, m),
    "linear": lambda: F.linear(a, m.t().contiguous(), v[:4] if False else torch.zeros(4)),
    "bmm": lambda: b3.bmm(w3), "mv": lambda: a.mv(v), "dot": lambda: v.dot(v),
    "sum_dim": lambda: a.sum(1), "mean": lambda: a.mean(), "mean_dim": lambda: a.mean(0),
    "expand": lambda: v.expand(2, 3), "view": lambda: a.view(6), "reshape": lambda: a.t().reshape(6),
    "t": lambda: a.t(), "permute": lambda: b3.permute(2, 0, 1), "transpose": lambda: b3.transpose(0, 2),
    "squeeze": lambda: a[None].squeeze(0), "unsqueeze": lambda: a.unsqueeze(0), "select": lambda: a[1],
    "slice": lambda: a[:, 1:], "index": lambda: a[torch.tensor([0, 1])], "cat": lambda: torch.cat([a, a]),
    "stack": lambda: torch.stack([a, a]), "conv2d": lambda: F.conv2d(img, k),
    "avg_pool": lambda: F.avg_pool2d(img, 2), "softmax": lambda: a.softmax(1), "log_softmax": lambda: a.log_softmax(1),
    "nll": lambda: F.nll_loss(a.log_softmax(1), torch.tensor([0, 2])), "ce": lambda: F.cross_entropy(a, torch.tensor([0, 2])),
    "mse": lambda: F.mse_loss(a, a.detach() * 2), "l1": lambda: F.l1_loss(a, a.detach() * 2), "bce": lambda: F.binary_cross_entropy(a.sigmoid(), torch.rand(2, 3)),
    "bce_logits": lambda: F.binary_cross_entropy_with_logits(a, torch.rand(2, 3)), "smooth": lambda: F.smooth_l1_loss(a, a.detach()),
    "batch_norm": lambda: F.batch_norm(img, None, None, training=True), "layer_norm": lambda: F.layer_norm(a, (3,)),
    "embedding": lambda: F.embedding(torch.tensor([1, 0]), m), "std": lambda: a.std(), "var_dim": lambda: a.var(1),
    "repeat": lambda: a.repeat(2, 1), "flatten": lambda: b3.flatten(), "sum": lambda: a.sum(), "pow": lambda: a.pow(2),
    "gather": lambda: a.gather(1, torch.tensor([[0], [1]])), "where": lambda: torch.where(a > 0, a, 0.0),
    "dropout_eval": lambda: F.dropout(a, 0.5, training=False) * 1, "adaptive_avg": lambda: F.adaptive_avg_pool2d(img, 1),
    "max_dim": lambda: a.max(1)[0], "amax": lambda: a.amax(1), "norm": lambda: a.norm(), "clamp": lambda: a.clamp(0, 1),
    "relu": lambda: a.relu(), "tanh": lambda: a.tanh(), "sigmoid": lambda: a.sigmoid(), "exp": lambda: a.exp(), "upsample": lambda: F.interpolate(img, scale_factor=2),
    "group_norm": lambda: F.group_norm(img, 1), "chunk": lambda: a.chunk(3, 1)[0], "split": lambda: a.split(1, 1)[0], "narrow": lambda: a.narrow(1, 0, 2),
    "index_select": lambda: a.index_select(1, torch.tensor([0, 2])), "masked_fill": lambda: a.masked_fill(a > 0, 0.0), "cumsum": lambda: a.cumsum(1),
    "prod": lambda: a.prod(), "logsumexp": lambda: a.logsumexp(1), "baddbmm": lambda: torch.baddbmm(torch.zeros(2, 2, 4), b3, w3),
}


def show(x):
    if isinstance(x, torch.Tensor):
        return f"T{list(x.shape)}"
    if isinstance(x, (tuple, list)):
        return type(x).__name__ + "(" + ",".join(show(i) for i in x) + ")"
    return repr(x)


for name, f in cases.items():
    fn = f().grad_fn
    attrs = sorted(x for x in dir(fn) if x.startswith("_saved_"))
    vals = []
    for at in attrs:
        try:
            vals.append(f"{at[7:]}={show(getattr(fn, at))}")
        except Exception as e:
            vals.append(f"{at[7:]}!{type(e).__name__}")
    print(name, fn.name(), " ".join(vals))
