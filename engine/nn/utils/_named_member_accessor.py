"""`torch.nn.utils._named_member_accessor`: get, set and swap a module's tensors and submodules
by dotted path (what `torch.func.functional_call` swaps with), intermediate modules cached.

>>> acc = NamedMemberAccessor(nn.Sequential(nn.Linear(2, 2)))
>>> old = acc.swap_tensor("0.weight", torch.zeros(2, 2))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from engine._tensor import Tensor
from engine.nn.modules.module import Module

# the placeholder swap_tensor takes and returns for an attribute that is not there
_MISSING: Any = object()


def _check_name(name: str, what: str) -> None:
    if "." in name:
        raise KeyError(f'{what} name can\'t contain "."')
    if name == "":
        raise KeyError(f'{what} name can\'t be empty string ""')


def _check_module(module: Any) -> None:
    if not isinstance(module, Module):
        raise TypeError(f"{module} is not an instance of torch.nn.Module")


def set_tensor(module: Module, name: str, tensor: Tensor | None) -> None:
    """Set `module.<name>`, replacing a parameter or buffer in its own dict."""
    _check_module(module)
    if not isinstance(tensor, Tensor) and tensor is not None:
        raise TypeError(f"{tensor} is not an instance of torch.Tensor")
    _check_name(name, "tensor")
    params: dict[str, Any] = module._parameters  # a plain tensor may take a parameter's slot
    if name in params:
        params[name] = tensor
    elif name in module._buffers:
        module._buffers[name] = tensor
    else:
        setattr(module, name, tensor)


def swap_tensor(module: Module, name: str, tensor: Any, allow_missing: bool = False) -> Any:
    """Set `module.<name>` to `tensor` (or delete it, for _MISSING) and return what it was."""
    _check_module(module)
    if tensor is not _MISSING and not isinstance(tensor, Tensor) and tensor is not None:
        raise TypeError(f"{tensor} is not an instance of torch.Tensor")
    _check_name(name, "tensor")
    for store in (module._parameters, module._buffers):
        if name in store:
            orig = store[name]
            if tensor is not _MISSING:
                store[name] = tensor
            else:
                del store[name]
            return orig
    if hasattr(module, name):
        orig = getattr(module, name)
    elif not allow_missing:
        raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
    else:
        orig = _MISSING
    if orig is not _MISSING and not isinstance(orig, Tensor) and orig is not None:
        raise TypeError(f"attribute `{name}`: {orig} is not an instance of torch.Tensor")
    if tensor is not _MISSING:
        setattr(module, name, tensor)
    elif hasattr(module, name):
        delattr(module, name)
    return orig


def swap_submodule(module: Module, name: str, submodule: Module) -> Module:
    """Replace the child `name` of `module` and return the old one."""
    _check_module(module)
    _check_module(submodule)
    _check_name(name, "submodule")
    if name not in module._modules:
        raise KeyError(f"submodule {name} does not exist")
    orig = module._modules[name]
    if not isinstance(orig, Module):
        raise TypeError(f"{name} attribute is not an instance of torch.nn.Module")
    module._modules[name] = submodule
    return orig


class NamedMemberAccessor:
    """A module's submodules and tensors by dotted path, the submodules looked up once."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self.memo: dict[str, Module] = {}

    def get_submodule(self, name: str) -> Module:
        if not name:
            return self.module
        if name in self.memo:
            return self.memo[name]
        prefix, dot, attr = name.rpartition(".")
        module = self.get_submodule(prefix) if dot else self.module
        try:
            submodule = getattr(module, attr)
        except AttributeError as ex:
            raise AttributeError(f"{module._get_name()} has no attribute `{attr}`") from ex
        if not isinstance(submodule, Module):
            raise TypeError(
                f"submodule `{name}`: {submodule} is not an instance of torch.nn.Module"
            )
        self.memo[name] = submodule
        return submodule

    def swap_submodule(self, path: str, value: Module) -> Module:
        prefix, _, attr = path.rpartition(".")
        return swap_submodule(self.get_submodule(prefix), attr, value)

    def get_tensor(self, name: str) -> Tensor | None:
        prefix, _, attr = name.rpartition(".")
        submodule = self.get_submodule(prefix)
        try:
            tensor = getattr(submodule, attr)
        except AttributeError as ex:
            raise AttributeError(f"{submodule._get_name()} has no attribute `{name}`") from ex
        if not isinstance(tensor, Tensor) and tensor is not None:
            raise TypeError(f"{tensor} is not an instance of torch.Tensor")
        return tensor  # None for a parameter registered as None

    def set_tensor(self, name: str, value: Tensor) -> None:
        prefix, _, attr = name.rpartition(".")
        set_tensor(self.get_submodule(prefix), attr, value)

    def del_tensor(self, name: str) -> None:
        prefix, _, attr = name.rpartition(".")
        submodule = self.get_submodule(prefix)
        try:
            delattr(submodule, attr)
        except AttributeError as ex:
            raise AttributeError(f"{submodule._get_name()} has no attribute `{name}`") from ex

    def swap_tensor(self, name: str, value: Any, allow_missing: bool = False) -> Any:
        prefix, _, attr = name.rpartition(".")
        return swap_tensor(self.get_submodule(prefix), attr, value, allow_missing=allow_missing)

    def get_tensors(self, names: Iterable[str]) -> list[Tensor | None]:
        return [self.get_tensor(name) for name in names]

    def set_tensors(self, names: Iterable[str], values: Iterable[Tensor]) -> None:
        for name, value in _pairs(names, values):
            self.set_tensor(name, value)

    def set_tensors_dict(self, named_tensors: dict[str, Tensor]) -> None:
        for name, value in named_tensors.items():
            self.set_tensor(name, value)

    def del_tensors(self, names: Iterable[str]) -> None:
        for name in names:
            self.del_tensor(name)

    def swap_tensors(
        self, names: Iterable[str], values: Iterable[Any], allow_missing: bool = False
    ) -> list[Any]:
        return [
            self.swap_tensor(name, value, allow_missing=allow_missing)
            for name, value in _pairs(names, values)
        ]

    def swap_tensors_dict(
        self, named_tensors: dict[str, Any], allow_missing: bool = False
    ) -> tuple[dict[str, Any], list[str]]:
        """Swap every named tensor; on an error or a missing key (unless allowed) swap the
        ones done back before raising."""
        orig: dict[str, Any] = {}
        missing: list[str] = []
        try:
            for name, tensor in named_tensors.items():
                old = self.swap_tensor(name, tensor, allow_missing=True)
                if old is _MISSING:
                    missing.append(name)
                orig[name] = old
        except Exception:
            self._swap_back(orig)
            raise
        if missing and not allow_missing:
            self._swap_back(orig)
            raise RuntimeError(f"Missing key(s): {', '.join(map(repr, missing))}.")
        return orig, missing

    def _swap_back(self, orig: dict[str, Any]) -> None:
        for name, old in orig.items():
            self.swap_tensor(name, old, allow_missing=True)

    def check_keys(self, keys: Iterable[str]) -> tuple[list[str], list[str]]:
        """The module's tensor names missing from `keys`, and the keys it has no tensor for."""
        given = set(keys)
        valid = {name for name, _ in self.named_tensors(remove_duplicate=False)}
        return sorted(valid - given), sorted(given - valid)

    def named_parameters(self, remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        yield from self.module.named_parameters(remove_duplicate=remove_duplicate)

    def named_buffers(self, remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        yield from self.module.named_buffers(remove_duplicate=remove_duplicate)

    def named_tensors(self, remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        yield from self.module.named_parameters(remove_duplicate=remove_duplicate)
        yield from self.module.named_buffers(remove_duplicate=remove_duplicate)

    def named_modules(self, remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        yield from self.module.named_modules(remove_duplicate=remove_duplicate)


def _pairs(names: Iterable[str], values: Iterable[Any]) -> list[tuple[str, Any]]:
    ns, vs = list(names), list(values)
    if len(ns) != len(vs):
        raise AssertionError(
            f"names and values must have the same length, got {len(ns)} names and {len(vs)} values"
        )
    return list(zip(ns, vs))
