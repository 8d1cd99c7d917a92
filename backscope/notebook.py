"""Jupyter: `%load_ext backscope`, the `%%backscope` cell magic and `backscope.show()`.

The page is the app served by this kernel's own process (`backscope.live`), shown inline in an
iframe: it talks to that server directly over its websocket, so stepping works while the cell is
still running (the kernel is busy in the paused backward; the server thread is not). After the
cell, a static snapshot (`backscope.snapshot`) is added for viewers that run nothing (nbviewer,
GitHub): the graph as SVG and the gradients as a table.
"""

from __future__ import annotations

import html
import shlex
from typing import Any

from backscope.live import LAST, local_server, watch

HEIGHT = 720


def page(url: str, height: int = HEIGHT) -> Any:
    """The live page as an inline frame (an IPython display object)."""
    from IPython.display import HTML

    src = html.escape(url, quote=True)
    return HTML(
        f'<iframe src="{src}" width="100%" height="{height}" style="border:1px solid #334" '
        f'data-backscope-run="{src}" title="backscope"></iframe>'
    )


def show(run: str | None = None, height: int = HEIGHT) -> Any:
    """Show a run of this process (the last one by default) inline, or open it in a browser
    outside a notebook. Returns the display object (or the URL)."""
    url = _url(run)
    if in_notebook():
        from IPython.display import display

        shown = page(url, height)
        display(shown)
        return shown
    import webbrowser

    webbrowser.open(url)
    return url


def _url(run: str | None) -> str:
    if run is None:
        if not LAST:
            return local_server().base
        return LAST[-1][1]
    return local_server().url(run)


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def _options(line: str) -> dict[str, Any]:
    """`%%backscope --pause --break-op MulBackward0 --break-nan --no-snapshot`"""
    opts: dict[str, Any] = {"pause_backward": False, "breakpoints": [], "snapshot": True}
    words = shlex.split(line)
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("--pause", "--pause-backward"):
            opts["pause_backward"] = True
        elif w == "--break-op" and i + 1 < len(words):
            i += 1
            opts["breakpoints"] += [{"op": op} for op in words[i].split(",") if op]
        elif w == "--break-line" and i + 1 < len(words):
            i += 1
            opts["breakpoints"].append({"line": int(words[i])})
        elif w == "--break-nan":
            opts["breakpoints"].append({"on_nan": True})
        elif w == "--no-snapshot":
            opts["snapshot"] = False
        else:
            raise ValueError(f"%%backscope: unknown option {w!r}")
        i += 1
    return opts


def cell_magic(line: str, cell: str) -> None:
    """`%%backscope [--pause] [--break-op NAME] [--break-nan]`: run the cell with real torch
    watched, its page inline (live while the kernel lives), then a static snapshot."""
    from IPython import get_ipython
    from IPython.display import display

    shell = get_ipython()
    opts = _options(line)
    snapshot = opts.pop("snapshot")
    # the cell's code gets a file name of its own, so its lines are the ones the page shows
    filename = shell.compile.cache(cell) if hasattr(shell.compile, "cache") else "<backscope-cell>"
    events: list[dict[str, Any]] = []
    w = watch(open=False, code=cell, files={filename}, record=events, **opts)
    with w:
        display(page(w.url))
        code = compile(cell, filename, "exec")
        exec(code, shell.user_ns)
    if snapshot:
        from IPython.display import HTML

        from backscope.live import engine_name
        from backscope.snapshot import snapshot_html

        title = "backscope snapshot (static)"
        display(HTML(snapshot_html(events, title=title, engine=engine_name())))


def load_ipython_extension(ipython: Any) -> None:
    """Register `%%backscope`."""
    ipython.register_magic_function(cell_magic, magic_kind="cell", magic_name="backscope")
