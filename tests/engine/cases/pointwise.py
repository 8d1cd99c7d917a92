"""Rows for the engine/ops/pointwise/ package (arithmetic, powers, elementary, selection, logic)."""

from tests.engine.cases import Case

S = (2, 3)
CASES = [
    Case("add", "a + b", {"a": S, "b": S}),
    Case("add_broadcast", "a + b", {"a": S, "b": (3,)}),
    Case("add_scalar", "a + 2", {"a": S}),
    Case("radd_scalar", "2 + a", {"a": S}),
    Case("add_alpha", "torch.add(a, b, alpha=2)", {"a": S, "b": (1, 3)}),
    Case("sub", "a - b", {"a": S, "b": (2, 1)}),
    Case("rsub_scalar", "2 - a", {"a": S}),
    Case("mul", "a * b", {"a": S, "b": (3,)}),
    Case("mul_scalar", "a * 3", {"a": S}),
    Case("div", "a / b", {"a": S, "b": S}, domain=(0.5, 2.0)),
    Case("rdiv_scalar", "2 / a", {"a": S}, domain=(0.5, 2.0)),
    Case("pow_scalar", "a ** 2", {"a": S}),
    Case("pow_tensor", "a ** b", {"a": S, "b": S}, domain=(0.5, 2.0)),
    Case("rpow_scalar", "2 ** a", {"a": S}),
    Case("neg", "-a", {"a": S}),
    Case("exp", "a.exp()", {"a": S}),
    Case("log", "a.log()", {"a": S}, domain=(0.5, 2.0)),
    Case("sqrt", "a.sqrt()", {"a": S}, domain=(0.5, 2.0)),
    Case("rsqrt", "a.rsqrt()", {"a": S}, domain=(0.5, 2.0)),
    Case("abs", "a.abs()", {"a": S}),
    Case("sign", "a.sign()", {"a": S}),
    Case("sin", "torch.sin(a)", {"a": S}),
    Case("cos", "torch.cos(a)", {"a": S}),
    Case("tanh", "a.tanh()", {"a": S}),
    Case("sigmoid", "a.sigmoid()", {"a": S}),
    Case("relu", "a.relu()", {"a": S}),
    Case("reciprocal", "a.reciprocal()", {"a": S}, domain=(0.5, 2.0)),
    Case("clamp", "a.clamp(-0.5, 0.5)", {"a": S}),
    Case("clamp_min", "a.clamp(min=0)", {"a": S}),
    Case("clamp_tensor", "a.clamp(b)", {"a": S, "b": (3,)}),
    Case("where", "torch.where(a > 0, a, b)", {"a": S, "b": S}),
    Case("where_scalar", "torch.where(a > 0, a, 0.0)", {"a": S}),
    Case("maximum", "torch.maximum(a, b)", {"a": S, "b": S}),
    Case("minimum", "torch.minimum(a, b)", {"a": S, "b": (3,)}),
    # non-differentiable points, exactly as PyTorch
    Case("relu_at_zero", "(a * 0).relu()", {"a": S}, gradcheck=False),
    Case("abs_at_zero", "(a * 0).abs()", {"a": S}, gradcheck=False),
    Case("sqrt_at_zero", "(a * 0).sqrt()", {"a": S}, gradcheck=False),
    Case("clamp_at_bound", "(a * 0 + 0.5).clamp(-0.5, 0.5)", {"a": S}, gradcheck=False),
    Case("maximum_tie", "torch.maximum(a, a.detach())", {"a": S}, gradcheck=False),
    Case("comparison", "(a > b).float() + a * 0", {"a": S, "b": S}, gradcheck=False),
]

# Rows added for the harness: scalar and rounding division, in-place ops on non-leaves,
# integer operands, and PyTorch's errors.
CASES += [
    Case("div_scalar", "a / 2", {"a": S}),
    Case(
        "div_floor",
        "torch.div(a, b, rounding_mode='floor')",
        {"a": S, "b": (3,)},
        domain=(0.5, 2.0),
        gradcheck=False,
    ),
    Case("div_trunc_scalar", "torch.div(a, 2, rounding_mode='trunc')", {"a": S}, gradcheck=False),
    # rounding_mode=None given: the div.Tensor_mode overload, true division as DivBackward2
    Case("div_rounding_none", "torch.div(a, b, rounding_mode=None)", {"a": S, "b": (3,)}),
    Case("div_rounding_none_scalar", "a.div(2, rounding_mode=None)", {"a": S}),
    Case(
        "div_rounding_none_const",
        "a.clone().div_(torch.tensor([1.5, -2.0, 4.0], dtype=torch.float64), rounding_mode=None)",
        {"a": S},
    ),
    Case("sub_alpha", "torch.sub(a, b, alpha=3)", {"a": S, "b": S}),
    Case("mul_int_tensor", "a * i", {"a": S}, setup="i = torch.arange(3)"),
    Case("add_int_tensors", "i + j * 2", setup="i = torch.arange(3)\nj = torch.tensor([1, 2, 3])"),
    Case("int_true_div", "i / 2", setup="i = torch.arange(4)"),
    Case("bool_add", "b + b", setup="b = torch.tensor([True, False])"),
    Case("pow_zero_exp", "a ** 0", {"a": S}),
    Case("pow_neg_base", "a ** 3", {"a": S}, domain=(-2.0, -0.5)),
    Case("exp_chain", "(a.exp() * b).sin().tanh()", {"a": S, "b": S}),
    Case("sigmoid_chain", "(a * b).sigmoid() - a.relu()", {"a": S, "b": (1, 3)}),
    Case("add_inplace_nonleaf", "(a * 1).add_(b)", {"a": S, "b": (3,)}),
    Case("mul_inplace_nonleaf", "(a + 0).mul_(b)", {"a": S, "b": S}),
    Case("exp_inplace_nonleaf", "(a * 2).exp_()", {"a": S}),
    Case("div_inplace_scalar", "(a * 1).div_(4)", {"a": S}),
    Case("scalar_output", "(a * b).sum().item()", {"a": S, "b": S}, gradcheck=False),
    Case("zero_dim", "a * b", {"a": (), "b": S}),
    Case("zero_dim_both", "(a * b).exp()", {"a": (), "b": ()}),
    Case("shape_mismatch", "a + b", {"a": S, "b": (4,)}, raises=True),
    Case("inplace_leaf", "a.add_(1)", {"a": S}, raises=True),
    Case("inplace_int_from_float", "i.add_(1.5)", setup="i = torch.arange(3)", raises=True),
    Case("where_not_bool", "torch.where(a, a, a)", {"a": S}, raises=True),
]

# floor division and remainders (`//` records PyTorch's NotImplemented node)
CASES += [
    Case("remainder_scalar", "a % 1.5", {"a": S}, domain=(0.1, 1.4)),
    Case("remainder_tensor", "a % b", {"a": S, "b": (3,)}, domain=(0.6, 2.0), gradcheck=False),
    Case("remainder_neg", "torch.remainder(a, -0.7)", {"a": S}, gradcheck=False),
    Case("fmod_tensor", "torch.fmod(a, b)", {"a": S, "b": S}, domain=(0.6, 2.0), gradcheck=False),
    Case("fmod_scalar", "a.fmod(0.5)", {"a": S}, gradcheck=False),
    Case("floor_divide", "a // b", {"a": S, "b": S}, domain=(0.5, 2.0), gradcheck=False),
    Case("rfloordiv", "3 // a", {"a": S}, domain=(0.5, 2.0), gradcheck=False),
    Case("rmod", "3 % a", {"a": S}, domain=(0.5, 2.0), gradcheck=False),
    Case("int_floordiv", "i // 2 + i % 3", setup="i = torch.arange(-4, 4)"),
    Case("int_div_zero", "i // 0", setup="i = torch.arange(3)", raises=True),
    Case("bool_sub", "b - b", setup="b = torch.tensor([True, False])", raises=True),
    Case(
        "float_sub_bool",
        "a - b",
        {"a": S},
        setup="b = torch.tensor([True, False, True])",
        raises=True,
    ),
    Case(
        "int_pow_neg",
        "i ** j",
        setup="i = torch.tensor([-1, 1, 2, 3])\nj = torch.tensor([-3, -2, -1, 2])",
    ),
    Case("maximum_scalar", "torch.maximum(a, 2.0)", {"a": S}, raises=True),
]

# in-place comparisons of a tensor in the graph: their own node, zero gradients (a number:
# <Op>Backward0; a tensor, broadcast: <Op>Backward1); the points stay off the boundary
CASES += [
    *(
        Case(f"{op}_inplace_scalar", f"(a * 1).{op}_(0.25)", {"a": S})
        for op in ("eq", "ne", "lt", "le", "gt", "ge")
    ),
    *(
        Case(f"{op}_inplace_tensor", f"(a * 1).{op}_(b)", {"a": S, "b": (3,)})
        for op in ("eq", "ne", "lt", "le", "gt", "ge")
    ),
]
