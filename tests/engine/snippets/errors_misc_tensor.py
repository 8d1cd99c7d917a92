import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "ok", out)
    except Exception as err:
        print(label, type(err).__name__, err)


a = torch.arange(6.0).reshape(2, 3)
attempt("view bad", lambda: a.view(4, 2))
attempt("reshape bad", lambda: a.reshape(5))
attempt("mm bad", lambda: a @ a)
attempt("cat bad", lambda: torch.cat([a, torch.ones(3)]))
attempt("dim bad", lambda: a.sum(dim=2))
attempt("index bad", lambda: a[2])
attempt("mean int", lambda: torch.arange(3).mean())
attempt("add list", lambda: (a + [1.0, 2.0, 3.0]).tolist())
attempt("tensor ragged", lambda: torch.tensor([[1, 2], [3]]))
attempt("bool ambiguous", lambda: bool(a))
attempt("expand bad", lambda: a.expand(3, 3))
attempt("transpose bad", lambda: a.transpose(0, 2))
attempt("squeeze", lambda: a.unsqueeze(0).squeeze(0).shape)
attempt("int pow neg", lambda: torch.tensor([2]) ** -1)
attempt("float index", lambda: a[0.5])
attempt("stack bad", lambda: torch.stack([a, torch.ones(3, 2)]))
