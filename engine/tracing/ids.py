"""Stable small integer ids for tensors or nodes, counted from 0 per tracer: kept on the objects."""

from __future__ import annotations

import gc
import itertools
from typing import Any

_GENERATIONS = itertools.count(1)
_SPAN = 1 << 40  # ids one Ids hands out: far more than a run's event cap allows


class Ids:
    """Stable small integer ids for tensors or nodes, counted from 0 per tracer.

    The id lives on the object itself (`_tr_id`, a class default of 0 on Tensor and Node), offset
    by this Ids' generation: it dies with its object, so a new object at a reused address never
    inherits one, and a lookup is one attribute read, with no weak references to keep. An
    object holds one id at a time: one tracer per process (the worker runs one run).
    """

    __slots__ = ("_next", "hi", "lo")

    def __init__(self) -> None:
        self.lo = next(_GENERATIONS) * _SPAN
        self.hi = self.lo + _SPAN
        self._next = 0

    def get(self, obj: Any) -> int | None:
        """The id already given to `obj`, or None."""
        v: int = obj._tr_id
        return v - self.lo if self.lo <= v < self.hi else None

    def of(self, obj: Any) -> int:
        """The id of `obj`, giving it a new one if it has none."""
        v: int = obj._tr_id
        lo = self.lo
        if lo <= v < self.hi:
            return v - lo
        n = self._next
        self._next = n + 1
        obj._tr_id = lo + n
        return n

    def find(self, n: int, cls: type) -> Any:
        """The live `cls` object with id `n`, or None (a heap scan: for requests, not events)."""
        want = self.lo + n
        for obj in gc.get_objects():
            # type(), not isinstance(): isinstance asks a dead weakref.proxy for its class and
            # raises ReferenceError (any snippet, or library, may leave one in the heap)
            if issubclass(type(obj), cls) and getattr(obj, "_tr_id", 0) == want:
                return obj
        return None
