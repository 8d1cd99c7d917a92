"""In-place-on-view scenarios shared by tests/fixtures/record_views.py (runs them under real
PyTorch) and tests/engine/test_views_inplace.py (runs them on the engine and compares).

Each scenario is code run with `torch` and the PRELUDE helpers in scope; it fills `out` with
observations (tensors, grad_fn descriptions, versions, error texts). An exception ends the
scenario and is recorded as its `error`, next to what `out` held by then.
"""

from __future__ import annotations

PRELUDE = '''
def fn(t):
    """grad_fn name and its next_functions names, as PyTorch prints them."""
    f = t.grad_fn if hasattr(t, "grad_fn") else t
    if f is None:
        return None
    return [f.name(), [[None if g is None else g.name(), i] for g, i in f.next_functions]]


def err(thunk):
    try:
        thunk()
    except Exception as e:
        return [type(e).__name__, str(e)]
    return None


def x23():
    return torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]], requires_grad=True)


out = {}
'''

SCENARIOS: dict[str, str] = {
    "clone_slice_mul_": """
x = x23()
b = x.clone(); v = b[1:]; v.mul_(2)
out["b_fn"] = fn(b); out["v_fn"] = fn(v); out["v_next"] = fn(v.grad_fn.next_functions[0][0])
out["versions"] = [b._version, v._version, x._version]
out["v_saved"] = [list(v.grad_fn._saved_size), list(v.grad_fn._saved_stride),
                  v.grad_fn._saved_storage_offset]
out["b"] = b; out["v"] = v
(b.sum() + (v * v).sum() * 3).backward()
out["x_grad"] = x.grad
""",
    "setitem_scalar": """
x = x23()
b = x.clone(); b[0] = 5
out["b_fn"] = fn(b); out["b"] = b; out["version"] = b._version
b.sum().backward(); out["x_grad"] = x.grad
""",
    "setitem_element_twice": """
x = x23()
b = x * 1; b[0, 1] = 9; b[1] = b[0] * 2
out["b_fn"] = fn(b); out["inner"] = fn(b.grad_fn.next_functions[0][0]); out["b"] = b
out["version"] = b._version
(b * b).sum().backward(); out["x_grad"] = x.grad
""",
    "setitem_into_constant": """
t = torch.tensor([7.0, 8.0], requires_grad=True)
z = torch.zeros(2, 3); z[:, 1] = t
out["z_fn"] = fn(z); out["rg"] = z.requires_grad; out["leaf"] = z.is_leaf; out["z"] = z
(z * torch.arange(6.0).reshape(2, 3)).sum().backward(); out["t_grad"] = t.grad
""",
    "setitem_mask_and_list": """
x = x23()
b = x.clone(); b[b > 1] = 0; out["mask_fn"] = fn(b)
c = x.clone(); c[[0, 1], [2, 0]] = torch.tensor([5.0, 6.0]); out["list_fn"] = fn(c)
d = x.clone(); d[1, [0, 2]] = 1.0; out["mixed_fn"] = fn(d)
out["b"] = b; out["c"] = c; out["d"] = d
(b.sum() + (c * c).sum() + (d * 3).sum()).backward(); out["x_grad"] = x.grad
""",
    "setitem_broadcast_value": """
x = x23(); t = torch.tensor([7.0, 8.0], requires_grad=True)
b = x.clone(); b[:, 1:] = t.view(2, 1)
out["b_fn"] = fn(b); out["value_fn"] = fn(b.grad_fn.next_functions[1][0])
(b * torch.arange(6.0).reshape(2, 3)).sum().backward()
out["x_grad"] = x.grad; out["t_grad"] = t.grad
""",
    "leaf_errors": """
out["view"] = err(lambda: x23()[0].mul_(2))
out["setitem"] = err(lambda: x23().__setitem__(0, 1.0))
out["whole"] = err(lambda: x23().__setitem__(Ellipsis, 1.0))
out["mask"] = err(lambda: x23().__setitem__(x23() > 0, 1.0))
""",
    "leaf_under_no_grad": """
x = x23()
with torch.no_grad():
    x[0] = 0.0
    x[:, 1].mul_(3)
out["x"] = x; out["leaf"] = x.is_leaf; out["fn"] = fn(x); out["version"] = x._version
""",
    "versions_shared": """
x = x23()
b = x.clone(); v = b[0]; w = v[1:]; d = b.detach()
w.add_(1); d.mul_(2); b.sub_(1)
out["versions"] = [b._version, v._version, w._version, d._version]
out["b"] = b
""",
    "saved_output_modified_through_view": """
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = x.clone().sigmoid(); w[1:].mul_(2)
w.sum().backward()
""",
    "saved_input_modified_through_view": """
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.clone(); z = y * y; y[:2].add_(1)
z.sum().backward()
""",
    "saved_view_modified": """
x = x23()
b = x * 1; v = b[0]; v.mul_(b[1]); out["b_fn"] = fn(b)
(b * b).sum().backward()
""",
    "other_views_regenerated": """
x = x23()
b = x.clone(); v0 = b[0]; v1 = b[1]; v1.mul_(2)
out["v0_fn"] = fn(v0); out["v1_fn"] = fn(v1)
(v0 * v1).sum().backward(); out["x_grad"] = x.grad
""",
    "base_inplace_regenerates_view": """
x = x23()
b = x.clone(); v = b[0]; b.mul_(2)
out["v_fn"] = fn(v); out["v_next"] = fn(v.grad_fn.next_functions[0][0]); out["v"] = v
v.sum().backward(); out["x_grad"] = x.grad
""",
    "view_of_view": """
x = x23()
b = x.clone(); v = b[0]; w = v[1:]; w.mul_(3)
out["w_fn"] = fn(w); out["v_fn"] = fn(v); out["b_fn"] = fn(b); out["b"] = b
(b.sum() + (v * 2).sum() + w.sum()).backward(); out["x_grad"] = x.grad
""",
    "transposed_view_exp_": """
x = x23()
b = x * 1; v = b.t(); v.exp_()
out["v_fn"] = fn(v); out["b_fn"] = fn(b); out["b"] = b
(b * torch.arange(6.0).reshape(2, 3)).sum().backward(); out["x_grad"] = x.grad
""",
    "reshaped_view_setitem": """
x = x23()
b = x.clone(); v = b.view(6); v[2:4] = 0
out["v_fn"] = fn(v); out["b_fn"] = fn(b); out["b"] = b
(v * torch.arange(6.0)).sum().backward(); out["x_grad"] = x.grad
""",
    "diagonal_add_": """
x = torch.arange(9.0).reshape(3, 3).requires_grad_()
t = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = x * 1; b.diagonal().add_(t)
out["b_fn"] = fn(b); out["b"] = b
(b * b).sum().backward(); out["x_grad"] = x.grad; out["t_grad"] = t.grad
""",
    "utilities_on_views": """
x = x23(); s = torch.tensor(2.5, requires_grad=True)
b = x.clone(); b[0].zero_(); out["zero"] = fn(b)
c = x.clone(); c[:, 0].fill_(2.0); out["fill"] = fn(c)
d = x.clone(); d[:, 0].fill_(s); out["fill_tensor"] = fn(d)
e = x.clone(); e[1].copy_(x[0].double()); out["copy"] = fn(e)
out["values"] = [b, c, d, e]
(b.sum() + c.sum() + (d * d).sum() + (e * 2).sum()).backward()
out["x_grad"] = x.grad; out["s_grad"] = s.grad
""",
    "multi_output_views": """
x = x23()
out["unbind"] = err(lambda: x.clone().unbind(0)[0].mul_(2))
out["split"] = err(lambda: x.clone().split(1)[0].mul_(2))
out["split_sizes"] = err(lambda: x.clone().split([1, 2], 1)[0].mul_(2))
out["chunk"] = err(lambda: x.clone().chunk(3, 1)[0].add_(1))
""",
    "double_backward_through_copyslices": """
x = x23()
b = x * x; b[0] = x[1] * 3; b[1, 1:] = b[1, :2] * 2
g, = torch.autograd.grad(b.pow(2).sum(), x, create_graph=True)
out["g_fn"] = fn(g)
out["g"] = g
g2, = torch.autograd.grad((g * g).sum(), x)
out["g2"] = g2
""",
    "inplace_on_view_no_grad_mode": """
x = x23()
b = x.clone(); v = b[0]
with torch.no_grad():
    v.mul_(2)
out["b_fn"] = fn(b); out["version"] = b._version; out["b"] = b
b.sum().backward(); out["x_grad"] = x.grad
""",
}


def _plain(v: object, torch: object) -> object:
    """An observation as JSON data (tensors as dtype, shape and values)."""
    if isinstance(v, torch.Tensor):  # type: ignore[attr-defined]
        return {"dtype": str(v.dtype), "shape": list(v.shape), "values": v.detach().tolist()}
    if isinstance(v, list | tuple):
        return [_plain(x, torch) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x, torch) for k, x in v.items()}
    return v


def run(torch: object, name: str) -> dict[str, object]:
    """Run one scenario; its observations and (if raised) its error."""
    ns: dict[str, object] = {"torch": torch}
    exec(PRELUDE, ns)
    result: dict[str, object] = {}
    try:
        exec(SCENARIOS[name], ns)
    except Exception as e:
        result["error"] = [type(e).__name__, str(e)]
    result["out"] = _plain(ns["out"], torch)
    return result
