"""The one status vocabulary: how a step, a run and a call end.

Every place that names an outcome takes it from here: the runner's step and
run results, the answer envelope (its ``status`` and ``finish_reason``, and
the enums of `ENVELOPE_SCHEMA`), the audit trail's records and the worker's
wire events. A call's status is the same word in its envelope and in its
audit record; the one exception is deliberate and documented at
`SHOWN_STATUS`: a caller is never told that a tool it may not call exists.

Three levels, each a superset of the one before:

- `StepStatus`: one step (``skipped`` when its ``if:`` or an earlier failure
  kept it from running);
- `RunStatus`: a pipeline that started (``worker_lost`` when the worker that
  ran it stopped renewing its lease; ``cancel_unconfirmed`` when the call was
  cancelled and the worker did not confirm in time that its processes are
  gone);
- `CallStatus`: a call, whatever happened: a run's status, ``output_invalid``
  (the run reached its goal but its payload broke ``output_schema``), or why
  nothing ran.

``finish_reason`` is derived from the status (`finish_reason_of`): the few
classes a client branches on.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

__all__ = [
    "CALL_STATUSES",
    "FINISH_REASONS",
    "NOTHING_RAN",
    "SHOWN_STATUS",
    "STEP_STATUSES",
    "CallStatus",
    "FinishReason",
    "RunStatus",
    "StepStatus",
    "finish_reason_of",
]

StepStatus = Literal["ok", "failed", "timeout", "cancelled", "skipped"]

RunStatus = Literal["ok", "failed", "timeout", "cancelled", "worker_lost", "cancel_unconfirmed"]

CallStatus = Literal[
    # a pipeline ran
    "ok",
    "failed",
    "timeout",
    "cancelled",
    "worker_lost",
    "cancel_unconfirmed",
    "output_invalid",
    # nothing ran
    "unknown",  # no such published tool
    "refused",  # the checker refused the export: not published
    "denied",  # not admitted by allow:
    "invalid",  # the arguments, caller memory or an attachment were refused
    "unavailable",  # what the export needs is missing (preflight)
    "busy",  # the queue timeout passed before a slot was free
    "rate_limited",  # the caller used up its budget of calls (rate_limit:, --rate-limit)
    "shutting_down",  # the server is stopping
    "store_unavailable",  # the start record could not be written
    "declined",  # a human did not approve (confirm:)
    "needs_input",  # waiting for the caller's answer to confirm:
    # audit records only
    "running",  # the start record, until its end record
    "interrupted",  # the server died mid-run; the next start closed the record
    "rejected",  # requests refused before any handler ran (per source and minute)
]

FinishReason = Literal[
    "goal", "failed", "timeout", "cancelled", "output_invalid", "declined", "refused", "needs_input"
]

STEP_STATUSES: Final[tuple[StepStatus, ...]] = get_args(StepStatus)
CALL_STATUSES: Final[tuple[CallStatus, ...]] = get_args(CallStatus)
FINISH_REASONS: Final[tuple[FinishReason, ...]] = get_args(FinishReason)

#: Statuses of calls where no command ran.
NOTHING_RAN: Final[frozenset[CallStatus]] = frozenset(
    {
        "unknown",
        "refused",
        "denied",
        "invalid",
        "unavailable",
        "busy",
        "rate_limited",
        "shutting_down",
        "store_unavailable",
        "declined",
        "needs_input",
    }
)

#: The status a caller is shown, where it differs from the recorded one: a
#: tool the checker refused, or one the caller may not call, is answered
#: exactly like a tool that does not exist (the audit trail keeps the truth).
SHOWN_STATUS: Final[dict[CallStatus, CallStatus]] = {"refused": "unknown", "denied": "unknown"}

_REASONS: Final[dict[CallStatus, FinishReason]] = {
    "ok": "goal",
    "failed": "failed",
    "worker_lost": "failed",
    "timeout": "timeout",
    "cancelled": "cancelled",
    "cancel_unconfirmed": "cancelled",
    "output_invalid": "output_invalid",
    "declined": "declined",
    "needs_input": "needs_input",
}


def finish_reason_of(status: CallStatus) -> FinishReason:
    """The finish reason of a call that ended with `status`: ``goal`` for
    ``ok``; ``refused`` for every status where nothing ran but ``declined``
    and ``needs_input``, which are their own."""
    return _REASONS.get(status, "refused")
