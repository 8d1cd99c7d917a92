"""Rows for engine/ops/tensor_protocol.py: the method spelling of where; `apply_` (values in
place, the version left alone as in PyTorch, the refusal on tensors that require grad)."""

from tests.engine.cases import Case

S = (2, 3)
APPLY = "(lambda t: (t.apply_({fn}), t, t._version))({t})"
CASES = [
    Case("where_method", "a.where(a > 0, b)", {"a": S, "b": S}),
    Case("apply_detached", "a.detach().apply_(lambda v: v * 2 + 1)", {"a": S}),
    Case("apply_version", APPLY.format(fn="lambda v: v - 1", t="torch.ones(2, 2)")),
    Case(
        "apply_transposed_order",
        "(lambda s, t: (t.apply_(lambda v: s.append(v) or v + 10), s))"
        "([], torch.arange(6).view(2, 3).t())",
    ),
    Case("apply_int_truncates", APPLY.format(fn="lambda v: v / 2", t="torch.tensor([1, 2, 3])")),
    Case("apply_bool", APPLY.format(fn="lambda v: not v", t="torch.tensor([True, False])")),
    Case("apply_half", APPLY.format(fn="lambda v: v / 3", t="torch.ones(3).half()")),
    Case("apply_leaf_requires_grad", "a.apply_(lambda v: v)", {"a": S}, raises=True),
    Case("apply_nonleaf_requires_grad", "(a * 2).apply_(lambda v: v)", {"a": S}, raises=True),
    Case("apply_float_str", "torch.ones(2).apply_(lambda v: 'a')", raises=True),
    Case("apply_int_none", "torch.ones(2).long().apply_(lambda v: None)", raises=True),
    Case("apply_int_overflow", "torch.ones(2).long().apply_(lambda v: 2**70)", raises=True),
    Case("apply_no_argument", "torch.ones(2).apply_()", raises=True),
    Case("apply_not_callable", "torch.ones(2).apply_(3)", raises=True),
]
