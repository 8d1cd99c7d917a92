"""Which server process wrote a `running` row, and whether it is gone: the next start (and a
periodic sweep) marks the runs of a server that stopped without ending them `interrupted`."""

from __future__ import annotations

import os
import socket
import time


def _start_time(pid: int) -> str | None:
    """When process `pid` started (clock ticks since boot), None when there is no such process:
    a pid alone may have been reused by another process since."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def this_instance() -> str:
    """host:pid:start of this server process: who is writing a `running` row."""
    return f"{socket.gethostname()}:{os.getpid()}:{_start_time(os.getpid())}"


def instance_gone(instance: str, heartbeat: float, stale_s: float) -> bool:
    """Whether the server that wrote a `running` row has stopped: on this host, its process
    is gone (or is this one, restarted: a container's pid 1 again); elsewhere, it has not
    written for `stale_s`."""
    host, _, rest = instance.partition(":")
    pid_text, _, start = rest.partition(":")
    if host == socket.gethostname() and pid_text.isdigit():
        pid = int(pid_text)
        # this very process: a row of ours that is not live here has ended
        return pid == os.getpid() or _start_time(pid) != start
    return time.time() - heartbeat > stale_s
