"""The defaults an operator can change, in one module with no imports of its
own, so that the command line shows them without loading the library: each
is used by the module it names (and re-exported there), and shown by the
option that overrides it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final, Literal

__all__ = [
    "DEFAULT_EXPORTS",
    "DEFAULT_KEEP_RUNS",
    "DEFAULT_LIST_TTL",
    "DEFAULT_OUTPUT_TAIL",
    "DEFAULT_PREFLIGHT_TTL",
    "DEFAULT_QUEUE_TIMEOUT",
    "DEFAULT_SANDBOX",
    "DEFAULT_TASK_TTL",
    "SANDBOX_MODES",
    "SandboxMode",
]

#: Where exports are read from when no folder is named (``--exports``).
DEFAULT_EXPORTS: Final = Path("exports")
#: Run directories kept; older ones are removed when a run starts
#: (`mcp_harbor.runctx.RunSettings.keep_runs`, ``--keep-runs``).
DEFAULT_KEEP_RUNS: Final = 100
#: Seconds a call waits for a free slot when its export sets no
#: ``queue_timeout`` (`RunSettings.queue_timeout`, ``--queue-timeout``).
DEFAULT_QUEUE_TIMEOUT: Final = 60.0
#: Seconds a durable task and its run directory are kept from its creation
#: (`mcp_harbor.server.tasks`, ``--task-ttl``; an export's ``task_ttl:``
#: may shorten it).
DEFAULT_TASK_TTL: Final = 3600.0
#: Bytes of the end of each step's stdout and stderr kept in a result
#: (`mcp_harbor.runner`, ``--output-tail``).
DEFAULT_OUTPUT_TAIL: Final = 8192
#: Seconds a probe of an export's needs is reused (`mcp_harbor.preflight`,
#: the most ``--preflight-interval`` may be).
DEFAULT_PREFLIGHT_TTL: Final = 30.0
#: Seconds a client may reuse a ``tools/list`` answer (its ``ttlMs``,
#: `mcp_harbor.server.build_server`, ``--list-ttl``).
DEFAULT_LIST_TTL: Final = 60.0
#: How steps are confined (`mcp_harbor.runner.sandbox.Sandbox`, ``--sandbox``).
SandboxMode = Literal["auto", "required", "off"]
SANDBOX_MODES: Final[tuple[SandboxMode, ...]] = ("auto", "required", "off")
DEFAULT_SANDBOX: Final[SandboxMode] = "auto"
