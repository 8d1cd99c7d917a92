"""The loops behind torch.func: vmap (one call per batch element, then stack), Jacobian rows
and columns, nested jvp, stack_module_state."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine._tensor import Tensor
from engine.autograd import forward_ad as fwad
from engine.autograd._pytree import spec_str, tree_flatten, tree_map, tree_unflatten
from engine.autograd.forward_jvp import tangent_of
from engine.autograd.grad_mode import STATE, func_transform

if TYPE_CHECKING:  # the engine's namespace, typed (engine/_torch_surface.pyi)
    import engine as torch
else:
    torch = importlib.import_module("engine")
Fn = Callable[..., Any]


# -- vmap --------------------------------------------------------------------------------
def _fn_name(func: Fn) -> str:
    return getattr(func, "__name__", repr(func))


def _leaf_dims(func: Fn, in_dims: Any, args: tuple[Any, ...]) -> list[tuple[Any, Any]]:
    """(leaf, in_dim) for every leaf of every argument."""
    name = _fn_name(func)
    if not isinstance(in_dims, int | tuple):
        raise ValueError(
            f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a "
            f"(potentially nested) tuple matching the structure of inputs, got: {type(in_dims)}."
        )
    pairs: list[tuple[Any, Any]] = []
    for i, a in enumerate(args):
        d = in_dims[i] if isinstance(in_dims, tuple) and i < len(in_dims) else in_dims
        leaves, a_spec = tree_flatten(a)
        if isinstance(d, int) or d is None:
            dims = [d] * len(leaves)
        else:
            dims, d_spec = tree_flatten(d)
            if d_spec != a_spec:
                dims = []
        if isinstance(in_dims, tuple) and (len(in_dims) != len(args) or len(dims) != len(leaves)):
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with "
                "the structure of `inputs`. in_dims has structure "
                f"{spec_str(tree_flatten(in_dims)[1])} but inputs has structure "
                f"{spec_str(tree_flatten(args)[1])}."
            )
        pairs.extend(zip(leaves, dims))
    for x, d in pairs:
        if d is None:
            continue
        if not isinstance(x, Tensor):
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input but "
                f"the input is of type {type(x)}. We cannot vmap over non-Tensor arguments, "
                "please use None as the respective in_dim"
            )
        n = x.ndim
        if not -n <= d < n:
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for some input, "
                f"but that input is a Tensor of dimensionality {n} so expected in_dim to satisfy "
                f"-{n} <= in_dim < {n}."
            )
    return pairs


def vmap(
    func: Fn,
    in_dims: Any = 0,
    out_dims: Any = 0,
    randomness: str = "error",
    *,
    chunk_size: int | None = None,
) -> Fn:
    """Map `func` over a dimension of its inputs (`None` in `in_dims`: not mapped)."""
    # PyTorch checks these when vmap is called, before any input is seen
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(
            "Only allowed values for randomness are 'error', 'different', or 'same'. Got "
            + str(randomness)
        )
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        pairs = _leaf_dims(func, in_dims, args)
        sizes = [x.shape[d] for x, d in pairs if d is not None]
        if not sizes:
            raise ValueError(
                f"vmap({_fn_name(func)}, in_dims={in_dims}, ...)(<inputs>): Got all in_dims=None"
                " (no inputs to vmap over)."
            )
        if len(set(sizes)) != 1:
            raise ValueError(
                "vmap: Expected all tensors to have the same size in the mapped dimension, "
                f"got sizes {sizes} for the mapped dimension"
            )
        spec = tree_flatten(args)[1]
        outs = []
        modes = STATE
        unmapped = {id(x) for x, d in pairs if d is None and isinstance(x, Tensor)}
        prev, prev_random = modes.vmap_unmapped, modes.vmap_randomness
        modes.vmap_level += 1
        modes.vmap_unmapped = prev | unmapped
        modes.vmap_randomness = randomness
        # "same": every sample draws what the first did (the generator moves on once)
        start = torch.default_generator.get_state() if randomness == "same" else None
        try:
            with func_transform(batching=True):
                for i in range(sizes[0]):
                    if start is not None:
                        torch.default_generator.set_state(start)
                    leaves = [x if d is None else x.select(d, i) for x, d in pairs]
                    outs.append(func(*tree_unflatten(leaves, spec), **kwargs))
        finally:
            modes.vmap_level -= 1
            modes.vmap_unmapped, modes.vmap_randomness = prev, prev_random
        return _stack_outputs(func, outs, out_dims)

    return wrapper


def _stack_outputs(func: Fn, outs: list[Any], out_dims: Any) -> Any:
    first, spec = tree_flatten(outs[0])
    name = _fn_name(func)
    if isinstance(out_dims, tuple):
        top = outs[0] if isinstance(outs[0], tuple) else None
        if top is None or len(top) != len(out_dims):
            raise ValueError(
                f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible "
                f"with the structure of `outputs`. out_dims has structure "
                f"{spec_str(tree_flatten(out_dims)[1])} but outputs has structure {spec_str(spec)}."
            )
        dims = []
        for part, d in zip(top, out_dims):
            dims.extend([d] * len(tree_flatten(part)[0]))
    else:
        dims = [out_dims] * len(first)
    columns = [tree_flatten(o)[0] for o in outs]
    stacked = []
    for k, d in enumerate(dims):
        vals = [c[k] for c in columns]
        if d is None:
            stacked.append(vals[0])
            continue
        if not isinstance(vals[0], Tensor):
            raise ValueError(
                f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                f"{type(vals[0])}. Did you mean to set out_dims= to None for output?"
            )
        stacked.append(torch.stack(vals, d))
    return tree_unflatten(stacked, spec)


# -- Jacobians ---------------------------------------------------------------------------
def jac_rows(out: Any, leaves: list[Any], create: bool) -> list[Any]:
    """d out / d each leaf by one vjp per element of `out`: shapes `out.shape + leaf.shape`."""
    if not isinstance(out, Tensor):
        raise RuntimeError(
            "vjp(f, *primals): expected f(*primals) to return only tensors, got unsupported type "
            f"{type(out)}"
        )
    rows: list[list[Any]] = [[] for _ in leaves]
    flat = out.reshape(-1)
    for j in range(out.numel()):
        if flat.requires_grad:
            gs = torch.autograd.grad(
                flat[j], leaves, retain_graph=True, create_graph=create, allow_unused=True
            )
        else:
            gs = (None,) * len(leaves)
        for k, (g, x) in enumerate(zip(gs, leaves)):
            rows[k].append(torch.zeros_like(x) if g is None else g)
    res = []
    for r, x in zip(rows, leaves):
        shape = tuple(out.shape) + tuple(x.shape)
        res.append(torch.stack(r).reshape(shape) if r else torch.zeros(shape, dtype=x.dtype))
    return res


def jac_columns(only: Fn, leaves: list[Any], spec: Any, has_aux: bool, jvp: Fn) -> Any:
    """Jacobian of `only(*leaves)` by one jvp per input element (basis tangents)."""
    cols: list[list[list[Any]]] = []  # per input leaf: per element: output tangent leaves
    out_tree: Any = None
    aux: Any = None
    for x in leaves:
        per: list[list[Any]] = []
        for j in range(x.numel()):
            tangents = []
            for y in leaves:
                t = torch.zeros_like(y)
                if y is x:
                    t.view(-1)[j] = 1.0
                tangents.append(t)
            res = jvp(only, tuple(leaves), tuple(tangents), has_aux=has_aux)
            out_tree, tan = res[0], res[1]
            aux = res[2] if has_aux else None
            per.append(tree_flatten(tan)[0])
        cols.append(per)
    if out_tree is None:  # no input element at all: one call for the output's structure
        res = jvp(only, tuple(leaves), tuple(torch.zeros_like(y) for y in leaves), has_aux=has_aux)
        out_tree, aux = res[0], res[2] if has_aux else None
    o_leaves, o_spec = tree_flatten(out_tree)
    jac = []
    for i, o in enumerate(o_leaves):
        per_in = []
        for x, per in zip(leaves, cols):
            shape = tuple(o.shape) + tuple(x.shape)
            if per:
                per_in.append(torch.stack([p[i] for p in per], -1).reshape(shape))
            else:
                per_in.append(torch.zeros(shape, dtype=o.dtype))
        jac.append(tree_unflatten(per_in, spec))
    result = tree_unflatten(jac, o_spec)
    return (result, aux) if has_aux else result


def _track(t: Any) -> Tensor:
    """An input to differentiate: a fresh leaf (its tangent kept), or an alias of a tracked one."""
    if not isinstance(t, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(t)}")
    if t.requires_grad:
        return t.view_as(t)  # keeps an outer level's graph
    out: Tensor = t.detach().requires_grad_()
    fwad.set_tangent(out, tangent_of(t)) if fwad.FW.on else None
    return out


def nested_jvp(func: Fn, p_leaves: list[Any], p_spec: Any, t_leaves: list[Any], aux: bool) -> Any:
    """jvp inside a dual level: J v = d/du <vjp(u), v> on reverse mode (PyTorch nests levels)."""
    with torch.enable_grad():
        ins = [_track(p) for p in p_leaves]  # keeps the outer level's tangents
        out = func(*tree_unflatten(ins, p_spec))
        extra = None
        if aux:
            out, extra = out
        o_leaves, o_spec = tree_flatten(out)
        us = [torch.zeros_like(o, requires_grad=True) for o in o_leaves]
        gs = torch.autograd.grad(o_leaves, ins, us, create_graph=True, allow_unused=True)
        pairs = [(g, t) for g, t in zip(gs, t_leaves) if g is not None and g.requires_grad]
        if pairs:
            res = torch.autograd.grad(
                [g for g, _ in pairs],
                us,
                [t for _, t in pairs],
                create_graph=True,
                allow_unused=True,
            )
        else:
            res = (None,) * len(us)
    tans = [torch.zeros_like(o) if r is None else r for r, o in zip(res, o_leaves)]
    result = (tree_unflatten(o_leaves, o_spec), tree_unflatten(tans, o_spec))
    return (*result, extra) if aux else result


# -- ensembles ---------------------------------------------------------------------------
def stack_module_state(models: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Stack the parameters and buffers of same-shaped models along a new leading dim."""
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or not any(m.training for m in models)):
        raise RuntimeError(
            "stack_module_state: Expected all models to have the same training/eval mode."
        )
    kinds = {type(m) for m in models}
    if len(kinds) != 1:
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")

    def stacked(tensors: list[Any], name: str) -> Any:
        rg = [t.requires_grad for t in tensors]
        if any(rg) and not all(rg):
            raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
        out = torch.stack(tensors)
        return out.detach().requires_grad_() if all(rg) else out

    names = [n for n, _ in models[0].named_parameters()]
    params = {n: stacked([dict(m.named_parameters())[n] for m in models], n) for n in names}
    bnames = [n for n, _ in models[0].named_buffers()]
    buffers = {n: stacked([dict(m.named_buffers())[n] for m in models], n) for n in bnames}
    return params, buffers


__all__ = ["jac_columns", "jac_rows", "nested_jvp", "stack_module_state", "tree_map", "vmap"]
