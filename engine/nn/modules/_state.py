"""`Module.state_dict` / `load_state_dict` (bound onto Module as methods)."""

from __future__ import annotations

import functools
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from engine._tensor import Tensor
from engine._warn import warn
from engine.autograd.grad_mode import no_grad
from engine.autograd.graph import RemovableHandle
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
    """Parameters and persistent buffers by dotted name (detached, sharing storage), with the
    state-dict pre- and post-hooks of every module and PyTorch's `_metadata` (versions)."""
    if args:
        warn(
            "Positional args are being deprecated, use kwargs instead. Refer to "
            "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
            "#torch.nn.Module.state_dict for details.",
            FutureWarning,
        )
        if destination is None:
            destination = args[0]
        if len(args) > 1 and prefix == "":
            prefix = args[1]
        if len(args) > 2 and keep_vars is False:
            keep_vars = args[2]
    if destination is None:
        destination = OrderedDict()
        destination._metadata = OrderedDict()
    local_metadata = dict(version=self._version)
    if hasattr(destination, "_metadata"):
        destination._metadata[prefix[:-1]] = local_metadata
    for hook in self._state_dict_pre_hooks.values():
        hook(self, prefix, keep_vars)
    self._save_to_state_dict(destination, prefix, keep_vars)
    for name, module in self._modules.items():
        if module is not None:
            module.state_dict(
                destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars
            )
    for hook in self._state_dict_hooks.values():
        result = hook(self, destination, prefix, local_metadata)
        if not getattr(hook, "_from_public_api", False):
            if result is not None:
                destination = result
        elif result is not None:
            raise RuntimeError("state_dict post-hook must return None")
    return destination  # type: ignore[no-any-return]


def _load_from_state_dict(
    self: Module,
    state: dict[str, Any],
    prefix: str,
    local_metadata: dict[str, Any],
    strict: bool,
    missing: list[str],
    unexpected: list[str],
    errors: list[str],
) -> None:
    for hook in self._load_state_dict_pre_hooks.values():
        hook(state, prefix, local_metadata, strict, missing, unexpected, errors)
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
    metadata = getattr(state_dict, "_metadata", None)
    state_dict = OrderedDict(state_dict)
    if metadata is not None:
        state_dict._metadata = metadata  # type: ignore[attr-defined]

    def load(module: Module, local_state: dict[str, Any], prefix: str = "") -> None:
        local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
        if assign:
            local_metadata["assign_to_params_buffers"] = assign
        module._load_from_state_dict(
            local_state, prefix, local_metadata, True, missing, unexpected, errors
        )
        for name, child in module._modules.items():
            if child is not None:
                child_prefix = prefix + name + "."
                child_state = {k: v for k, v in local_state.items() if k.startswith(child_prefix)}
                load(child, child_state, child_prefix)
        keys = IncompatibleKeys(missing, unexpected)
        for hook in module._load_state_dict_post_hooks.values():
            if hook(module, keys) is not None:
                raise AssertionError(
                    "Hooks registered with ``register_load_state_dict_post_hook`` are not "
                    "expected to return new values, if incompatible_keys need to be modified, "
                    "it should be done inplace."
                )

    load(self, state_dict)
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


# -- state-dict hooks ----------------------------------------------------------------------
class _WrappedHook:
    """A load pre-hook registered `with_module`: called with its module first (weakly held)."""

    def __init__(self, hook: Callable[..., Any], module: Module | None = None) -> None:
        self.hook = hook
        functools.update_wrapper(self, hook)
        self.with_module = module is not None
        if module is not None:
            self.module = weakref.ref(module)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.with_module:
            module = self.module()
            if module is None:
                raise RuntimeError("You are trying to call the hook of a dead Module!")
            return self.hook(module, *args, **kwargs)
        return self.hook(*args, **kwargs)


def _register_state_dict_hook(self: Module, hook: Callable[..., Any]) -> RemovableHandle:
    """hook(module, state_dict, prefix, local_metadata) -> None or a new state_dict."""
    if getattr(hook, "_from_public_api", False):
        raise RuntimeError(
            "Cannot register the same function as the state dict post hook that was "
            "previously registered via register_state_dict_post_hook"
        )
    handle = RemovableHandle(self._state_dict_hooks)
    self._state_dict_hooks[handle.id] = hook
    return handle


def register_state_dict_post_hook(self: Module, hook: Callable[..., Any]) -> RemovableHandle:
    """hook(module, state_dict, prefix, local_metadata) -> None (edits in place)."""
    hook._from_public_api = True  # type: ignore[attr-defined]
    handle = RemovableHandle(self._state_dict_hooks)
    self._state_dict_hooks[handle.id] = hook
    return handle


def register_state_dict_pre_hook(self: Module, hook: Callable[..., Any]) -> RemovableHandle:
    """hook(module, prefix, keep_vars) -> None, before the module saves its state."""
    handle = RemovableHandle(self._state_dict_pre_hooks)
    self._state_dict_pre_hooks[handle.id] = hook
    return handle


def _register_load_state_dict_pre_hook(
    self: Module, hook: Callable[..., Any], with_module: bool = False
) -> RemovableHandle:
    """hook(state_dict, prefix, local_metadata, strict, missing, unexpected, errors)."""
    handle = RemovableHandle(self._load_state_dict_pre_hooks)
    self._load_state_dict_pre_hooks[handle.id] = _WrappedHook(hook, self if with_module else None)
    return handle


def register_load_state_dict_pre_hook(self: Module, hook: Callable[..., Any]) -> RemovableHandle:
    """hook(module, state_dict, prefix, local_metadata, strict, missing, unexpected, errors)."""
    return _register_load_state_dict_pre_hook(self, hook, with_module=True)


def register_load_state_dict_post_hook(self: Module, hook: Callable[..., Any]) -> RemovableHandle:
    """hook(module, incompatible_keys) -> None, after the module and its children loaded."""
    handle = RemovableHandle(self._load_state_dict_post_hooks)
    self._load_state_dict_post_hooks[handle.id] = hook
    return handle
