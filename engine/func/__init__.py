"""`torch.func`: grad, grad_and_value, vjp, jvp, linearize, jacrev, jacfwd, hessian, vmap,
functional_call and stack_module_state over pytrees (tuples, lists, dicts of tensors).

Reverse-mode transforms run the engine's autograd on fresh leaves; `jvp`/`jacfwd` use forward
AD (a dual level; inside one already, PyTorch's nesting is emulated by the double-vjp trick);
`vmap` runs the function once per batch element and stacks.

>>> torch.func.grad(lambda t: (t ** 3).sum())(torch.tensor([1.0, 2.0]))
tensor([ 3., 12.])
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine._tensor import Tensor
from engine.autograd import forward_ad as fwad
from engine.autograd._pytree import spec_pprint, spec_str, tree_flatten, tree_map, tree_unflatten
from engine.autograd.forward_jvp import tangent_of
from engine.autograd.grad_mode import func_transform
from engine.func.loops import (
    _track,
    jac_columns,
    jac_rows,
    nested_jvp,
    stack_module_state,
    vmap,
)

if TYPE_CHECKING:  # the engine's namespace, typed (engine/_torch_surface.pyi)
    import engine as torch
else:
    torch = importlib.import_module("engine")
Fn = Callable[..., Any]
Argnums = int | tuple[int, ...]

__all__ = [
    "functional_call",
    "grad",
    "grad_and_value",
    "hessian",
    "jacfwd",
    "jacrev",
    "jvp",
    "linearize",
    "stack_module_state",
    "vjp",
    "vmap",
]


def _check_argnums(argnums: Any, nargs: int) -> None:
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    if not isinstance(argnums, int | tuple) or not all(isinstance(n, int) for n in nums):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    for n in nums:
        if not -nargs <= n < nargs:
            raise RuntimeError(f"Got argnum={n}, but only {nargs} positional inputs")


def _plain(t: Any, keep: bool) -> Any:
    """A result leaving a transform: detached unless an outer level differentiates it."""
    if keep or not isinstance(t, Tensor):
        return t
    out = t.detach()
    if fwad.FW.on:  # ... but an outer forward level still sees its tangent
        fwad.set_tangent(out, tangent_of(t))
    return out


def _select(
    args: tuple[Any, ...], argnums: Argnums, grad_on: bool
) -> tuple[Any, list[Any], Any, Fn, bool, Fn]:
    """The differentiated part of `args` as tracked leaves, a way to rebuild the args, whether
    results keep their graph (an outer level differentiates them), and how an output leaves."""
    _check_argnums(argnums, len(args))
    chosen = args[argnums] if isinstance(argnums, int) else tuple(args[i] for i in argnums)
    keep = grad_on and any(isinstance(x, Tensor) and x._rg for x in tree_flatten(chosen)[0])
    diff = tree_map(_track, chosen)
    leaves, spec = tree_flatten(diff)

    def rebuild(tree: Any) -> tuple[Any, ...]:
        new = list(args)
        if isinstance(argnums, int):
            new[argnums] = tree
        else:
            for i, v in zip(argnums, tree):
                new[i] = v
        return tuple(new)

    # PyTorch unwraps an input returned as it came in to the tensor passed in (same object)
    back = {id(t): x for t, x in zip(leaves, tree_flatten(chosen)[0])}

    def leave(t: Any) -> Any:
        return back[id(t)] if id(t) in back else _plain(t, keep)

    return diff, leaves, spec, rebuild, keep, leave


def _grads(out: Any, leaves: list[Any], create: bool, grad_outputs: Any = None) -> list[Any]:
    from engine._creation import zeros_like

    outs = out if isinstance(out, list) else [out]
    gs = torch.autograd.grad(
        outs, leaves, grad_outputs, retain_graph=True, create_graph=create, allow_unused=True
    )
    return [zeros_like(x) if g is None else g for g, x in zip(gs, leaves)]


def grad_and_value(func: Fn, argnums: Argnums = 0, has_aux: bool = False) -> Fn:
    """A function returning (gradient of func w.r.t. `argnums`, func's value)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        grad_on = torch.is_grad_enabled()
        with torch.enable_grad(), func_transform():
            _, leaves, spec, rebuild, keep, leave = _select(args, argnums, grad_on)
            out = func(*rebuild(tree_unflatten(leaves, spec)), **kwargs)
            out, aux = _split_aux(out, has_aux, "grad_and_value(f)(*args)")
            if not isinstance(out, Tensor):
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got "
                    f"{type(out)}"
                )
            if out.ndim != 0:
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                    f"tensor with {out.ndim} dims. Maybe you wanted to use the vjp or jacrev "
                    "APIs instead?"
                )
            gs = _grads(out, leaves, keep or fwad.FW.on)
        g = tree_unflatten([_plain(x, keep) for x in gs], spec)
        value = leave(out)
        return (g, (value, tree_map(leave, aux))) if has_aux else (g, value)

    return wrapper


def grad(func: Fn, argnums: Argnums = 0, has_aux: bool = False) -> Fn:
    """A function returning the gradient of scalar-valued `func` w.r.t. its `argnums`."""
    gv = grad_and_value(func, argnums, has_aux)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        g, value = gv(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    return wrapper


def _split_aux(out: Any, has_aux: bool, where: str) -> tuple[Any, Any]:
    """(output, aux) of a function's result; aux is None without `has_aux`."""
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError(
            f"{where}: output of function f should be a tuple: (output, aux) if has_aux is True"
        )
    return out[0], out[1]


def vjp(func: Fn, *primals: Any, has_aux: bool = False) -> Any:
    """(func(*primals), vjp_fn[, aux]): `vjp_fn(cotangents)` is a tuple, one per primal."""
    grad_on = torch.is_grad_enabled()
    with torch.enable_grad(), func_transform():
        diff, leaves, spec, _, keep, leave = _select(primals, tuple(range(len(primals))), grad_on)
        out = func(*diff)
        out, aux = _split_aux(out, has_aux, "vjp(f, *primals)")
    out_leaves, out_spec = tree_flatten(out)
    for o in out_leaves:
        if not isinstance(o, Tensor):
            raise RuntimeError(
                "vjp(f, *primals): expected f(*primals) to return only tensors, got unsupported "
                f"type {type(o)}"
            )

    def vjp_fn(cotangents: Any, retain_graph: bool = True, create_graph: bool = False) -> Any:
        ct_leaves, ct_spec = tree_flatten(cotangents)
        if ct_spec != out_spec:
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure of "
                f"outputs to the function. cotangents: {spec_pprint(ct_spec)}, primal output: "
                f"{spec_pprint(out_spec)}"
            )
        with torch.enable_grad(), func_transform():
            gs = _grads(out_leaves, leaves, keep or create_graph or fwad.FW.on, ct_leaves)
        return tree_unflatten([_plain(g, keep or create_graph) for g in gs], spec)

    vjp_fn.__qualname__ = "_vjp_with_argnums.<locals>.wrapper"
    vjp_fn.__name__ = "wrapper"
    value = tree_map(leave, out)
    if has_aux:
        return value, vjp_fn, tree_map(leave, aux)
    return value, vjp_fn


def jvp(
    func: Fn, primals: Any, tangents: Any, *, strict: bool = False, has_aux: bool = False
) -> Any:
    """(func(*primals), J tangents) by forward-mode AD."""
    if not isinstance(primals, tuple):
        raise RuntimeError(
            "jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it should be valid "
            "to call f(*primals)."
        )
    p_leaves, p_spec = tree_flatten(primals)
    t_leaves, t_spec = tree_flatten(tangents)
    if p_spec != t_spec:
        raise RuntimeError(
            "jvp(f, primals, tangents): Expected primals and tangents to have the same python "
            f"structure. For example, if primals is a tuple of 3 tensors, tangents also must "
            f"be. Got primals with structure {spec_str(p_spec)} and tangents with structure "
            f"{spec_str(t_spec)}"
        )
    if fwad.FW.level >= 0:  # nested: the double-vjp trick on reverse mode
        with func_transform():
            return nested_jvp(func, p_leaves, p_spec, t_leaves, has_aux)
    keep = torch.is_grad_enabled() and any(
        isinstance(x, Tensor) and x._rg for x in (*p_leaves, *t_leaves)
    )
    with fwad.dual_level(), func_transform():
        duals = [fwad.make_dual(_as_tensor(p), t) for p, t in zip(p_leaves, t_leaves)]
        out = func(*tree_unflatten(duals, p_spec))
        out, aux = _split_aux(out, has_aux, "jvp(f, primals, tangents)")
        o_leaves, o_spec = tree_flatten(out)
        prim, tans = [], []
        for o in o_leaves:
            if not isinstance(o, Tensor):
                raise RuntimeError(
                    "jvp(f, primals, tangents): expected f(*primals) to return only tensors, got "
                    f"unsupported type {type(o)}"
                )
            p, t = fwad.unpack_dual(o)
            prim.append(fwad.alias(o) if keep and o.requires_grad else p.detach())
            t = t if t is not None else torch.zeros_like(o)
            tans.append(t if keep else t.detach())
        aux_out = tree_map(lambda t: t.detach() if isinstance(t, Tensor) else t, aux)
    res = (tree_unflatten(prim, o_spec), tree_unflatten(tans, o_spec))
    return (*res, aux_out) if has_aux else res


def _as_tensor(p: Any) -> Tensor:
    if not isinstance(p, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(p)}")
    return p


def linearize(func: Fn, *primals: Any) -> tuple[Any, Fn]:
    """(func(*primals), jvp_fn): `jvp_fn(*tangents)` is J tangents at `primals`."""
    from engine._warn import warn

    out = jvp(func, primals, tuple(torch.zeros_like(p) for p in primals))[0]
    # PyTorch 2.13 traces `func` with make_fx, which warns this on every call (after the
    # first forward-AD use's own warnings, which the jvp above gives)
    warn(
        "Attempted to insert a get_attr Node with no underlying reference in the owning "
        "GraphModule! Call GraphModule.add_submodule to add the necessary submodule, "
        "GraphModule.add_parameter to add the necessary Parameter, or nn.Module.register_buffer "
        "to add the necessary buffer",
        UserWarning,
    )

    def jvp_fn(*tangents: Any) -> Any:
        return jvp(func, primals, tangents)[1]

    return out, jvp_fn


def jacrev(
    func: Fn,
    argnums: Argnums = 0,
    *,
    has_aux: bool = False,
    chunk_size: int | None = None,
    **_: Any,
) -> Fn:
    """The Jacobian of `func` w.r.t. `argnums`, one vjp per output element."""
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        grad_on = torch.is_grad_enabled()
        with torch.enable_grad(), func_transform():
            _, leaves, spec, rebuild, keep, leave = _select(args, argnums, grad_on)
            out = func(*rebuild(tree_unflatten(leaves, spec)), **kwargs)
            out, aux = _split_aux(out, has_aux, "vjp(f, *primals)")  # PyTorch's jacrev is a vjp
            o_leaves, o_spec = tree_flatten(out)
            jac = [tree_unflatten(jac_rows(o, leaves, keep or fwad.FW.on), spec) for o in o_leaves]
        res = tree_map(lambda t: _plain(t, keep), tree_unflatten(jac, o_spec))
        return (res, tree_map(leave, aux)) if has_aux else res

    return wrapper


def jacfwd(func: Fn, argnums: Argnums = 0, has_aux: bool = False, **_: Any) -> Fn:
    """The Jacobian of `func` w.r.t. `argnums`, one jvp per input element."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _check_argnums(argnums, len(args))
        chosen = args[argnums] if isinstance(argnums, int) else tuple(args[i] for i in argnums)
        leaves, spec = tree_flatten(chosen)
        for x in leaves:
            _as_tensor(x)

        def only(*xs: Any) -> Any:
            new = list(args)
            tree = tree_unflatten(list(xs), spec)
            if isinstance(argnums, int):
                new[argnums] = tree
            else:
                for i, v in zip(argnums, tree):
                    new[i] = v
            return func(*new, **kwargs)

        with func_transform(batching=True):  # PyTorch's jacfwd is vmap over jvp
            return jac_columns(only, leaves, spec, has_aux, jvp)

    return wrapper


def hessian(func: Fn, argnums: Argnums = 0) -> Fn:
    """The Hessian of scalar-valued `func` w.r.t. `argnums` (jacfwd of jacrev, as PyTorch)."""
    return jacfwd(jacrev(func, argnums), argnums)


def functional_call(
    module: Any,
    parameter_and_buffer_dicts: Any,
    args: Any = None,
    kwargs: Any = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """Run `module` with some parameters/buffers replaced by the given tensors."""
    merged = _merge_dicts(parameter_and_buffer_dicts)
    if strict:
        _check_keys(module, merged)
    saved = []
    for name, value in merged.items():
        owner_name, _, attr = name.rpartition(".")
        owner = module.get_submodule(owner_name) if owner_name else module
        for store in (owner._parameters, owner._buffers):
            if attr in store:
                saved.append((store, attr, store[attr]))
                store[attr] = value
                break
        else:  # not a parameter or buffer: PyTorch sets a plain attribute for the call
            saved.append((owner, attr, owner.__dict__.get(attr, _MISSING)))
            owner.__dict__[attr] = value
    try:
        call_args = () if args is None else args if isinstance(args, tuple) else (args,)
        return module(*call_args, **(kwargs or {}))
    finally:
        for store, attr, old in reversed(saved):
            if isinstance(store, dict):
                store[attr] = old
            elif old is _MISSING:
                store.__dict__.pop(attr, None)
            else:
                store.__dict__[attr] = old


_MISSING = object()


def _merge_dicts(dicts: Any) -> dict[str, Any]:
    if not isinstance(dicts, tuple | list):
        return dict(dicts)
    if not all(isinstance(d, dict) for d in dicts):
        raise ValueError("Expected all elements of parameter_and_buffer_dicts to be dictionaries")
    counts: dict[str, int] = {}
    for d in dicts:
        for k in d:
            counts[k] = counts.get(k, 0) + 1
    repeated = [k for k, n in counts.items() if n > 1]
    if repeated:
        raise ValueError(
            f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
            "ambiguous"
        )
    return {k: v for d in dicts for k, v in d.items()}


def _check_keys(module: Any, given: dict[str, Any]) -> None:
    """functional_call(strict=True): PyTorch's missing/unexpected key report."""
    valid = {n for n, _ in module.named_parameters(remove_duplicate=False)}
    valid |= {n for n, _ in module.named_buffers(remove_duplicate=False)}
    missing, unexpected = sorted(valid - set(given)), sorted(set(given) - valid)
    msgs = []
    if unexpected:
        msgs.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
    if missing:
        msgs.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
    if msgs:
        raise RuntimeError(
            f"Error(s) in reparametrizing for {module._get_name()}:\n\t" + "\n\t".join(msgs)
        )
