"""`Optimizer`: parameter groups, per-parameter state, zero_grad, state_dict."""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from copy import deepcopy
from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make, write
from engine._warn import warn
from engine.autograd import observer
from engine.autograd.grad_mode import no_grad

Array = np.ndarray[Any, Any]


def zero_grads(params: Iterable[Tensor], set_to_none: bool) -> None:
    """Reset `.grad` of each tensor: to None, or to zeros in place (the body of
    `Optimizer.zero_grad` and `Module.zero_grad`, which the observer is told of)."""
    had = [p for p in params if p._grad is not None]
    for p in had:
        g = p._grad
        assert g is not None
        if set_to_none:
            p._grad = None
        else:
            if g._fn is not None:
                g = p._grad = g.detach()
            # (zeroed through the raw pointer: no version change, told as a grad reset below)
            write(g, 0, counted=False, reported=True)
    tracer = observer.tracer()
    if tracer is not None and had:
        tracer.grads_zeroed(had, sys._getframe(2))  # the caller of zero_grad


class Optimizer:
    """Base class: subclasses implement `step` over `param_groups` and `state`."""

    _complex_as_real = True  # all but SGD update complex parameters as real pairs

    def __init__(self, params: Any, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        # a defaultdict, as PyTorch's: custom optimizers index `self.state[p]` directly
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                f"dicts, but got {_tensor_type(params)}"
            )
        groups = list(params)
        if len(groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for g in groups:
            self.add_param_group(g)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters with its own options (defaults fill the rest)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)
        for p in param_group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    + type(p).__name__
                )
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for k, v in self.defaults.items():
            param_group.setdefault(k, v)
        if len({id(p) for p in param_group["params"]}) != len(param_group["params"]):
            warn(
                "optimizer contains a parameter group with duplicate parameters; in future, this "
                "will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                "information",
                UserWarning,
            )
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimized tensors (to None by default)."""
        zero_grads([p for g in self.param_groups for p in g["params"]], set_to_none)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Run `closure` (re-evaluating the loss) under grad mode, then update parameters."""
        loss = None
        if closure is not None:
            from engine.autograd.grad_mode import enable_grad

            with enable_grad():
                loss = closure()
        self._refuse_modes()
        with no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p._grad is not None:
                        st = self.state.get(p)
                        st = {} if st is None else st
                        # an in-place update: the tracer shows the values before and after
                        write(p, lambda _, p=p, group=group, st=st: self._step_one(p, group, st))
                        if st:  # like PyTorch, stateless updates (plain SGD) leave no entry
                            self.state[p] = st
        return loss

    # what PyTorch's capturable step asserts of its tensors' devices
    _capturable_tensors = "params and state_steps"
    _capturable_devices = "['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']"

    def _refuse_modes(self) -> None:
        """PyTorch's refusals of its step modes on CPU tensors: `capturable` asserts the
        tensors are on an accelerator; `differentiable` steps with grad mode on, so updating a
        leaf that requires grad in place fails. (A differentiable step of non-leaf parameters
        is not recorded here: the update is computed outside the graph.)"""
        for group in self.param_groups:
            if group.get("capturable"):
                raise AssertionError(
                    f"If capturable=True, {self._capturable_tensors} must be on supported "
                    f"devices: {self._capturable_devices}."
                )
            if group.get("differentiable") and any(
                p._grad is not None and p._fn is None and p._rg for p in group["params"]
            ):
                raise RuntimeError(
                    "a leaf Variable that requires grad is being used in an in-place operation."
                )

    def _step_one(self, p: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        assert p._grad is not None
        if _dtype.kind(p._d.dtype) == "c" and self._complex_as_real:
            # PyTorch steps complex parameters as view_as_real pairs
            from engine.ops.complex import real_pairs

            self._update(real_pairs(p), real_pairs(p._grad)._d, group, state)
        else:
            self._update(p, p._grad._d, group, state)

    def _update(self, p: Tensor, grad: Array, group: dict[str, Any], state: dict[str, Any]) -> None:
        raise NotImplementedError

    def state_dict(self) -> dict[str, Any]:
        """{'state': {index: {...}}, 'param_groups': [{..., 'params': [indices]}]}."""
        index: dict[int, int] = {}
        groups = []
        for g in self.param_groups:
            ids = []
            for p in g["params"]:
                index.setdefault(id(p), len(index))
                ids.append(index[id(p)])
            groups.append({**{k: v for k, v in g.items() if k != "params"}, "params": ids})
        state = {index[id(p)]: dict(s) for p, s in self.state.items() if id(p) in index and s}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore options and per-parameter state saved by `state_dict`."""
        state_dict = deepcopy(state_dict)
        saved = state_dict["param_groups"]
        if len(saved) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for g, s in zip(self.param_groups, saved):
            if len(g["params"]) != len(s["params"]):
                raise ValueError(
                    "loaded state dict contains a parameter group that doesn't match the size "
                    "of optimizer's group"
                )
        by_index = {
            i: p for g, s in zip(self.param_groups, saved) for i, p in zip(s["params"], g["params"])
        }
        self.state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in by_index:
                p = by_index[k]
                self.state[p] = {
                    n: _cast(t, p) if isinstance(t, Tensor) and n != "step" else t
                    for n, t in v.items()
                }
        for g, s in zip(self.param_groups, saved):
            g.update({k: v for k, v in s.items() if k != "params"})

    def __repr__(self) -> str:
        s = type(self).__name__ + " ("
        for i, g in enumerate(self.param_groups):
            s += ("\n" if i else "") + "\nParameter Group " + str(i)
            for k in sorted(g):
                if k != "params":
                    s += f"\n    {k}: {g[k]}"
        return s + "\n)"

    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__.copy()


def _cast(t: Tensor, p: Tensor) -> Tensor:
    return make(t._d.astype(p._d.dtype), False, None, 0) if t.is_floating_point() else t


def _tensor_type(t: Tensor) -> str:
    names = {
        "float32": "Float",
        "float64": "Double",
        "int64": "Long",
        "int32": "Int",
        "bool": "Bool",
    }
    return "torch." + names.get(t._d.dtype.name, "Float") + "Tensor"


def buffer(state: dict[str, Any], key: str, like: Array, value: float = 0.0) -> Array:
    """The ndarray of state tensor `key`, created filled with `value` the first time."""
    t = state.get(key)
    if t is None:
        t = state[key] = make(np.full_like(like, value), False, None, 0)
    return t._d


def step_count(state: dict[str, Any]) -> float:
    """Increment and return state['step'] (a float32 scalar tensor, as PyTorch keeps it)."""
    t = state.get("step")
    if t is None:
        t = state["step"] = make(np.asarray(0.0, np.float32), False, None, 0)
    t._d[...] += 1
    return float(t._d)


def fma_add(a: Array, b: Array, alpha: float) -> Array:
    """a + alpha * b rounded once, as PyTorch's CPU `add(b, alpha=...)` kernel (a fused
    multiply-add with alpha cast to the tensor's dtype): float64 holds the float32 product
    exactly, so only the final cast rounds."""
    if a.dtype != np.float32:
        return a + a.dtype.type(alpha) * b  # type: ignore[no-any-return]
    wide = a.astype(np.float64) + np.float64(np.float32(alpha)) * b.astype(np.float64)
    return wide.astype(np.float32)


def fma(a: Array, b: Array | float, c: Array) -> Array:
    """a * b + c rounded once (float32 via exact float64 products), as fused CPU kernels."""
    if c.dtype != np.float32:
        return a * b + c
    wide = np.asarray(a, np.float64) * np.asarray(b, np.float64) + c.astype(np.float64)
    return wide.astype(np.float32)
