"""Rows for engine/ops/pointwise_binary.py (the binary functions beyond engine/ops/pointwise/'s)
and engine/ops/random_sampling.py (the in-place random fills)."""

from tests.engine.cases import Case

S = (2, 3)
CASES = [
    Case("atan2", "torch.atan2(a, b)", {"a": S, "b": (3,)}),
    Case("hypot", "a.hypot(b)", {"a": S, "b": S}),
    Case("xlogy", "torch.xlogy(a, b)", {"a": S, "b": S}, domain=(0.5, 2.0)),
    # a zero self still gets log(other) where other > 0 (zeroed only where other <= 0)
    Case(
        "xlogy_zero_self",
        "torch.xlogy(a - a.detach(), b * torch.tensor([1.0, 1.0, -1.0]))",
        {"a": (2, 3), "b": (2, 3)},
        domain=(0.5, 2.0),
        gradcheck=False,
    ),
    Case("logaddexp", "torch.logaddexp(a, b)", {"a": S, "b": (2, 1)}),
    Case("fmax", "torch.fmax(a, b)", {"a": S, "b": S}),
    Case("fmin", "a.fmin(b)", {"a": S, "b": S}),
    Case("clamp_min_scalar", "torch.clamp_min(a, 0.1)", {"a": S}),
    Case("clamp_max_scalar", "a.clamp_max(0.1)", {"a": S}),
    Case("clamp_min_tensor", "a.clamp_min(b)", {"a": S, "b": (3,)}),
    Case("clamp_max_tensor", "torch.clamp_max(a, b)", {"a": S, "b": S}),
    Case("clip", "a.clip(-0.5, 0.5)", {"a": S}),
    Case("lerp_scalar", "torch.lerp(a, b, 0.25)", {"a": S, "b": S}),
    Case("lerp_tensor", "a.lerp(b, w)", {"a": S, "b": S, "w": S}),
    Case("addcmul", "torch.addcmul(a, b, c, value=0.5)", {"a": S, "b": S, "c": (3,)}),
    Case("addcdiv", "a.addcdiv(b, c, value=2)", {"a": S, "b": S, "c": S}, domain=(0.5, 2.0)),
    Case("float_power", "torch.float_power(a, 2)", {"a": S}),
    Case("uniform_nonleaf", "(a * 1).uniform_() * 0 + a", {"a": S}),
    Case("normal_nonleaf", "(a * 1).normal_(2.0, 0.5) * 0 + a", {"a": S}),
    Case("geometric_nonleaf", "(a * 1).geometric_(0.3) * 0 + a", {"a": S}),
    Case("cauchy_nonleaf", "(a * 1).cauchy_(1.0, 2.0) * 0 + a", {"a": S}),
    Case("bernoulli_probs", "torch.bernoulli(a.sigmoid()) * 0 + a", {"a": S}),
    Case("floor_inplace", "(a * 1).floor_() + a", {"a": S}, gradcheck=False),
    Case("addcmul_inplace", "(a * 1).addcmul_(b, b)", {"a": S, "b": S}),
    Case("lerp_inplace", "(a * 1).lerp_(b, 0.5)", {"a": S, "b": S}),
    Case("uniform_leaf_error", "a.uniform_()", {"a": S}, raises=True),
    Case("frac_int_error", "torch.tensor([1, 2]).frac() + a", {"a": S}, raises=True),
    # create_graph gradients of tanh/sigmoid/relu are PyTorch's derivative ops
    Case(
        "tanh_grad_graph", "torch.autograd.grad(a.tanh().sum(), a, create_graph=True)[0]", {"a": S}
    ),
    Case(
        "sigmoid_grad_graph",
        "torch.autograd.grad(a.sigmoid(), a, b, create_graph=True)[0]",
        {"a": S, "b": S},
    ),
    Case(
        "relu_grad_graph",
        "torch.autograd.grad(a.relu(), a, b * 2, create_graph=True)[0]",
        {"a": S, "b": S},
        gradcheck=False,
    ),
]
