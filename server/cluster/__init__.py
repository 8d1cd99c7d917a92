"""Beyond one machine: app replicas queue runs for runner services through PostgreSQL, and
follow any run from the shared store (see DESIGN.md, "Scale-out").

The mechanism is PostgreSQL alone, the database the runs are stored in anyway:
- a job table is the queue (`run_jobs`); a runner claims jobs with
  `SELECT ... FOR UPDATE SKIP LOCKED`, so two runners never take the same job and a waiting
  one never blocks on another's claim (queue.py);
- LISTEN/NOTIFY carries "run X is stored up to seq N", owner commands and "a job is queued"
  (bus.py); a missed notification costs a poll interval, never an event, because readers
  always read the store itself;
- a runner heartbeats into `runners`; whoever notices a dead runner (another runner, a
  replica) ends its runs `interrupted` with what was stored (orphans.py).

>>> manager = ReplicaManager(store, settings)          # an app replica (BACKSCOPE_RUNNERS=queue)
>>> run = manager.start(code, options, owner)           # queued; events come from the store
>>> await serve_runner(settings, slots=2, stop=event)  # `backscope runner`
"""

from server.cluster.replica import ReplicaManager
from server.cluster.runner import serve_runner

__all__ = ["ReplicaManager", "serve_runner"]
