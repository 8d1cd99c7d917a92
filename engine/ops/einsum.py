"""`einsum`, composed from primitives the way ATen's `einsum` composes them (left to right, as
PyTorch does without opt_einsum), so the recorded graph shows PyTorch's nodes: operands
permuted into one label order (diagonal for repeated labels, unsqueeze for missing ones),
then each pair contracted by `_sumproduct_pair` (permute, reshape, bmm, view, permute).
"""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.ops.linalg import bmm
from engine.ops.reduce import sum as _sum
from engine.ops.shape import movedim, permute, reshape, unsqueeze, view
from engine.ops.table import Op

_ELL = "."


def _label_id(c: str) -> int:
    # ATen orders labels A-Z then a-z; ellipsis dims come before both
    if "A" <= c <= "Z":
        return ord(c) - ord("A")
    if "a" <= c <= "z":
        return 26 + ord(c) - ord("a")
    raise RuntimeError(
        f"einsum(): invalid subscript given in the equation string ({c!r}), subscripts must be "
        "in [a-zA-Z]"
    )


def _parse(eq: str, ndims: list[int]) -> tuple[list[list[Any]], list[Any] | None]:
    """Per-operand label lists (`_ELL` marks the ellipsis) and the explicit output, if any."""
    eq = eq.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ndims):
        raise RuntimeError(
            "einsum(): more operands were provided than specified in the equation"
            if len(terms) < len(ndims)
            else "einsum(): fewer operands were provided than specified in the equation"
        )

    def labels(term: str) -> list[Any]:
        return [_ELL if c == "." else c for c in term.replace("...", ".")]

    return [labels(t) for t in terms], (labels(rhs) if arrow else None)


def _subscript(n: Any) -> str:
    if n is Ellipsis:
        return "..."
    if 0 <= n < 26:
        return chr(ord("A") + n)
    if 26 <= n < 52:
        return chr(ord("a") + n - 26)
    raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")


def _sublist_form(args: tuple[Any, ...]) -> tuple[str, tuple[Any, ...]]:
    """`einsum(op1, [0, 1], op2, [1, 2], [0, 2])` as an equation and its operands."""
    equation = ",".join("".join(_subscript(s) for s in sub) for sub in args[1::2])
    if len(args) % 2 == 1:
        equation += "->" + "".join(_subscript(s) for s in args[-1])
        return equation, args[:-1:2]
    return equation, args[::2]


def einsum(equation: Any, *operands: Any) -> Tensor:
    """Sum of products over the labelled dims, e.g. `einsum("ij,jk->ik", a, b)`, or in the
    sublist form `einsum(a, [0, 1], b, [1, 2], [0, 2])`."""
    if not isinstance(equation, str):
        equation, operands = _sublist_form((equation, *operands))
    if len(operands) == 1 and isinstance(operands[0], list | tuple):
        operands = tuple(operands[0])
    ops: list[Tensor] = list(operands)
    terms, out = _parse(equation, [o._d.ndim for o in ops])
    ell_dims = 0
    for t, o in zip(terms, ops):
        n_named = len([c for c in t if c != _ELL])
        if _ELL in t:
            ell_dims = max(ell_dims, o._d.ndim - n_named)
        elif o._d.ndim != n_named:
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({n_named}) does not match "
                f"the number of dimensions ({o._d.ndim}) for operand {ops.index(o)} and no "
                "ellipsis was given"
            )
    counts: dict[str, int] = {}
    for t in terms:
        for c in t:
            if c != _ELL:
                counts[c] = counts.get(c, 0) + 1
    # the permutation index: output labels first (ellipsis dims as "0", "1", ...), then the rest
    ell = [str(k) for k in range(ell_dims)]
    if out is None:
        order = ell + sorted((c for c, n in counts.items() if n == 1), key=_label_id)
    else:
        order = []
        for c in out:
            order.extend(ell if c == _ELL else [c])
    for c in order:
        if c not in counts and c not in ell:
            raise RuntimeError(
                f"einsum(): output subscript {c} does not appear in the equation for any input "
                "operand"
            )
    _check_sizes(terms, ops)
    n_out = len(order)
    rest = [e for e in ell if e not in order]
    order += rest + sorted((c for c in counts if c not in order), key=_label_id)
    pos = {c: i for i, c in enumerate(order)}
    permuted = [_align(o, t, pos, ell_dims) for o, t in zip(ops, terms)]
    dim_counts = [0] * len(order)
    for p in permuted:
        for d in range(n_out, len(order)):
            if p._d.shape[d] != 1:
                dim_counts[d] += 1
    if len(permuted) == 1:
        result = permuted[0]
        if len(order) > n_out:
            result = _sum(result, tuple(range(n_out, len(order))))
        return result
    result = permuted[0]
    for b in permuted[1:]:
        result = _contract(result, b, dim_counts, n_out)
    if len(order) > n_out:
        result = view(result, result._d.shape[:n_out])
    return result


def _check_sizes(terms: list[list[Any]], ops: list[Tensor]) -> None:
    sizes: dict[str, int] = {}
    for i, (t, o) in enumerate(zip(terms, ops)):
        named = [c for c in t if c != _ELL]
        shape = o._d.shape
        if _ELL in t:
            k = t.index(_ELL)
            shape = shape[:k] + shape[len(shape) - (len(t) - k - 1) :]
        for c, s in zip(named, shape):
            prev = sizes.get(c)
            if prev is not None and prev != s and prev != 1 and s != 1:
                raise RuntimeError(
                    f"einsum(): subscript {c} has size {s} for operand {i} which does not "
                    f"broadcast with previously seen size {prev}"
                )
            sizes[c] = s if prev is None or prev == 1 else prev


def _align(o: Tensor, labels: list[Any], pos: dict[str, int], ell_dims: int) -> Tensor:
    """Diagonal for repeated labels, unsqueeze for missing ones, permute into `pos` order."""
    perm = [-1] * len(pos)
    seen: dict[str, int] = {}
    j = 0
    for c in labels:
        if c == _ELL:
            n = o._d.ndim - (len(labels) - 1)
            for k in range(n):
                perm[pos[str(ell_dims - n + k)]] = j
                j += 1
        elif c in seen:
            from engine.ops.tensor_shape import diagonal

            o = movedim(diagonal(o, 0, seen[c], j), -1, seen[c])
        else:
            seen[c] = j
            perm[pos[c]] = j
            j += 1
    for i, p in enumerate(perm):
        if p == -1:
            o = unsqueeze(o, -1)
            perm[i] = j
            j += 1
    return permute(o, perm)


def _contract(a: Tensor, b: Tensor, dim_counts: list[int], n_out: int) -> Tensor:
    sum_dims: list[int] = []
    a_sum: list[int] = []
    b_sum: list[int] = []
    for d in range(n_out, len(dim_counts)):
        sa, sb = a._d.shape[d], b._d.shape[d]
        if sa != 1 and sb != 1:
            dim_counts[d] -= 1
            if dim_counts[d] == 1:
                sum_dims.append(d)
                dim_counts[d] = 0
        elif dim_counts[d] == 1:
            if sa != 1:
                a_sum.append(d)
                dim_counts[d] = 0
            elif sb != 1:
                b_sum.append(d)
                dim_counts[d] = 0
    if a_sum:
        a = _sum(a, tuple(a_sum), True)
    if b_sum:
        b = _sum(b, tuple(b_sum), True)
    return _sumproduct_pair(a, b, sum_dims)


def _sumproduct_pair(left: Tensor, right: Tensor, sum_dims: list[int]) -> Tensor:
    """ATen's sumproduct_pair with keepdim: a broadcast mul, or one bmm."""
    if not sum_dims:
        return left * right
    ls, rs = left._d.shape, right._d.shape
    lro: list[int] = []
    lo: list[int] = []
    ro: list[int] = []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(len(ls)):
        sl, sr = ls[i] != 1, rs[i] != 1
        if i in sum_dims:
            if sl and sr:
                sum_size *= ls[i]
            elif sl:
                left = _sum(left, i, True)
            elif sr:
                right = _sum(right, i, True)
        elif sl and sr:
            lro.append(i)
            lro_size *= ls[i]
        elif sl:
            lo.append(i)
            lo_size *= ls[i]
        else:
            ro.append(i)
            ro_size *= rs[i]
    out_size = [ls[d] for d in lro] + [ls[d] for d in lo] + [1] * len(sum_dims)
    out_size += [rs[d] for d in ro]
    lperm = lro + lo + sum_dims + ro
    rperm = lro + sum_dims + ro + lo
    operm = [0] * len(lperm)
    for i, d in enumerate(lro + lo + sum_dims + ro):
        operm[d] = i
    lt = reshape(permute(left, lperm), (lro_size, lo_size, sum_size))
    rt = reshape(permute(right, rperm), (lro_size, sum_size, ro_size))
    return permute(view(bmm(lt, rt), tuple(out_size)), operm)


OPS = [
    Op("einsum", einsum, method=False),
]
