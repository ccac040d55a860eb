"""Confining a step: what it can read and write, its network, its limits.

The checker proves that no caller value becomes syntax; this package holds
in case the proof missed something. `Sandbox` is the server's policy (its
``--sandbox`` mode and the folders no step may reach); it plans one
`Confinement` per step, which the runner enters in the thread that starts
the step (`started_confined`). `support` probes, once, what this kernel and
user allow; `explain_denial` turns what a stopped step printed into what
the sandbox did.
"""

from mcp_harbor.runner.sandbox.confinement import (
    CannotConfine,
    Confinement,
    release,
    started_confined,
)
from mcp_harbor.runner.sandbox.denial import explain_denial
from mcp_harbor.runner.sandbox.planner import SANDBOX_MODES, Sandbox, SandboxMode
from mcp_harbor.runner.sandbox.support import LAYERS, Support, support

__all__ = [
    "LAYERS",
    "SANDBOX_MODES",
    "CannotConfine",
    "Confinement",
    "Sandbox",
    "SandboxMode",
    "Support",
    "explain_denial",
    "release",
    "started_confined",
    "support",
]
