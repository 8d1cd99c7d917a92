"""The fields every event carries."""

from typing import NotRequired, TypedDict


class EventBase(TypedDict):
    """`t`: ns since the run started. `run_id` and `seq` (dense from 0 per run) are set by the
    server when it logs the event: a producer in the worker leaves them out, and whatever a
    worker puts there is overridden. On the wire (and in protocol.ts) they are always set."""

    t: int
    run_id: NotRequired[str]
    seq: NotRequired[int]
