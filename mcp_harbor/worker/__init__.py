"""The worker side of ``runs_on:`` and the replicas' lease sweeper.

`Worker` runs the one Celery task (`mcp_harbor.runner.remote.TASK_NAME`):
it checks the export against the server's content hash, claims the run's
lease, and runs `LocalExecutor` on the `RunRequest` rebuilt from the message,
writing step events and output lines to the run's Redis Stream, while it
watches for a cancel and renews the lease. `Sweeper` (in ``serve``) marks
runs whose lease expired as ``worker_lost``, or re-dispatches them when the
export says ``redispatch: true``.
"""

from __future__ import annotations

from mcp_harbor.worker.sweeper import Sweeper
from mcp_harbor.worker.task import Worker

__all__ = ["Sweeper", "Worker"]
