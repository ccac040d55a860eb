"""Remote execution (``runs_on:``): the wire protocol, the executor, the worker, the sweeper.

An export with ``runs_on: <label>`` runs on a worker of that label, through
Celery and Redis. Celery carries only the dispatch: one task
(`TASK_NAME`) per run, on the queue ``runs_on.<label>``, with the run id as
the task id. Everything else is mcp-harbor's own (docs/scale-out.md,
*Workers*)::

    replica (CeleryExecutor)                               worker (Worker)
    RunMessage.from_request ── Celery task on runs_on.<label> ──▶ RunMessage.decode,
                                                                  the content hash checked,
                                                                  the lease claimed,
                                                                  LocalExecutor on
                                                                  RunMessage.to_request
    follows (XREAD) ◀──── stream harbor:run:<id>:ev ─────────── started, step_started,
                          one Entry per stream entry             output, step_progress,
                                                                 step_finished,
                                                                 then result | cancelled
                                                                 | refused
    cancel (SET + PUBLISH) ── key and channel harbor:run:<id>:cancel ──▶ killpg, reaped,
                                                                          then cancelled
    Sweeper ── lost | redispatched into the stream, when a lease expired

- **progress and output**: the worker appends `Entry` objects to the run's
  Redis Stream ``harbor:run:<id>:ev``; `CeleryExecutor` follows it and hands
  each event to the call's observer;
- **cancel**: the key ``harbor:run:<id>:cancel`` plus a message on the channel
  of the same name; the worker stops the run's process groups and answers
  ``cancelled``. A cancel the worker does not confirm within the executor's
  ``cancel_wait`` raises `mcp_harbor.errors.CancelUnconfirmed`;
- **timeout**: judged by the worker from the run's boundary
  (`RunRequest.boundary`, sent as Unix times ``started_at`` and
  ``deadline_at``), exactly as a local run; Celery's ``time_limit`` is only a
  backstop;
- **worker loss**: a lease in the store, renewed by the worker; `Sweeper`
  writes a ``lost`` entry when it expires, or re-sends the run's kept message
  (``harbor:run:<id>:task``) when the export says ``redispatch: true``;
  `kill_recorded` kills what a worker that died with its reaper left.

The worker runs `LocalExecutor` on the `RunRequest` rebuilt from the message
and on the context.json the composer wrote (its exact bytes travel along).

Modules: `wire` (the protocol: the message, the entries and their events,
the names Redis and Celery see; the event classes are imported from there),
`celery_app`, `kombu_redis` (the broker transport), `executor`, `worker`,
`sweeper`, `ledger`.
"""

from mcp_harbor.remote.celery_app import DEFAULT_VISIBILITY_MARGIN, create_app
from mcp_harbor.remote.executor import CANCEL_WAIT, CeleryExecutor
from mcp_harbor.remote.ledger import kill_recorded
from mcp_harbor.remote.sweeper import DEFAULT_SWEEP_INTERVAL, Sweeper
from mcp_harbor.remote.wire import (
    PROTOCOL_VERSION,
    TASK_NAME,
    Entry,
    Event,
    RunMessage,
    queue_name,
)
from mcp_harbor.remote.worker import DEFAULT_LEASE, Worker

__all__ = [
    "CANCEL_WAIT",
    "DEFAULT_LEASE",
    "DEFAULT_SWEEP_INTERVAL",
    "DEFAULT_VISIBILITY_MARGIN",
    "PROTOCOL_VERSION",
    "TASK_NAME",
    "CeleryExecutor",
    "Entry",
    "Event",
    "RunMessage",
    "Sweeper",
    "Worker",
    "create_app",
    "kill_recorded",
    "queue_name",
]
