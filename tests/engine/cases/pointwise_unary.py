"""Rows for engine/ops/pointwise_unary.py (the unary functions beyond engine/ops/pointwise/'s)."""

from tests.engine.cases import Case

S = (2, 3)
U = (0.2, 0.8)  # inside the domains of asin, atanh, logit
P = (1.2, 2.0)  # acosh, logs
_UNARY = [
    ("floor", "a.floor()", S),
    ("ceil", "torch.ceil(a)", S),
    ("round", "a.round()", S),
    ("round_decimals", "torch.round(a, decimals=1)", S),
    ("trunc", "a.trunc()", S),
    ("fix", "torch.fix(a)", S),
    ("frac", "a.frac()", S),
    ("sgn", "a.sgn()", S),
    ("tan", "torch.tan(a)", U),
    ("sinh", "a.sinh()", S),
    ("cosh", "torch.cosh(a)", S),
    ("asin", "a.asin()", U),
    ("acos", "torch.arccos(a)", U),
    ("atan", "a.atan()", S),
    ("asinh", "a.asinh()", S),
    ("acosh", "a.acosh()", P),
    ("atanh", "a.atanh()", U),
    ("log1p", "a.log1p()", U),
    ("log2", "torch.log2(a)", P),
    ("log10", "a.log10()", P),
    ("expm1", "a.expm1()", S),
    ("exp2", "torch.exp2(a)", S),
    ("deg2rad", "a.deg2rad()", S),
    ("rad2deg", "torch.rad2deg(a)", S),
    ("erf", "torch.erf(a)", S),
    ("erfc", "a.erfc()", S),
    ("sinc", "torch.sinc(a)", S),
    ("logit", "a.logit()", U),
    ("logit_eps", "torch.logit(a, eps=0.3)", U),
    ("nan_to_num", "(a / (a - a.detach())).nan_to_num(posinf=5.0) + a", S),
    ("square", "a.square()", S),
    ("absolute", "torch.absolute(a)", S),
    ("negative", "a.negative()", S),
]
CASES = [
    Case(n, e, {"a": S}, domain=d, gradcheck=n not in ("nan_to_num", "floor", "ceil", "round"))
    for n, e, d in _UNARY
]
