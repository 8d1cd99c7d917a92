"""`Module.state_dict` / `load_state_dict` (bound onto Module as methods)."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any, NamedTuple

from engine._tensor import Tensor
from engine.autograd.grad_mode import no_grad
from engine.ops._core import overwrite

if TYPE_CHECKING:
    from engine.nn.modules.module import Module


class _Keys(NamedTuple):
    missing_keys: list[str]
    unexpected_keys: list[str]


class IncompatibleKeys(_Keys):
    """What `load_state_dict` returns (PyTorch's `_IncompatibleKeys`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return (
            f"_IncompatibleKeys(missing_keys={self.missing_keys}, "
            f"unexpected_keys={self.unexpected_keys})"
        )

    def __str__(self) -> str:
        return self.__repr__()


def _save_to_state_dict(
    self: Module, destination: dict[str, Any], prefix: str, keep_vars: bool
) -> None:
    for name, p in self._parameters.items():
        if p is not None:
            destination[prefix + name] = p if keep_vars else p.detach()
    for name, b in self._buffers.items():
        if b is not None and name not in self._non_persistent_buffers_set:
            destination[prefix + name] = b if keep_vars else b.detach()


def state_dict(
    self: Module, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False
) -> dict[str, Any]:
    """Parameters and persistent buffers by dotted name (detached, sharing storage)."""
    if args:
        destination = args[0]
    if destination is None:
        destination = OrderedDict()
    stack: list[tuple[Module, str]] = [(self, prefix)]
    while stack:
        mod, pre = stack.pop()
        mod._save_to_state_dict(destination, pre, keep_vars)
        kids = [(m, pre + k + ".") for k, m in mod._modules.items() if m is not None]
        stack.extend(reversed(kids))
    return destination  # type: ignore[no-any-return]


def _load_from_state_dict(
    self: Module,
    state: dict[str, Any],
    prefix: str,
    strict: bool,
    missing: list[str],
    unexpected: list[str],
    errors: list[str],
) -> None:
    local = {k: v for k, v in self._parameters.items() if v is not None}
    for k, v in self._buffers.items():
        if v is not None and k not in self._non_persistent_buffers_set:
            local[k] = v  # type: ignore[assignment]
    for name, param in local.items():
        key = prefix + name
        if key not in state:
            if strict:
                missing.append(key)
            continue
        value = state[key]
        if not isinstance(value, Tensor):
            errors.append(
                f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like '
                f"object from checkpoint but received {type(value)}"
            )
            continue
        if value.shape != param.shape:
            errors.append(
                f"size mismatch for {key}: copying a param with shape {value.shape} from "
                f"checkpoint, the shape in current model is {param.shape}."
            )
            continue
        with no_grad():
            overwrite(param, value._d)
    if strict:
        for key in state:
            if key.startswith(prefix):
                rest = key[len(prefix) :].split(".", 1)[0]
                if rest not in self._modules and rest not in local:
                    unexpected.append(key)


def load_state_dict(
    self: Module, state_dict: dict[str, Any], strict: bool = True, assign: bool = False
) -> IncompatibleKeys:
    """Copy values into parameters and buffers; strict mode refuses missing or extra keys."""
    if not isinstance(state_dict, dict):
        raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
    missing: list[str] = []
    unexpected: list[str] = []
    errors: list[str] = []
    for name, mod in self.named_modules():
        pre = name + "." if name else ""
        mod._load_from_state_dict(state_dict, pre, True, missing, unexpected, errors)
    if strict:
        if unexpected:
            errors.insert(
                0,
                "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)
                ),
            )
        if missing:
            errors.insert(
                0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing))
            )
    if errors:
        raise RuntimeError(
            "Error(s) in loading state_dict for {}:\n\t{}".format(
                self._get_name(), "\n\t".join(errors)
            )
        )
    return IncompatibleKeys(missing, unexpected)
