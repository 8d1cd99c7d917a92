"""A built-in op's node class: `OpNode`, named as PyTorch names it; `variant`, the one way to
make a node class besides a class statement; `op_nodes`, every node class a forward op records.

An op is a function computing its forward on ndarrays, next to an `OpNode` subclass whose
`apply` maps output gradients to input gradients with engine ops (so `create_graph=True`
differentiates through them). The op decides its node class before recording (engine/ops/
record.py): nothing renames a node afterwards.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from engine.autograd.graph import Node, display_name


class OpNode(Node):
    """A built-in op's node. Subclasses set `_name` (PyTorch's name, which also names the class)
    and implement `apply`. `_listed = False` keeps a class out of `op_nodes()`: a node no forward
    op of the table records (a backward's own node, a C++-only overload, a fused nn node)."""

    __slots__ = ()
    _listed: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_name" in cls.__dict__:
            cls.__module__ = "builtins"  # `type(y.grad_fn)` prints <class 'MulBackward0'>
            cls.__name__ = cls.__qualname__ = display_name(cls._name)

    def needs(self, i: int) -> bool:
        """True when input `i` wants a gradient (PyTorch's `needs_input_grad`)."""
        return self.next_functions[i][0] is not None


_N = TypeVar("_N", bound=Node)
_VARIANTS: dict[tuple[type[Node], str], type[Node]] = {}


def variant(base: type[_N], name: str, **methods: Any) -> type[_N]:
    """`base`'s node under PyTorch's `name`: the one way to make a node class other than a class
    statement, for one backward that PyTorch names several ways (`UpsampleNearest2DBackward0`,
    an activation's `GeluBackwardBackward0`). `methods` fill in what `base` leaves open (a
    derivative). Made once per (base, name); an op passes the class it gets to `record`.

    >>> variant(_UpsampleBackward, "UpsampleNearest2DBackward0")
    """
    cls = _VARIANTS.get((base, name))
    if cls is None:
        ns = {"__slots__": (), "_name": name, **methods}
        cls = _VARIANTS[(base, name)] = type(display_name(name), (base,), ns)
    elif methods:
        raise ValueError(f"{name} is already a variant of {base.__name__}")
    return cls  # type: ignore[return-value]


def op_nodes() -> dict[str, type[OpNode]]:
    """Every node class a forward op records, by PyTorch's name: the OpNode classes that declare
    a `_name`, less those declaring `_listed = False` (read on demand, not registered as a side
    effect of defining a class)."""
    found: dict[str, type[OpNode]] = {}
    stack = [OpNode]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if "_name" in cls.__dict__ and cls._listed:
            other = found.setdefault(cls._name, cls)
            if other is not cls:
                raise RuntimeError(f"two listed node classes are named {cls._name}")
    return found
