"""Who may call what: the ``allow:`` rules of an export.

An entry is a principal (matched exactly), ``group:NAME``, ``tenant:NAME``,
``scope:NAME`` (an OAuth access token granted that scope; a static token
has none) or ``*`` (every authenticated caller, the default). A caller that no entry
admits does not see the tool and cannot call it.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcp_harbor.identity import Caller

__all__ = ["DEFAULT_ALLOW", "is_allowed", "validate_entry"]

#: What an export without ``allow:`` admits.
DEFAULT_ALLOW: tuple[str, ...] = ("*",)


def validate_entry(entry: str) -> str | None:
    """Why `entry` is not a valid ``allow:`` entry, or None when it is."""
    if not entry or entry != entry.strip():
        return "an allow entry is a non-empty name without surrounding spaces"
    for prefix in ("group:", "tenant:", "scope:"):
        if entry.startswith(prefix) and not entry[len(prefix) :]:
            return f"{prefix!r} needs a name after it, e.g. {prefix}ops"
    return None


def is_allowed(caller: Caller, allow: Sequence[str]) -> bool:
    """Whether `caller` may see and call a tool with these ``allow:`` entries."""
    for entry in allow:
        if entry == "*":
            if caller.authenticated:
                return True
        elif entry.startswith("group:"):
            if entry[len("group:") :] in caller.groups:
                return True
        elif entry.startswith("tenant:"):
            if entry[len("tenant:") :] == caller.tenant:
                return True
        elif entry.startswith("scope:"):
            if entry[len("scope:") :] in caller.scopes:
                return True
        elif entry == caller.principal:
            return True
    return False
