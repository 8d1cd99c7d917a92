"""`torch.autograd.functional`: jacobian, hessian, vjp, jvp, vhp, hvp.

Follows PyTorch's Python implementation: reverse mode only, forward-mode products via the
double-backward trick (differentiate the vjp with respect to its zero `grad_outputs`).
`vectorize=True` computes the same values row by row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import _tensor
from engine.autograd.grad_mode import enable_grad, is_grad_enabled, set_grad_enabled
from engine.autograd.run_backward import grad as autograd_grad

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]

Tensors = tuple[Any, ...]
Fn = Callable[..., Any]


def _as_tuple(inp: Any, arg_name: str, fn_name: str) -> tuple[bool, Tensors]:
    is_tuple = isinstance(inp, tuple)
    items: Tensors = inp if is_tuple else (inp,)
    for i, el in enumerate(items):
        if not isinstance(el, _tensor.Tensor):
            where = f"the value at index {i}" if is_tuple else f"the given {arg_name}"
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors "
                f"but {where} has type {type(el)}."
            )
    return is_tuple, items


def _tuple_postprocess(res: Any, to_unpack: Any) -> Any:
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs: Tensors, create_graph: bool, need_graph: bool) -> Tensors:
    # With create_graph the result must stay connected to the caller's graph: a view does it.
    return tuple(
        inp.view_as(inp)
        if create_graph and inp.requires_grad
        else inp.detach().requires_grad_(need_graph)
        for inp in inputs
    )


def _grad_postprocess(inputs: Any, create_graph: bool) -> Any:
    if isinstance(inputs[0], _tensor.Tensor):
        return inputs if create_graph else tuple(inp.detach() for inp in inputs)
    return tuple(_grad_postprocess(inp, create_graph) for inp in inputs)


def _validate_v(v: Tensors, other: Tensors, is_other_tuple: bool) -> None:
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}."
            )
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(
                f"{prepend}v has invalid size: should be {el_other.size()} but got {el_v.size()}."
            )


_NOT_RG = {
    "hessian": "The hessian of the user-provided function with respect to input {i} is "
    "independent of the input. This is not allowed in strict mode. You should ensure that your "
    "function is thrice differentiable and that the hessian depends on the inputs.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided "
    "function with respect to input {i} is independent of the input. This is not allowed in "
    "strict mode. You should ensure that your function is twice differentiable and that the "
    "jacobian depends on the inputs (this would be violated by a linear function for example).",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the "
    "user-provided function. This is not allowed in strict mode.",
    "outputs": "Output {i} of the user-provided function does not require gradients. The "
    "outputs must be computed in a differentiable manner from the input when running in strict "
    "mode.",
}


def _check_requires_grad(inputs: Tensors, input_type: str, strict: bool) -> None:
    if not strict:
        return
    for i, inp in enumerate(inputs):
        if inp is None:
            raise RuntimeError(
                f"The output of the user-provided function is independent of input {i}. This is "
                "not allowed in strict mode."
            )
        if not inp.requires_grad:
            raise RuntimeError(_NOT_RG[input_type].format(i=i))


def _autograd_grad(
    outputs: Tensors,
    inputs: Tensors,
    grad_outputs: Tensors | None = None,
    create_graph: bool = False,
    retain_graph: bool | None = None,
) -> Tensors:
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return tuple(
        autograd_grad(
            [o for o, _ in pairs],
            list(inputs),  # a list in, a tuple out
            [g for _, g in pairs],
            allow_unused=True,
            create_graph=create_graph,
            retain_graph=retain_graph,
        )
    )


_STRICT_NONE = {
    "back": "The output of the user-provided function is independent of input {i}. This is not "
    "allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
    "grad_outputs when using the double backward trick to compute forward mode gradients. This "
    "is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
    "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} "
    "in the grad_jacobian. This is not allowed in strict mode as it prevents from using the "
    "double backward trick to replace forward mode AD.",
}


def _fill_in_zeros(
    grads: Tensors, refs: Tensors, strict: bool, create_graph: bool, stage: str
) -> Tensors:
    from engine._creation import zeros_like

    res: list[Any] = []
    for i, grads_i in enumerate(grads):
        if grads_i is None:
            if strict:
                raise RuntimeError(_STRICT_NONE[stage].format(i=i))
            grads_i = zeros_like(refs[i])
        elif strict and create_graph and not grads_i.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of input {i}. This is "
                "not allowed in strict mode when create_graph=True."
            )
        res.append(grads_i)
    return tuple(res)


def _prepare_v(v: Any, ref: Tensors, is_ref_tuple: bool, create_graph: bool, fn: str) -> Any:
    if v is None:
        return None
    _, vt = _as_tuple(v, "v", fn)
    vt = _grad_preprocess(vt, create_graph=create_graph, need_graph=False)
    _validate_v(vt, ref, is_ref_tuple)
    return vt


def _v_none_error(what: str) -> RuntimeError:
    return RuntimeError(
        f"The vector v can only be None if the {what} a single Tensor with a single element."
    )


def vjp(
    func: Fn, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> Any:
    """(func(inputs), v^T J): a vector-Jacobian product.

    >>> torch.autograd.functional.vjp(lambda x: x ** 2, torch.ones(2), torch.ones(2))
    (tensor([1., 1.]), tensor([2., 2.]))
    """
    with enable_grad():
        is_in_tuple, ins = _as_tuple(inputs, "inputs", "vjp")
        ins = _grad_preprocess(ins, create_graph=create_graph, need_graph=True)
        is_out_tuple, outs = _as_tuple(func(*ins), "outputs of the user-provided function", "vjp")
        _check_requires_grad(outs, "outputs", strict=strict)
        vt = _prepare_v(v, outs, is_out_tuple, create_graph, "vjp")
        if vt is None and (len(outs) != 1 or outs[0].nelement() != 1):
            raise _v_none_error("user-provided function returns")
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grad_res = _autograd_grad(outs, ins, vt, create_graph=create_graph)
        res = _fill_in_zeros(grad_res, ins, strict, create_graph, "back")
    outs = _grad_postprocess(outs, create_graph)
    res = _grad_postprocess(res, create_graph)
    return _tuple_postprocess(outs, is_out_tuple), _tuple_postprocess(res, is_in_tuple)


def jvp(
    func: Fn, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> Any:
    """(func(inputs), J v): a Jacobian-vector product by the double-backward trick."""
    from engine._creation import zeros_like

    with enable_grad():
        is_in_tuple, ins = _as_tuple(inputs, "inputs", "jvp")
        ins = _grad_preprocess(ins, create_graph=create_graph, need_graph=True)
        vt = _prepare_v(v, ins, is_in_tuple, create_graph, "jvp")
        if vt is None and (len(ins) != 1 or ins[0].nelement() != 1):
            raise _v_none_error("input to the user-provided function is")
        is_out_tuple, outs = _as_tuple(func(*ins), "outputs of the user-provided function", "jvp")
        _check_requires_grad(outs, "outputs", strict=strict)
        # vjp as a function of its (zero) grad_outputs is linear; its vjp with v is J v
        grad_outputs = tuple(zeros_like(out, requires_grad=True) for out in outs)
        grad_inputs = _autograd_grad(outs, ins, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict=strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grad_res = _autograd_grad(grad_inputs, grad_outputs, vt, create_graph=create_graph)
        res = _fill_in_zeros(grad_res, outs, strict, create_graph, "back_trick")
    outs = _grad_postprocess(outs, create_graph)
    res = _grad_postprocess(res, create_graph)
    return _tuple_postprocess(outs, is_out_tuple), _tuple_postprocess(res, is_out_tuple)


def _jacobian_rows(out: Any, i: int, ins: Tensors, create_graph: bool, strict: bool) -> Tensors:
    """d out / d each input, one backward per element of `out`."""
    from engine._creation import zeros_like
    from engine.ops.tensor_shape import stack

    rows: list[list[Any]] = [[] for _ in ins]
    flat = out.reshape(-1)
    for j in range(out.nelement()):
        vj = _autograd_grad((flat[j],), ins, retain_graph=True, create_graph=create_graph)
        for k, (vj_el, inp) in enumerate(zip(vj, ins)):
            if vj_el is not None:
                if strict and create_graph and not vj_el.requires_grad:
                    raise RuntimeError(
                        f"The jacobian of the user-provided function is independent of input "
                        f"{i}. This is not allowed in strict mode when create_graph=True."
                    )
                rows[k].append(vj_el)
            else:
                if strict:
                    raise RuntimeError(
                        f"Output {i} of the user-provided function is independent of input "
                        f"{k}. This is not allowed in strict mode."
                    )
                rows[k].append(zeros_like(inp))
    return tuple(stack(r, dim=0).view(out.size() + ins[k].size()) for k, r in enumerate(rows))


def jacobian(
    func: Fn,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """The Jacobian of `func` at `inputs`: shape `output.shape + input.shape` per pair.

    >>> torch.autograd.functional.jacobian(lambda x: x.exp(), torch.zeros(2))
    tensor([[1., 0.],
            [0., 1.]])
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "forward-mode":
        _check_forward_mode(create_graph, strict, vectorize)
        from engine.autograd.functional_fwd import jacfwd

        return jacfwd(func, inputs)
    if vectorize and strict:
        raise RuntimeError(
            "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
            "supported together. Please either set `strict=False` or `vectorize=False`."
        )
    with enable_grad():
        is_in_tuple, ins = _as_tuple(inputs, "inputs", "jacobian")
        ins = _grad_preprocess(ins, create_graph=create_graph, need_graph=True)
        is_out_tuple, outs = _as_tuple(
            func(*ins), "outputs of the user-provided function", "jacobian"
        )
        _check_requires_grad(outs, "outputs", strict=strict)
        jac = tuple(_jacobian_rows(out, i, ins, create_graph, strict) for i, out in enumerate(outs))
        jac = _grad_postprocess(jac, create_graph)
        return _tuple_postprocess(jac, (is_out_tuple, is_in_tuple))


def _check_forward_mode(create_graph: bool, strict: bool, vectorize: bool) -> None:
    if create_graph:
        raise NotImplementedError(
            'torch.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-'
            'mode"` are not supported together (yet). Please either set `create_graph=False` '
            'or `strategy="reverse-mode"`.'
        )
    if strict:
        raise RuntimeError(
            'torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` '
            "are not supported together (yet). Please either set `strict=False` or "
            '`strategy="reverse-mode"`.'
        )
    if not vectorize:
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly "
            "implemented for `vectorize=True`."
        )


def hessian(
    func: Fn,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """The Hessian of a scalar `func` at `inputs` (a Jacobian of its Jacobian)."""
    is_in_tuple, ins = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def ensure_single_output_function(*inp: Any) -> Any:
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict=strict)
        if is_out_tuple or not isinstance(out, _tensor.Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError(
                "The Tensor returned by the function given to hessian should contain a single "
                "element"
            )
        return out.squeeze()

    def jac_func(*inp: Any) -> Any:
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        return jac

    res = jacobian(
        jac_func,
        ins,
        create_graph=create_graph,
        strict=strict,
        vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )
    return _tuple_postprocess(res, (is_in_tuple, is_in_tuple))


def _scalar_and_grad(
    func: Fn, inputs: Any, v: Any, create_graph: bool, strict: bool, fn: str
) -> tuple[bool, Tensors, Any, bool, Tensors, Tensors]:
    """Shared start of vhp/hvp: checked inputs, v, the scalar output and its gradient."""
    is_in_tuple, ins = _as_tuple(inputs, "inputs", fn)
    ins = _grad_preprocess(ins, create_graph=create_graph, need_graph=True)
    vt = _prepare_v(v, ins, is_in_tuple, create_graph, fn)
    if vt is None and (len(ins) != 1 or ins[0].nelement() != 1):
        raise _v_none_error("input to the user-provided function is")
    is_out_tuple, outs = _as_tuple(func(*ins), "outputs of the user-provided function", fn)
    _check_requires_grad(outs, "outputs", strict=strict)
    if is_out_tuple or not isinstance(outs[0], _tensor.Tensor):
        raise RuntimeError(f"The function given to {fn} should return a single Tensor")
    if outs[0].nelement() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {fn} should contain a single element"
        )
    jac = _autograd_grad(outs, ins, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict=strict)
    return is_in_tuple, ins, vt, is_out_tuple, outs, jac


def vhp(
    func: Fn, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> Any:
    """(func(inputs), v^T H): a vector-Hessian product."""
    with enable_grad():
        is_in_tuple, ins, vt, is_out_tuple, outs, jac = _scalar_and_grad(
            func, inputs, v, create_graph, strict, "vhp"
        )
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grad_res = _autograd_grad(jac, ins, vt, create_graph=create_graph)
        res = _fill_in_zeros(grad_res, ins, strict, create_graph, "double_back")
    outs = _grad_postprocess(outs, create_graph)
    res = _grad_postprocess(res, create_graph)
    return _tuple_postprocess(outs, is_out_tuple), _tuple_postprocess(res, is_in_tuple)


def hvp(
    func: Fn, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> Any:
    """(func(inputs), H v): a Hessian-vector product by the double-backward trick."""
    from engine._creation import zeros_like

    with enable_grad():
        is_in_tuple, ins, vt, is_out_tuple, outs, jac = _scalar_and_grad(
            func, inputs, v, create_graph, strict, "hvp"
        )
        grad_jac = tuple(zeros_like(inp, requires_grad=True) for inp in ins)
        double_back = _autograd_grad(jac, ins, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict=strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grad_res = _autograd_grad(double_back, grad_jac, vt, create_graph=create_graph)
        res = _fill_in_zeros(grad_res, ins, strict, create_graph, "double_back_trick")
    outs = _grad_postprocess(outs, create_graph)
    res = _grad_postprocess(res, create_graph)
    return _tuple_postprocess(outs, is_out_tuple), _tuple_postprocess(res, is_in_tuple)
