"""Which source answers a model name for one run: the pin.

Decided once, at the run's start (the run boundary), from preflight's
verdicts: the primary when it is ready, else the fallback. Every turn of the
run uses it; a pinned source that fails mid-run fails that turn (models are
never switched mid-conversation).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from mcp_harbor.llm.turn import ModelSource

__all__ = ["Pin"]


@dataclass(frozen=True, slots=True)
class Pin:
    """Model `name` is answered by `source` (its `role` in the models file)
    for this run. `judged_at` is when its readiness was judged (UTC);
    `reason` says why the primary was passed over (None: it was ready)."""

    name: str
    role: Literal["primary", "fallback"]
    source: ModelSource
    judged_at: str
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.role,
            "endpoint": self.source.endpoint,
            "model": self.source.model,
            "judged_at": self.judged_at,
            "reason": self.reason,
        }
