"""L-BFGS, ported line by line from PyTorch's `torch/optim/lbfgs.py` (a closure-driven
quasi-Newton method; optional strong-Wolfe line search), so its iterates match PyTorch's."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.optim.optimizer import Optimizer

if TYPE_CHECKING:  # the engine's namespace, typed (engine/_torch_surface.pyi)
    import engine as torch
else:
    torch = importlib.import_module("engine")


def _cubic_interpolate(
    x1: Any, f1: Any, g1: Any, x2: Any, f2: Any, g2: Any, bounds: Any = None
) -> Any:
    """The minimiser of the cubic through two points with slopes, clamped to `bounds`."""
    xmin_bound, xmax_bound = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    return (xmin_bound + xmax_bound) / 2.0


def _strong_wolfe(
    obj_func: Callable[..., Any],
    x: Any,
    t: Any,
    d: Any,
    f: Any,
    g: Any,
    gtd: Any,
    c1: float = 1e-4,
    c2: float = 0.9,
    tolerance_change: float = 1e-9,
    max_ls: int = 25,
) -> tuple[Any, Any, Any, int]:
    """A step length satisfying the strong Wolfe conditions (bracketing, then zooming)."""
    d_norm = d.abs().max()
    g = g.clone()
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    bracket: list[Any] = []
    bracket_f: list[Any] = []
    bracket_g: list[Any] = []
    bracket_gtd: list[Any] = []
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        tmp = t
        t = _cubic_interpolate(
            t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step)
        )
        t_prev, f_prev, g_prev, gtd_prev = tmp, f_new, g_new.clone(), gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]
    return _zoom(obj_func, x, d, f, gtd, c1, c2, tolerance_change, max_ls, d_norm, done,
                 ls_iter, ls_func_evals, bracket, bracket_f, bracket_g, bracket_gtd)  # fmt: skip


def _zoom(
    obj_func: Callable[..., Any], x: Any, d: Any, f: Any, gtd: Any, c1: float, c2: float,
    tolerance_change: float, max_ls: int, d_norm: Any, done: bool, ls_iter: int,
    ls_func_evals: int, bracket: list[Any], bracket_f: list[Any], bracket_g: list[Any],
    bracket_gtd: list[Any],
) -> tuple[Any, Any, Any, int]:  # fmt: skip
    """The zoom phase of the strong-Wolfe search, inside a bracket."""
    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(
            bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1]
        )
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                if abs(t - max(bracket)) < abs(t - min(bracket)):
                    t = max(bracket) - eps
                else:
                    t = min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low_pos]:
            bracket[high_pos], bracket_f[high_pos] = t, f_new
            bracket_g[high_pos], bracket_gtd[high_pos] = g_new.clone(), gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                bracket[high_pos], bracket_f[high_pos] = bracket[low_pos], bracket_f[low_pos]
                bracket_g[high_pos] = bracket_g[low_pos]
                bracket_gtd[high_pos] = bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos] = t, f_new
            bracket_g[low_pos], bracket_gtd[low_pos] = g_new.clone(), gtd_new
    return bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], ls_func_evals


class LBFGS(Optimizer):
    """Limited-memory BFGS; `step(closure)` re-evaluates the loss as it needs."""

    def __init__(
        self,
        params: Any,
        lr: float = 1,
        max_iter: int = 20,
        max_eval: int | None = None,
        tolerance_grad: float = 1e-7,
        tolerance_change: float = 1e-9,
        history_size: int = 100,
        line_search_fn: str | None = None,
    ) -> None:
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {
            "lr": lr,
            "max_iter": max_iter,
            "max_eval": max_eval,
            "tolerance_grad": tolerance_grad,
            "tolerance_change": tolerance_change,
            "history_size": history_size,
            "line_search_fn": line_search_fn,
        }
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def _gather_flat_grad(self) -> Any:
        views = [
            p.new(p.numel()).zero_() if p.grad is None else p.grad.view(-1) for p in self._params
        ]
        return torch.cat(views, 0)

    def _add_grad(self, step_size: Any, update: Any) -> None:
        offset = 0
        for p in self._params:
            numel = p.numel()
            p.add_(update[offset : offset + numel].view_as(p), alpha=step_size)
            offset += numel

    def _directional_evaluate(self, closure: Any, x: Any, t: Any, d: Any) -> tuple[float, Any]:
        self._add_grad(t, d)
        loss = float(closure())
        flat_grad = self._gather_flat_grad()
        for p, pdata in zip(self._params, x):
            p.copy_(pdata)
        return loss, flat_grad

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Up to `max_iter` L-BFGS iterations; returns the closure's first loss."""
        assert closure is not None, "LBFGS needs a closure"
        with torch.no_grad():
            return _lbfgs_step(self, torch.enable_grad()(closure))


def _two_loop(state: dict[str, Any], flat_grad: Any, history_size: int) -> Any:
    """The new direction from the stored curvature pairs (L-BFGS two-loop recursion)."""
    old_dirs, old_stps, ro, h_diag = (
        state["old_dirs"], state["old_stps"], state["ro"], state["H_diag"]
    )  # fmt: skip
    if "al" not in state:
        state["al"] = [None] * history_size
    al = state["al"]
    q = flat_grad.neg()
    for i in range(len(old_dirs) - 1, -1, -1):
        al[i] = old_stps[i].dot(q) * ro[i]
        q.add_(old_dirs[i], alpha=-al[i])
    d = r = torch.mul(q, h_diag)
    for i in range(len(old_dirs)):
        be_i = old_dirs[i].dot(r) * ro[i]
        r.add_(old_stps[i], alpha=al[i] - be_i)
    return d


def _lbfgs_step(opt: LBFGS, closure: Callable[[], Any]) -> Any:
    group = opt.param_groups[0]
    lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
    tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
    line_search_fn, history_size = group["line_search_fn"], group["history_size"]
    state = opt.state[opt._params[0]]
    state.setdefault("func_evals", 0)
    state.setdefault("n_iter", 0)
    orig_loss = closure()
    loss = float(orig_loss)
    current_evals = 1
    state["func_evals"] += 1
    flat_grad = opt._gather_flat_grad()
    if flat_grad.abs().max() <= tolerance_grad:
        return orig_loss
    d: Any = state.get("d")
    t: Any = state.get("t")
    prev_flat_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")
    n_iter = 0
    while n_iter < max_iter:
        n_iter += 1
        state["n_iter"] += 1
        if state["n_iter"] == 1:
            d = flat_grad.neg()
            state.update(old_dirs=[], old_stps=[], ro=[], H_diag=1)
        else:
            y = flat_grad.sub(prev_flat_grad)
            s = d.mul(t)
            ys = y.dot(s)
            if ys > 1e-10:
                if len(state["old_dirs"]) == history_size:
                    for key in ("old_dirs", "old_stps", "ro"):
                        state[key].pop(0)
                state["old_dirs"].append(y)
                state["old_stps"].append(s)
                state["ro"].append(1.0 / ys)
                state["H_diag"] = ys / y.dot(y)
            d = _two_loop(state, flat_grad, history_size)
        if prev_flat_grad is None:
            prev_flat_grad = flat_grad.clone()
        else:
            prev_flat_grad.copy_(flat_grad)
        prev_loss = loss
        t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr if state["n_iter"] == 1 else lr
        gtd = flat_grad.dot(d)
        if gtd > -tolerance_change:
            break
        ls_func_evals = 0
        if line_search_fn is not None:
            if line_search_fn != "strong_wolfe":
                raise RuntimeError("only 'strong_wolfe' is supported")
            x_init = [p.clone() for p in opt._params]

            def obj_func(x: Any, t: Any, d: Any) -> Any:
                return opt._directional_evaluate(closure, x, t, d)

            loss, flat_grad, t, ls_func_evals = _strong_wolfe(
                obj_func, x_init, t, d, loss, flat_grad, gtd, max_ls=max_eval - current_evals
            )
            opt._add_grad(t, d)
            opt_cond = flat_grad.abs().max() <= tolerance_grad
        else:
            opt._add_grad(t, d)
            opt_cond = False
            if n_iter != max_iter:
                with torch.enable_grad():
                    loss = float(closure())
                flat_grad = opt._gather_flat_grad()
                opt_cond = flat_grad.abs().max() <= tolerance_grad
                ls_func_evals = 1
        current_evals += ls_func_evals
        state["func_evals"] += ls_func_evals
        if n_iter == max_iter or current_evals >= max_eval or opt_cond:
            break
        if d.mul(t).abs().max() <= tolerance_change or abs(loss - prev_loss) < tolerance_change:
            break
    state.update(d=d, t=t, prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
    return orig_loss
