"""The snippet's names for tensors: read from its frames at a batch's end (the top level's
variables, then `named_parameters()`, then the shallowest function's locals), and tensors told
again once a better name is found."""

from __future__ import annotations

import itertools
import weakref
from types import FrameType
from typing import TYPE_CHECKING

from engine._tensor import Tensor

if TYPE_CHECKING:
    from typing import Any

    from engine.tracing.tracer import Event, Tracer

UNNAMED = 1 << 30  # the depth of no name at all: any name is better


def _module_class() -> type:
    from engine.nn.modules.module import Module

    return Module


def index_parameters(self: Tracer, module: Any, called: bool = False) -> None:
    """Name `module`'s parameters as its `named_parameters()` does: a parameter a submodule
    never runs with (`self_attn.out_proj.weight`, used through F.linear) is named too. Once
    per module, and once more at its first call (`called`) if it was first seen in a frame,
    perhaps half built."""
    seen = self.indexed.get(id(module))
    if seen is not None and (seen[1] or not called):
        return
    self.indexed[id(module)] = (module, called)  # (held: its id must not be reused)
    try:
        named = list(module.named_parameters())
    except Exception:  # a snippet's own override may fail: names are a courtesy
        return
    for name, p in named:
        if isinstance(p, Tensor) and isinstance(name, str):
            self.pnames.setdefault(id(p), (p, name))


def named_late(self: Tracer, out: list[Event]) -> None:
    """A `tensor` event (again) for each tensor this batch found a better name for (none
    before, or one from a deeper frame): whether and when a tensor gets its name must not
    depend on when a batch was built."""
    from engine.tracing.build import tensor_info

    # stamped as the batch's last event (a tuple held back for the next batch is older
    # than now: the stream's times must not go back)
    # (with nothing else in the batch, nothing is held back either: now is the newest)
    now = out[-1]["t"] if out else self.now()
    names, depth, unnamed = self.names, self.name_depth, self.unnamed
    # (the batch's names are a few frames' variables; the unnamed may be every tensor of
    # a long run: look the one up in the other)
    for key in [k for k in names if k in unnamed and depth[k] < unnamed[k][2]]:
        ref, line, _ = unnamed.pop(key)
        t = ref()
        if t is not None:
            out.append({"type": "tensor", "t": now, "tensor": tensor_info(self, t, line)})


def named_in(self: Tracer, t: Tensor, frame: FrameType | None) -> bool:
    """Whether the snippet's `frame` names `t` now: a variable, or a parameter of a module
    it holds (`lin.weight.copy_(...)` names lin's weight before any op used it)."""
    if frame is None:
        return False
    module = None
    for k, v in list(frame.f_locals.items()):
        if v is t and not k.startswith("__"):
            return True
        if isinstance(v, Tensor) or not hasattr(v, "_parameters"):
            continue
        module = module or _module_class()
        if isinstance(v, module):
            self.index_parameters(v)
    return id(t) in self.pnames


def name_now(self: Tracer, t: Tensor) -> tuple[str, int] | None:
    """The name and depth the snippet's frames give `t` now, from the frame of the capture
    being built up: the top level's variable, then named_parameters(), then the shallowest
    function's (as `_resolve_names`). For a leaf that requires grad, described when first
    built or used (a capture is built when the next one is made: a moment the program
    fixes), so its box is drawn with the name it keeps."""
    chain: list[FrameType] = []
    f = self.at
    fn = self.filename
    while f is not None:
        if f.f_code.co_filename == fn:
            chain.append(f)
        f = f.f_back
    deeper = None
    module = None
    for d, g in enumerate(reversed(chain)):
        for k, v in list(g.f_locals.items()):
            if v is t:
                if k.startswith("__"):
                    continue
                if d == 0:
                    return k, 0
                if deeper is None:
                    deeper = (k, d)
            elif (
                not isinstance(v, Tensor)
                and id(v) not in self.indexed
                and hasattr(v, "_parameters")
            ):
                module = module or _module_class()
                if isinstance(v, module):
                    self.index_parameters(v)
    held = self.pnames.get(id(t))
    if held is not None and held[0] is t:
        return held[1], 0
    return deeper


def unnamed_tensor(self: Tracer, t: Tensor, line: int | None, depth: int = UNNAMED) -> None:
    """`t` has no name yet (or one from `depth` snippet calls down): a leaf that requires
    grad, not described until a batch names it or an op uses it, or a tensor described
    without its best name (told again once a shallower frame names it)."""
    unnamed, key = self.unnamed, id(t)
    if key not in unnamed:
        unnamed[key] = (weakref.ref(t, lambda _: unnamed.pop(key, None)), line, depth)
    elif depth < unnamed[key][2]:
        unnamed[key] = (*unnamed[key][:2], depth)


def resolve_names(self: Tracer, seen: list[FrameType]) -> None:
    # the user's names, looked up once per batch in the snippet frames seen in it and the
    # snippet frames that called them, shallowest first: the top level's `x` before the
    # `inp` of the forward it was passed to, whichever of the two frames ran the ops
    depths: dict[int, int] = {}
    frames: list[tuple[int, FrameType]] = []
    for start in seen:
        if id(start) in depths:
            continue
        chain = []
        f: FrameType | None = start
        while f is not None and id(f) not in depths:
            if f.f_code.co_filename == self.filename:
                chain.append(f)
            f = f.f_back
        below = depths[id(f)] + 1 if f is not None else 0
        for d, g in enumerate(reversed(chain), below):
            depths[id(g)] = d
            frames.append((d, g))
    frames.sort(key=lambda df: df[0])  # (stable: siblings in the order seen)
    found: list[tuple[int, str, Tensor]] = []
    module = None
    for d, g in frames:
        for k, v in list(g.f_locals.items()):
            if isinstance(v, Tensor):
                if not k.startswith("__"):
                    found.append((d, k, v))
            elif id(v) not in self.indexed and hasattr(v, "_parameters"):
                module = module or _module_class()
                if isinstance(v, module):
                    self.index_parameters(v)
    # the top level's variables, then named_parameters(), then the functions' locals
    names: dict[int, str] = {}
    depth: dict[int, int] = {}
    self.names, self.name_depth = names, depth
    top = [(d, k, v) for d, k, v in found if d == 0]
    params = [(0, name, t) for t, name in self.pnames.values()]
    for d, k, v in itertools.chain(top, params, found[len(top) :]):
        if id(v) not in names:
            names[id(v)] = k
            depth[id(v)] = d
