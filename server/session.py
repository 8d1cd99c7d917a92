"""One websocket connection: a small state machine over the protocol's typed commands.

idle --run--> controlling (its own run) --(the run's log all sent)--> idle
idle --resume--> controlling (a live run of the same owner) or watching (anyone else's run,
a stored run: a share link is a read-only replay, or a live read-only follow)
any --close--> closed

Only the run's owner (the same owner token, or the same authenticated user) may step,
continue, pause, stop, set breakpoints, ask for values or replace it; anyone else gets a
typed `read_only` error. Events go out through the socket's Sender (feeds.py).
"""

from __future__ import annotations

import asyncio
import logging
from typing import cast

from protocol import (
    CommandError as CommandErrorEvent,
)
from protocol import (
    ContinueCommand,
    PauseCommand,
    ResumeCommand,
    RunCommand,
    SetBreakpointsCommand,
    StepCommand,
    StopCommand,
    TensorValuesCommand,
)
from server.feeds import Cursor, Sender
from server.limits import ClientLimits
from server.runs import LiveRun, Runs, ShuttingDown
from server.state import SESSION_MOVES, Machine, RunState, SessionState
from server.storage import RunStore
from server.trust.identity import Identity

_log = logging.getLogger(__name__)
_STOPPING: set[asyncio.Task[None]] = set()  # strong refs until the stop completes
MAX_RUN_ID = 64  # longer ids name no run (ids are 24 characters)

Command = (
    RunCommand
    | StepCommand
    | ContinueCommand
    | PauseCommand
    | StopCommand
    | SetBreakpointsCommand
    | ResumeCommand
    | TensorValuesCommand
)
RunControl = (
    StepCommand
    | ContinueCommand
    | PauseCommand
    | StopCommand
    | SetBreakpointsCommand
    | TensorValuesCommand
)


def error_event(code: str, message: str, raw: str | None = None) -> CommandErrorEvent:
    """A typed `command_error` reply (not part of any run's log: seq -1)."""
    return {
        "type": "command_error",
        "run_id": "",
        "seq": -1,
        "t": 0,
        "message": f"{code}: {message}",
        "raw": raw,
    }


def parse(raw: str | bytes) -> Command:
    """A validated command, defaults filled in; ValueError (the protocol's ProtocolError)
    with the reason otherwise."""
    from protocol.check import parse_command

    return cast(Command, parse_command(raw))


class Session:
    """The server side of one websocket."""

    def __init__(
        self,
        manager: Runs,
        store: RunStore,
        sender: Sender,
        identity: Identity,
        limits: ClientLimits,
        grace_s: float,
        poll_s: float = 2.0,
    ) -> None:
        self.manager = manager
        self.store = store
        self.out = sender
        self.identity = identity
        self.limits = limits
        self.grace_s = grace_s
        self.poll_s = poll_s
        self.machine: Machine[SessionState] = Machine(SessionState.IDLE, SESSION_MOVES, "session")
        self.run: LiveRun | None = None  # the run this session controls (its owner's)
        self.watched: str | None = None  # the run it follows read-only

    @property
    def state(self) -> SessionState:
        return self.machine.state

    def reply(self, code: str, message: str, raw: str | None = None) -> None:
        self.out.reply([error_event(code, message, raw)])

    def feed_ended(self, cursor: Cursor) -> None:
        """The followed log was all sent (the run finished): nothing to control any more."""
        if self.out.feed is None and self.state is not SessionState.CLOSED:
            self._let_go()
            self.machine.move(SessionState.IDLE)

    async def handle(self, raw: str) -> None:
        """Dispatch one incoming frame (already known to be text)."""
        try:
            cmd = parse(raw)
        except ValueError as exc:
            self.reply("bad_command", str(exc), raw[:1000])
            return
        try:
            await self._dispatch(cmd)
        except ShuttingDown as exc:
            self.reply("shutting_down", str(exc))
        except ValueError as exc:  # refused by the run (e.g. too many commands pending)
            self.reply("refused", str(exc))
        except Exception as exc:  # one bad command must not end the connection
            _log.exception("command %r failed", cmd["type"])
            self.reply("internal_error", f"{type(exc).__name__}: {exc}")

    async def _dispatch(self, cmd: Command) -> None:
        if cmd["type"] == "run":
            await self._run(cmd)
        elif cmd["type"] == "resume":
            await self._resume(cmd)
        else:  # the rest of the union: commands to the session's run
            await self._control(cmd)

    async def _control(self, cmd: RunControl) -> None:
        kind = cmd["type"]
        named = cmd.get("run_id")
        run = self.run
        if run is None or run.done.is_set():
            if self.watched is not None and named in (None, self.watched):
                message = (
                    f"run {self.watched} belongs to another client: this connection may "
                    f"watch it, not {kind} it"
                )
                self.reply("read_only", message)
            else:
                self.reply("no_active_run", f"'{kind}' needs a running run")
            return
        if named not in (None, run.id):
            # never act on this session's run when the client meant another one
            self.reply("wrong_run", f"'{kind}' names run {named!r}; this session has {run.id!r}")
            return
        if not run.owned_by(self.identity.owner):  # (a session controls its owner's runs)
            self.reply("read_only", f"run {run.id} belongs to another client")
            return
        if cmd["type"] == "stop":
            await run.stop("killed")
        else:
            await run.command(dict(cmd))

    async def _run(self, cmd: RunCommand) -> None:
        active = self.run
        if active is not None and not active.done.is_set() and active.stop_requested is None:
            if not cmd.get("replace"):
                self.reply(
                    "busy",
                    f"run {active.id} is still active in this session; stop it first "
                    "(or send run with replace=true)",
                )
                return
            await active.stop("killed")
        if not self.limits.allow_run(self.identity.quota, self.identity.address):
            self.reply("rate_limited", "too many runs; wait a moment")
            return
        options = dict(cmd.get("options") or {})
        run = self.manager.start(cmd["code"], options, self.identity.owner, self.identity.quota)
        self._let_go()
        self.run = run
        self.watched = None
        run.controllers.add(self)
        # the run just replaced (stopped) is still sent to its end, then the new one
        self.out.follow(self._cursor(run.id, -1), after_current=active is not None)
        self.machine.move(SessionState.CONTROLLING)

    async def _resume(self, cmd: ResumeCommand) -> None:
        run_id, after = cmd["run_id"], cmd.get("after_seq", -1)
        live = await self.manager.lookup(run_id) if len(run_id) <= MAX_RUN_ID else None
        if live is not None and live.state is not RunState.ARCHIVED:
            self._let_go()
            if live.owned_by(self.identity.owner):
                self.run, self.watched = live, None
                live.controllers.add(self)
                self.machine.move(SessionState.CONTROLLING)
            else:
                self.run, self.watched = None, live.id
                live.shared = True
                self.machine.move(SessionState.WATCHING)
            self.out.follow(self._cursor(run_id, after))
            return
        row = None
        if len(run_id) <= MAX_RUN_ID:
            row = await asyncio.to_thread(self.store.get, run_id)
        if row is None:
            self.reply("unknown_run", f"no run with id {run_id[:MAX_RUN_ID]!r}")
            return
        if row.owner != self.identity.owner and not row.shared:
            await asyncio.to_thread(self.store.mark_shared, run_id)
        self._let_go()
        self.run, self.watched = None, run_id
        self.machine.move(SessionState.WATCHING)
        self.out.follow(self._cursor(run_id, after))

    def _cursor(self, run_id: str, after: int) -> Cursor:
        return Cursor(self.manager, self.store, run_id, after, poll_s=self.poll_s)

    def _let_go(self) -> None:
        """Stop controlling this session's run; with no owner's session left, it is stopped
        after the grace period (a dropped client may come back with `resume` before)."""
        run, self.run = self.run, None
        if run is None:
            return
        run.controllers.discard(self)
        if run.controllers or run.done.is_set() or not run.detach_stops:
            return
        loop = asyncio.get_running_loop()

        def maybe_stop() -> None:
            if not run.controllers and not run.done.is_set():
                task = loop.create_task(run.stop("killed"))
                _STOPPING.add(task)
                task.add_done_callback(_STOPPING.discard)

        loop.call_later(self.grace_s, maybe_stop)

    async def close(self) -> None:
        """The client went away."""
        self._let_go()
        if self.state is not SessionState.CLOSED:
            self.machine.move(SessionState.CLOSED)
        await self.out.close()
