"""backscope for real PyTorch: watch your own model's backward pass, step it node by node.

Import-light: nothing here imports torch or the server until it is used.

>>> import backscope
>>> with backscope.watch():  # doctest: +SKIP
...     loss = model(x).sum()
...     loss.backward()
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"
__all__ = ["__version__", "load_ipython_extension", "show", "watch"]


def watch(**options: Any) -> Any:
    """A context manager that streams what real torch does inside it to a live page."""
    from backscope.live import watch as _watch

    return _watch(**options)


def show(**options: Any) -> Any:
    """Show the last watched run (inline in a notebook, else in a browser tab)."""
    from backscope.notebook import show as _show

    return _show(**options)


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext backscope`: registers the `%%backscope` cell magic."""
    from backscope.notebook import load_ipython_extension as _load

    _load(ipython)
