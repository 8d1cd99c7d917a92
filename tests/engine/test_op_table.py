"""Tests generated from the op table (engine/ops/table.py): every row's bindings are the row's
forward, and they behave alike: the method and the function give the same result, the in-place
variant writes the out-of-place result into its tensor and moves its version, `out=` writes
into `out`. Inputs come from the rows' differential cases in tests/engine/cases (the first
case whose expression calls the op on a named tensor); a row no gradcheck case calls is listed
in WITHOUT_GRADCHECK, which must stay exact."""

from __future__ import annotations

import ast
from collections import Counter
from functools import cache
from typing import Any

import numpy as np
import pytest

import engine
from engine._tensor import Tensor
from engine.ops.table import Op, rows
from tests.engine import harness
from tests.engine.cases import Case

TABLE = rows(engine._OP_TABLE)
ROWS = [pytest.param(op, id=f"{module.rsplit('.', 1)[-1]}.{op.name}") for module, op in TABLE]
CASES = [c for m in harness.case_modules() for c in harness.load_cases(m)]


def bindings(op: Op) -> list[tuple[str, str]]:
    """(owner, attribute) of every name the row binds."""
    out = []
    if op.method:
        out.append(("Tensor", op.name))
    if op.inplace:
        out.append(("Tensor", op.name + "_"))
    if op.function:
        out.append(("torch", op.name))
    if op.inplace_function:
        out.append(("torch", op.inplace_name))
    out += [("Tensor", d) for d in (*op.operators, *op.inplace_operators)]
    return out


def test_every_name_is_bound_by_one_row() -> None:
    counts = Counter(b for _, op in TABLE for b in bindings(op))
    assert sorted(b for b, n in counts.items() if n > 1) == []
    assert len(TABLE) > 300


@pytest.mark.parametrize("op", ROWS)
def test_bindings_are_the_rows_forward(op: Op) -> None:
    tensor = vars(Tensor)
    if op.method:
        assert tensor[op.name] is getattr(op.fn, "method", op.fn)  # _arg_parser.with_parser
    if op.inplace:
        assert tensor[op.name + "_"].__wrapped__ is op.fn  # ops/inplace.py make_inplace
    if op.function:
        bound = getattr(engine, op.name)
        if op.out:  # ops/out_params.py with_out
            assert bound is not op.fn and bound.__wrapped__ is op.fn
        else:
            assert bound is op.fn
    if op.inplace_function:
        assert callable(getattr(engine, op.inplace_name))
    for dunder in op.operators:
        assert tensor[dunder] is tensor[op.name]
    for dunder in op.inplace_operators:
        assert tensor[dunder] is tensor[op.inplace_name]


# -- behaviour, on the rows' cases -------------------------------------------------------
def _calls() -> dict[str, list[tuple[Case, str, ast.Call]]]:
    """Non-raising cases by the op their expression calls: `torch.<name>(...)` ('function',
    with an argument) or `x.<name>(...)` ('method')."""
    found: dict[str, list[tuple[Case, str, ast.Call]]] = {}
    for case in CASES:
        node = ast.parse(case.expr, mode="eval").body
        if case.raises or not isinstance(node, ast.Call):
            continue
        func = node.func
        if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
            continue
        form = "function" if func.value.id == "torch" else "method"
        if form == "method" or node.args:
            found.setdefault(func.attr, []).append((case, form, node))
    return found


CALLS = _calls()


def _as_method(call: ast.Call) -> ast.Call:
    func = call.func
    assert isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
    if func.value.id != "torch":
        return call
    receiver, *args = call.args
    return ast.Call(ast.Attribute(receiver, func.attr, ast.Load()), args, call.keywords)


def _as_function(call: ast.Call) -> ast.Call:
    func = call.func
    assert isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
    if func.value.id == "torch":
        return call
    name = ast.Attribute(ast.Name("torch", ast.Load()), func.attr, ast.Load())
    return ast.Call(name, [func.value, *call.args], call.keywords)


def _renamed(call: ast.Call, attr: str) -> ast.Call:
    func = call.func
    assert isinstance(func, ast.Attribute)
    return ast.Call(ast.Attribute(func.value, attr, ast.Load()), call.args, call.keywords)


@cache
def case_of(op: Op) -> tuple[Case, ast.Call] | None:
    """The first non-raising case that calls the row in a form it binds."""
    for case, form, call in CALLS.get(op.name, ()):
        if (form == "method" and op.method) or (form == "function" and op.function):
            return case, call
    return None


def _namespace(case: Case, grad: bool) -> dict[str, Any]:
    ns = harness.build(engine, case, harness.input_arrays(case))
    if not grad:
        for k in case.inputs:
            ns[k] = ns[k].detach()
    return ns


def _run(call: ast.Call, ns: dict[str, Any]) -> Any:
    return eval(compile(ast.Expression(ast.fix_missing_locations(call)), "<row>", "eval"), ns)


def _first_name(call: ast.Call) -> str | None:
    func = call.func
    assert isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
    first = func.value if func.value.id != "torch" else call.args[0]
    return first.id if isinstance(first, ast.Name) else None


def _same(got: Any, want: Any) -> None:
    gs, ws = harness.tensors_of(got, engine), harness.tensors_of(want, engine)
    if not ws:
        assert got == want
        return
    assert len(gs) == len(ws)
    for g, w in zip(gs, ws):
        assert g.dtype == w.dtype and tuple(g.shape) == tuple(w.shape)
        assert np.array_equal(np.asarray(g.tolist()), np.asarray(w.tolist()), equal_nan=True)


def _rows_with(flag: str, needs_receiver: bool = False) -> list[Any]:
    """Rows with `flag` set and a case to run it on."""
    out = []
    for module, op in TABLE:
        if not getattr(op, flag):
            continue
        found = case_of(op)
        if found is None or (needs_receiver and _first_name(found[1]) is None):
            continue
        out.append(pytest.param(op, id=f"{module.rsplit('.', 1)[-1]}.{op.name}"))
    return out


BOTH = [p for p in _rows_with("method", needs_receiver=True) if p.values[0].function]


@pytest.mark.parametrize("op", BOTH)
def test_method_and_function_agree(op: Op) -> None:
    found = case_of(op)
    assert found is not None
    case, call = found
    by_method = _run(_as_method(call), _namespace(case, True))
    by_function = _run(_as_function(call), _namespace(case, True))
    _same(by_method, by_function)
    for m, f in zip(harness.tensors_of(by_method, engine), harness.tensors_of(by_function, engine)):
        assert harness.graph(m.grad_fn) == harness.graph(f.grad_fn)


def _inplace_target(case: Case, call: ast.Call) -> tuple[dict[str, Any], str]:
    ns = _namespace(case, False)
    name = _first_name(call)
    assert name is not None
    ns[name] = ns[name].clone()  # a tensor of its own (setup tensors may be shared)
    return ns, name


@pytest.mark.parametrize("op", _rows_with("inplace", needs_receiver=True))
def test_inplace_writes_the_result_and_moves_the_version(op: Op) -> None:
    found = case_of(op)
    assert found is not None
    case, call = found
    want = _run(_as_method(call), _namespace(case, False))
    ns, name = _inplace_target(case, call)
    x = ns[name]
    version = x._version
    if tuple(want.shape) != tuple(x.shape):  # PyTorch refuses to resize in place
        with pytest.raises(RuntimeError):
            _run(_renamed(_as_method(call), op.name + "_"), ns)
        return
    got = _run(_renamed(_as_method(call), op.name + "_"), ns)
    assert got is x
    assert x._version > version
    _same(x, want.to(x.dtype))


@pytest.mark.parametrize("op", _rows_with("inplace_function", needs_receiver=True))
def test_torch_inplace_function_is_the_inplace_method(op: Op) -> None:
    found = case_of(op)
    assert found is not None
    case, call = found
    ns, name = _inplace_target(case, call)
    by_method = _run(_renamed(_as_method(call), op.inplace_name), ns)
    ns2, name2 = _inplace_target(case, call)
    by_function = _run(_renamed(_as_function(call), op.inplace_name), ns2)
    assert by_method is ns[name] and by_function is ns2[name2]
    _same(by_function, by_method)


@pytest.mark.parametrize("op", _rows_with("out"))
def test_out_writes_into_out(op: Op) -> None:
    found = case_of(op)
    assert found is not None
    case, call = found
    function = _as_function(call)
    want = _run(function, _namespace(case, False))
    wants = list(want) if isinstance(want, tuple) else [want]  # sort: (values, indices)
    outs = [engine.empty_like(w) for w in wants]
    versions = [o._version for o in outs]
    with_out = ast.Call(
        function.func,
        function.args,
        [*function.keywords, ast.keyword("out", ast.Name("out_", ast.Load()))],
    )
    ns = _namespace(case, False)
    ns["out_"] = tuple(outs) if isinstance(want, tuple) else outs[0]
    got = _run(with_out, ns)
    gots = list(got) if isinstance(want, tuple) else [got]
    assert all(g is o for g, o in zip(gots, outs, strict=True))
    for out, version, w in zip(outs, versions, wants, strict=True):
        assert out._version > version
        _same(out, w)


def test_out_refuses_inputs_that_require_grad() -> None:
    a = engine.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        engine.exp(a, out=engine.empty(2))


# -- gradient checks ---------------------------------------------------------------------
def _called(expr: str) -> set[str]:
    """Every op name an expression reaches: attribute calls, operators (as their dunders)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(expr, mode="eval")):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            names.add(node.func.attr)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)  # properties (`x.mT`)
        elif isinstance(node, ast.BinOp | ast.UnaryOp | ast.Compare | ast.Subscript):
            names |= _DUNDER_OF.get(type(getattr(node, "op", node)), set())
            for cmp in getattr(node, "ops", ()):
                names |= _DUNDER_OF.get(type(cmp), set())
    return names


_DUNDER_OF: dict[type, set[str]] = {
    ast.Add: {"__add__", "__radd__"},
    ast.Sub: {"__sub__", "__rsub__"},
    ast.Mult: {"__mul__", "__rmul__"},
    ast.Div: {"__truediv__"},
    ast.Pow: {"__pow__"},
    ast.MatMult: {"__matmul__"},
    ast.USub: {"__neg__"},
    ast.UAdd: {"__pos__"},
    ast.FloorDiv: {"__floordiv__"},
    ast.Mod: {"__mod__"},
    ast.Subscript: {"__getitem__"},
    ast.Gt: {"__gt__"},
    ast.Lt: {"__lt__"},
    ast.GtE: {"__ge__"},
    ast.LtE: {"__le__"},
    ast.Eq: {"__eq__"},
    ast.NotEq: {"__ne__"},
}


def _covered() -> set[str]:
    names: set[str] = set()
    for case in CASES:
        if case.gradcheck and not case.raises:
            names |= _called(case.expr)
    return names


def rows_without_gradcheck() -> list[str]:
    """Rows that no gradcheck case reaches through any of their bindings."""
    covered = _covered()
    missing = []
    for module, op in TABLE:
        names = {op.name, op.name + "_", op.inplace_name, *op.operators, *op.inplace_operators}
        if not names & covered:
            missing.append(f"{module.rsplit('.', 1)[-1]}.{op.name}")
    return sorted(missing)


# Rows no gradcheck case reaches, in two lists. Exact together: a row that gains a case comes
# off, a new row without one fails. Rows PyTorch records no gradient for (comparisons, integer
# or bool results, queries, random fills, detach_), by reading PyTorch's derivatives:
NO_GRADIENT = frozenset((
    "_random.multinomial", "binning.bincount", "binning.histc", "binning.histogram",
    "binning.histogramdd", "binning.searchsorted", "block_diag.unravel_index",
    "complex.is_complex", "complex.is_conj",
    "complex.is_neg", "complex.isreal", "complex.resolve_neg", "convert.byte", "convert.char",
    "convert.cuda", "linalg_householder.geqrf", "pointwise.allclose", "pointwise.bitwise_and",
    "pointwise.bitwise_left_shift", "pointwise.bitwise_not", "pointwise.bitwise_or",
    "pointwise.bitwise_right_shift", "pointwise.bitwise_xor", "pointwise.equal",
    "pointwise.isclose", "pointwise.isfinite", "pointwise.isinf",
    "pointwise.isnan", "pointwise.isneginf", "pointwise.isposinf",
    "pointwise.logical_and", "pointwise.logical_not", "pointwise.logical_or",
    "pointwise_binary.logical_xor", "pointwise_unary.greater",
    "pointwise_unary.greater_equal", "pointwise_unary.less", "pointwise_unary.less_equal",
    "pointwise_unary.not_equal", "random_sampling.bernoulli_", "random_sampling.exponential_",
    "random_sampling.random_", "shape.broadcast_shapes", "shape_composite.argwhere",
    "sign.heaviside", "special_binary.gcd", "special_binary.lcm", "special_binary.nextafter",
    "tensor_protocol.__contains__", "tensor_protocol.get_device", "tensor_protocol.is_nonzero",
    "tensor_protocol.is_cpu", "tensor_protocol.is_ipu", "tensor_protocol.is_maia",
    "tensor_protocol.is_meta", "tensor_protocol.is_mkldnn", "tensor_protocol.is_mps",
    "tensor_protocol.is_mtia", "tensor_protocol.is_nested", "tensor_protocol.is_pinned",
    "tensor_protocol.is_quantized", "tensor_protocol.is_same_size", "tensor_protocol.is_shared",
    "tensor_protocol.is_sparse", "tensor_protocol.is_sparse_csr", "tensor_protocol.is_vulkan",
    "tensor_protocol.is_xla", "tensor_protocol.is_xpu", "tensor_protocol.share_memory_",
    "tensor_protocol.to_dense",
    "tensor_protocol.is_signed", "tensor_protocol.itemsize", "tensor_protocol.nbytes",
    "tri_indices.tril_indices", "tri_indices.triu_indices", "unique.isin", "unique.unique",
    "unique.unique_consecutive", "views.detach_",
))  # fmt: skip
# Rows with a gradient that no gradcheck case reaches yet (cases to write, not invent here):
LACKING_A_CASE = frozenset((
    "complex.H", "complex.adjoint", "complex.cdouble", "complex.cfloat", "complex.mH",
    "convert.bfloat16", "convert.type_as", "integrate_dist.trapz", "linalg.ger",
    "linalg_lu.lu_unpack", "linalg_products.chain_matmul", "linalg_solve.matrix_power",
    "pointwise_binary.arctan2", "pointwise_unary.acos", "pointwise_unary.arccosh",
    "pointwise_unary.arcsin",
    "pointwise_unary.arcsinh", "pointwise_unary.arctan", "pointwise_unary.arctanh",
    "pointwise_unary.ceil", "pointwise_unary.divide", "pointwise_unary.floor",
    "pointwise_unary.multiply", "pointwise_unary.nan_to_num", "pointwise_unary.subtract",
    "pointwise_unary.true_divide", "remainder.fmod", "shape_composite.atleast_1d",
    "shape_composite.moveaxis", "shape_composite.sum_to_size", "sorting.nanmedian",
    "special_binary.igammac", "special_binary.ldexp_", "stft.istft", "stft.stft",
    "tensor_protocol.__reversed__", "tensor_shape.row_stack", "transpose.swapaxes_",
    "transpose.swapdims_", "views.fill_diagonal_",
))  # fmt: skip
WITHOUT_GRADCHECK = NO_GRADIENT | LACKING_A_CASE


def test_every_row_has_a_gradcheck_case_or_is_listed() -> None:
    missing = rows_without_gradcheck()
    assert sorted(set(missing) - WITHOUT_GRADCHECK) == [], "rows without a gradcheck case"
    assert sorted(WITHOUT_GRADCHECK - set(missing)) == [], "listed rows that have one now"
