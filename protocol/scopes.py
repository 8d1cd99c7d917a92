"""Module scopes as both capture backends name them (the engine's tracer and the real-PyTorch
recorder): the stack of `nn.Module` calls running now, each `(module, name, call number)`; a
scope's dotted path (`encoder.layers.0`) and call numbers; a called module's name under the one
running it, as `named_modules()` names it."""

from typing import Any

Scope = tuple[Any, str, int]  # (the module, its name under its caller, its call number)

CHILD_SEARCH = 10_000  # modules searched for a child's name before falling back to its class
OUTPUT_SEARCH = 1_000  # values looked at in a module's output for its first tensor


def path_and_calls(stack: list[Scope]) -> tuple[str | None, tuple[int, ...] | None]:
    """The stack's dotted path and call numbers (None for both outside any module)."""
    if not stack:
        return None, None
    return ".".join(n for _, n, _ in stack), tuple(c for _, _, c in stack)


def child_name(stack: list[Scope], module: Any) -> str:
    """`module`'s name under the module running it (the top of `stack`), through containers
    that are never called themselves (`layers.0` of a ModuleList); its class's name at the top
    level or when it is not found."""
    if stack:
        todo: list[tuple[str, Any]] = [("", stack[-1][0])]
        seen = 0
        while todo and seen < CHILD_SEARCH:  # breadth first: the shortest path wins
            prefix, parent = todo.pop(0)
            for k, m in (getattr(parent, "_modules", None) or {}).items():
                if m is module:
                    return f"{prefix}{k}"
                if m is not None:
                    todo.append((f"{prefix}{k}.", m))
            seen += 1
    return type(module).__name__


def leave(stack: list[Scope], module: Any) -> int | None:
    """Pop `module`'s scope (and any left open inside it) off `stack`; its call number."""
    call = None
    while stack:
        m, _, call = stack.pop()
        if m is module:
            break
    return call


def output_shape(output: Any, tensor_type: type[Any]) -> list[int] | None:
    """The shape of what a module returned: the tensor, or the first tensor of a tuple, list or
    dict it returned (depth first, looking at OUTPUT_SEARCH values at most); None when there is
    none. It runs inside the user's module call: a container subclass whose methods raise
    costs the label, never the call."""
    todo = [output]
    seen = 0
    try:
        while todo and seen < OUTPUT_SEARCH:
            x = todo.pop()
            seen += 1
            if isinstance(x, tensor_type):
                return [int(n) for n in x.shape]
            if isinstance(x, (tuple, list)):
                todo.extend(list(x[:OUTPUT_SEARCH])[::-1])
            elif isinstance(x, dict):
                values: list[Any] = []
                for v in dict.values(x):
                    if len(values) >= OUTPUT_SEARCH:
                        break
                    values.append(v)
                todo.extend(reversed(values))
    except Exception:
        return None
    return None
