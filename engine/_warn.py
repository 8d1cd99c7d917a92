"""Warnings shown at the user's line, never at the engine's.

PyTorch's warnings point at the user's code: C++ ones at the Python frame that called into
the op, Python ones through a `stacklevel` fitted to each call path. The engine's call paths
differ from PyTorch's and from each other (a method, a `torch.*` function, a module's
forward, a hook run by backward), so a fixed `stacklevel` lands inside the engine on some of
them (`out = fn(*args)` in the console says nothing to the user). `warn` attributes the
warning to the innermost frame outside the engine instead, with that frame's module and
registry, so the default once-per-location filter works per user line as in PyTorch.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import warnings
from types import FrameType

# frames in these files are not the user's (the stdlib's decorators and context managers sit
# between a `with torch.x():` line and the engine's generator)
_NOT_USER = (
    os.path.dirname(os.path.abspath(__file__)) + os.sep,
    contextlib.__file__,
    functools.__file__,
    "<frozen ",
)


def warn(message: str | Warning, category: type[Warning] = UserWarning) -> None:
    """`warnings.warn(message, category)` at the innermost frame outside the engine."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_NOT_USER):
        frame = frame.f_back
    if frame is None:  # called with no user code on the stack (at import, from a thread)
        warnings.warn(message, category, stacklevel=2)
        return
    env = frame.f_globals
    where = (frame.f_code.co_filename, frame.f_lineno)
    module = env.get("__name__", "<string>")
    registry = env.setdefault("__warningregistry__", {})
    try:
        warnings.warn_explicit(
            message, category, *where, module=module, registry=registry, module_globals=env
        )
    except ImportError:
        # the frame's module loader cannot give its source (code exec'd in `python -c`'s
        # __main__, whose loader is the builtin importer): the warning without the source line
        warnings.warn_explicit(message, category, *where, module=module, registry=registry)


_WARNED_ONCE: set[str] = set()


def warn_once(message: str, category: type[Warning] = UserWarning) -> None:
    """PyTorch's TORCH_WARN_ONCE: the first call in the process warns (at the user's line),
    later ones with the same message do not, wherever they are."""
    if message not in _WARNED_ONCE:
        _WARNED_ONCE.add(message)
        warn(message, category)


def forget_once() -> None:
    """Warn again what `warn_once` has warned: a fresh process's state, for one process that
    runs many snippets (the engine's tests)."""
    _WARNED_ONCE.clear()


def from_user(depth: int = 2) -> bool:
    """Whether the caller of the function calling this is the user's code, not the engine's
    (a conversion PyTorch warns about when the user makes it, not when an op does)."""
    return not sys._getframe(depth).f_code.co_filename.startswith(_NOT_USER)
