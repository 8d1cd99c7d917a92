"""Module iteration: parameters, buffers, children and submodules, and their lookup by
dotted path (bound onto Module)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine._tensor import Tensor
    from engine.nn.modules.module import Module
    from engine.nn.parameter import Parameter


def named_modules(
    self: Module, memo: set[Module] | None = None, prefix: str = "", remove_duplicate: bool = True
) -> Iterator[tuple[str, Module]]:
    """(name, module) for this module and all below it, depth first."""
    seen: set[int] = set() if memo is None else {id(m) for m in memo}
    stack: list[tuple[str, Module]] = [(prefix, self)]
    while stack:
        name, mod = stack.pop()
        if remove_duplicate:
            if id(mod) in seen:
                continue
            seen.add(id(mod))
            if memo is not None:
                memo.add(mod)
        yield name, mod
        kids = [(k, m) for k, m in mod._modules.items() if m is not None]
        for k, m in reversed(kids):
            stack.append((name + ("." if name else "") + k, m))


def modules(self: Module) -> Iterator[Module]:
    for _, m in self.named_modules():
        yield m


def named_children(self: Module) -> Iterator[tuple[str, Module]]:
    seen: set[int] = set()
    for name, m in self._modules.items():
        if m is not None and id(m) not in seen:
            seen.add(id(m))
            yield name, m


def children(self: Module) -> Iterator[Module]:
    for _, m in self.named_children():
        yield m


def _named_members(
    self: Module, store: str, prefix: str, recurse: bool, remove_duplicate: bool = True
) -> Iterator[tuple[str, Any]]:
    mods = (
        self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
        if recurse
        else [(prefix, self)]
    )
    seen: set[int] = set()
    for mname, mod in mods:
        for k, v in getattr(mod, store).items():
            if v is None or (remove_duplicate and id(v) in seen):
                continue
            seen.add(id(v))
            yield mname + ("." if mname else "") + k, v


def named_parameters(
    self: Module, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
) -> Iterator[tuple[str, Parameter]]:
    """(dotted name, parameter) pairs, each parameter once."""
    yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)


def parameters(self: Module, recurse: bool = True) -> Iterator[Parameter]:
    for _, p in self.named_parameters(recurse=recurse):
        yield p


def named_buffers(
    self: Module, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
) -> Iterator[tuple[str, Tensor]]:
    yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)


def buffers(self: Module, recurse: bool = True) -> Iterator[Tensor]:
    for _, b in self.named_buffers(recurse=recurse):
        yield b


def get_submodule(self: Module, target: str) -> Module:
    """The submodule at dotted path `target`."""
    from engine.nn.modules.module import Module

    mod = self
    if target == "":
        return mod
    for item in target.split("."):
        if not hasattr(mod, item):
            raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
        mod = getattr(mod, item)
        if not isinstance(mod, Module):
            raise AttributeError("`" + item + "` is not an nn.Module")
    return mod


def get_parameter(self: Module, target: str) -> Parameter:
    """The parameter at dotted path `target`."""
    from engine.nn.parameter import Parameter

    p = _get_tensor(self, target, "_parameters", "an nn.Parameter")
    if not isinstance(p, Parameter):
        raise AttributeError(f"`{target.rpartition('.')[2]}` is not an nn.Parameter")
    return p


def get_buffer(self: Module, target: str) -> Tensor:
    """The buffer at dotted path `target`."""
    return _get_tensor(self, target, "_buffers", "a buffer")


def _get_tensor(self: Module, target: str, table: str, what: str) -> Tensor:
    mod_path, _, name = target.rpartition(".")
    mod = get_submodule(self, mod_path)
    if not hasattr(mod, name):
        raise AttributeError(f"{mod._get_name()} has no attribute `{name}`")
    if name not in getattr(mod, table):
        raise AttributeError(f"`{name}` is not {what}")
    t: Tensor = getattr(mod, name)
    return t
