"""Live runs and the manager that runs them (see DESIGN.md, "The flow of one run").

>>> manager = RunManager(Sandbox(settings), store, PROTOCOL_VERSION, limits)
>>> run = manager.start(code, {"pause_in_backward": True}, owner=digest)   # a LiveRun
>>> await run.stop("killed")                  # its owner's stop; the server's: limit, interrupted
"""

from server.runs.instances import instance_gone, this_instance
from server.runs.live import (
    ANY_OWNER,
    Control,
    Handle,
    LiveRun,
    RunLimits,
    Runner,
    Runs,
    ShuttingDown,
    new_run_id,
    run_limits,
)
from server.runs.manager import RunManager

__all__ = [
    "ANY_OWNER",
    "Control",
    "Handle",
    "LiveRun",
    "RunLimits",
    "RunManager",
    "Runner",
    "Runs",
    "ShuttingDown",
    "instance_gone",
    "new_run_id",
    "run_limits",
    "this_instance",
]
