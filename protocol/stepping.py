"""What the stepping commands mean, defined once for both producers of a backward pass: the
engine's tracer (engine/tracing/stepper.py) and real torch's capture (backscope/capture/stepper.py).

A backward calls `Stepping.at_node` as it enters each node. The run goes on, or pauses (step
mode, a breakpoint by node id, op name, line or NaN gradient, a `pause` command): it emits
`paused` and blocks the backward's thread until the controller says `step` or `continue`,
answering `set_breakpoints` and `tensor_values` meanwhile. Stepping decides only *when* the
backward goes on, never what it computes. Each producer says what it alone knows (a node's id,
name and line, NaN in its gradients, a tensor's values, how its run stops) in a subclass.
This is the one behaviour in `protocol/` beside the vocabulary: the engine and backscope may both
import it, and neither may import the other.

>>> AutoStep().wait()
{'type': 'step'}
"""

from typing import Any, NoReturn, Protocol

from protocol.backward import Paused
from protocol.vocab import PauseWhy


class Controller(Protocol):
    """Commands from the page: `wait()` blocks for one, `poll()` returns one pending or None."""

    def wait(self) -> dict[str, Any]: ...

    def poll(self) -> dict[str, Any] | None: ...


class Host(Protocol):
    """Where a stepper's events go (the engine's Tracer, the capture's Recorder)."""

    def emit(self, event: Any) -> None: ...

    def flush(self) -> None: ...

    def now(self) -> int: ...


class AutoStep:
    """A controller that answers every pause with `step` (records a stepped run unattended)."""

    def wait(self) -> dict[str, Any]:
        return {"type": "step"}

    def poll(self) -> dict[str, Any] | None:
        return None


class Stepping:
    """The pause state of one run's backward passes: `stepping` (pause before every node) and
    the breakpoints, changed by commands."""

    def __init__(self, host: Host, controller: Controller | None, options: dict[str, Any]) -> None:
        self.host = host
        self.ctl = controller
        self.stepping = bool(options.get("pause_in_backward"))
        self.breakpoints: list[dict[str, Any]] = list(options.get("breakpoints") or [])

    # -- what each producer knows -----------------------------------------------------------
    def node_id(self, node: Any) -> int | None:
        """The wire id of `node` (None: not described yet)."""
        raise NotImplementedError

    def node_name(self, node: Any) -> str | None:
        """PyTorch's name of `node` (`MulBackward0`)."""
        raise NotImplementedError

    def node_line(self, nid: int | None) -> int | None:
        """The snippet line that made node `nid`."""
        raise NotImplementedError

    def has_nan(self, grads: Any) -> bool:
        """Whether any of the node's incoming gradients holds a NaN."""
        raise NotImplementedError

    def answer(self, tensor_id: Any) -> list[Any]:
        """The `tensor_values` events answering a request for a tensor's values."""
        raise NotImplementedError

    def stop(self, cmd: dict[str, Any]) -> NoReturn:
        """End the run on a `stop` or `halt` command (raises the producer's exception)."""
        raise NotImplementedError

    # -- the stepping ---------------------------------------------------------------------
    def at_node(self, node: Any, bid: int, grads: Any) -> None:
        """Called as backward pass `bid` enters `node`: take pending commands, pause if asked."""
        if self.ctl is None:  # (nobody to say step: never pause)
            return
        why: PauseWhy | None = None
        cmd = self.ctl.poll()
        while cmd is not None:
            if cmd.get("type") == "pause":
                why = "pause"
            else:
                self.command(cmd)
            cmd = self.ctl.poll()
        if why is None:
            why = "step" if self.stepping else self.breakpoint(node, grads)
        if why is not None:
            self.pause(node, bid, why)

    def breakpoint(self, node: Any, grads: Any) -> PauseWhy | None:
        """Why a breakpoint stops the run before `node`, or None."""
        if not self.breakpoints:
            return None
        nid = self.node_id(node)
        line = self.node_line(nid)
        for bp in self.breakpoints:
            if bp.get("node_id") is not None and bp["node_id"] == nid:
                return "breakpoint"
            if bp.get("op") and bp["op"] == self.node_name(node):
                return "breakpoint"
            if bp.get("line") is not None and bp["line"] == line:
                return "breakpoint"
            if bp.get("on_nan") and self.has_nan(grads):
                return "nan"
        return None

    def pause(self, node: Any, bid: int, why: PauseWhy) -> None:
        """Emit `paused` before `node` and wait for `step` or `continue`."""
        host = self.host
        host.flush()  # (the events up to the node first, which describes it)
        event: Paused = {
            "type": "paused",
            "t": host.now(),
            "node": self.node_id(node),
            "backward": bid,
            "where": "before_node",
            "why": why,
        }
        host.emit(event)
        host.flush()
        self._wait()

    def _wait(self) -> None:
        assert self.ctl is not None
        while True:
            cmd = self.ctl.wait()
            kind = cmd.get("type")
            if kind == "step":
                self.stepping = True
                return
            if kind == "continue":
                self.stepping = False
                return
            self.command(cmd)
            self.host.flush()

    def command(self, cmd: dict[str, Any]) -> None:
        """Apply a command that neither steps nor continues."""
        kind = cmd.get("type")
        if kind in ("stop", "halt"):
            self.stop(cmd)
        if kind == "set_breakpoints":
            self.breakpoints = list(cmd.get("breakpoints") or [])
        elif kind == "tensor_values":
            for chunk in self.answer(cmd.get("tensor_id")):
                self.host.emit(chunk)  # (each chunk a batch, a frame, of its own)
                self.host.flush()

    def linger(self) -> None:
        """After the code: answer `tensor_values` until any other command arrives (a `halt`
        ends the run; anything else just ends the wait)."""
        if self.ctl is None:
            return
        host = self.host
        event: Paused = {
            "type": "paused",
            "t": host.now(),
            "node": None,
            "backward": None,
            "where": "end",
            "why": "finished",
        }
        host.emit(event)
        host.flush()
        while True:
            cmd = self.ctl.wait()
            kind = cmd.get("type")
            if kind == "halt":
                self.stop(cmd)
            if kind != "tensor_values":
                return
            self.command(cmd)
