"""A node's saved values, as PyTorch exposes them: `_saved_*` attributes (a custom Function's
`saved_tensors`), each tensor with its version, or what the user's saved_tensors_hooks packed."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import torch

from protocol import SavedInfo

if TYPE_CHECKING:
    from backscope.capture.recorder import Event, Recorder


def version_of(t: torch.Tensor) -> int:
    """A tensor's version counter (0 for an inference tensor, which has none)."""
    try:
        return int(t._version)
    except RuntimeError:
        return 0


def saved_values(
    rec: Recorder, node: Any, nid: int, packed: list[tuple[torch.Tensor, Any]]
) -> tuple[list[SavedInfo], list[Event]]:
    """A node's saved values as PyTorch exposes them (`_saved_*`; a custom Function's as
    `saved_tensors[i]`), each tensor with its version now (the op that saved it just ran).
    Under the user's saved_tensors_hooks, what the pack hooks were given, in order."""
    res: list[SavedInfo] = []
    late: list[Event] = []
    names = [a for a in dir(node) if a.startswith("_saved_")]
    if packed:
        raw = [a[len("_raw_saved_") :] for a in dir(node) if a.startswith("_raw_saved_")]
        raw += [f"saved_tensors[{i}]" for i in range(len(packed) - len(raw))]
        for name, (t, box) in zip(raw, packed):
            tid = rec.tensor_id(t)
            res.append({"name": name, "tensor": tid, "version": version_of(t), "hooked": True})
            rec.packed_names[id(box)] = (nid, name, box)
            late.append(
                {
                    "type": "saved_pack",
                    "t": rec.now(),
                    "node": nid,
                    "name": name,
                    "tensor": tid,
                    "packed_type": type(box).__name__,
                }
            )
        return res, late
    items: list[tuple[str, Any]] = []
    for a in names:
        try:
            items.append((a[len("_saved_") :], getattr(node, a)))
        except Exception:  # (freed, or not readable for this node)
            continue
    if isinstance(node, torch.autograd.function.BackwardCFunction):
        with contextlib.suppress(Exception):  # (freed after its backward)
            items += [(f"saved_tensors[{i}]", s) for i, s in enumerate(node.saved_tensors)]
    for name, v in items:
        if isinstance(v, torch.Tensor):
            res.append({"name": name, "tensor": rec.tensor_id(v), "version": version_of(v)})
        elif isinstance(v, tuple | list) and v and all(isinstance(x, torch.Tensor) for x in v):
            for i, x in enumerate(v):
                tid = rec.tensor_id(x)
                res.append({"name": f"{name}[{i}]", "tensor": tid, "version": version_of(x)})
        elif v is not None:
            res.append({"name": name, "repr": repr(v)[:200]})
    return res, late
