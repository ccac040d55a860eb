"""Pydantic's validation errors as messages that name the file and line."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pydantic

from mcp_harbor.config.model import FLAG_PATTERN, OPTION_PATTERN, PROGRAM_NAME_PATTERN
from mcp_harbor.config.yaml_source import SourceMap

__all__ = ["ModelFor", "dotted", "pydantic_problem"]

#: The model whose keys are valid at a key path (for "did you mean" hints).
ModelFor = Callable[[tuple[str | int, ...]], type[pydantic.BaseModel] | None]


def dotted(loc: tuple[str | int, ...]) -> str:
    """A key path as ``a.b[0].c``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def pydantic_problem(path: Path, smap: SourceMap, err: Any, model_for: ModelFor) -> str:
    """One message for one of pydantic's errors: ``FILE:LINE: what and the fix``."""
    loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and "[" in p))
    # Drop pydantic's union/constraint tags such as "function-after[...]".
    line = smap.line_of(loc)
    kind = err["type"]
    where = dotted(loc) or "(top level)"
    if kind == "extra_forbidden":
        key = str(loc[-1])
        model = model_for(loc)
        hint = ""
        if model is not None:
            names = [f.alias or n for n, f in model.model_fields.items()]
            close = difflib.get_close_matches(key, names, n=1)
            allowed = ", ".join(names)
            hint = f" (did you mean {close[0]!r}?)" if close else f"; known keys: {allowed}"
        return f"{path}:{line}: unknown key {key!r} at {where}{hint}"
    if kind == "missing":
        return f"{path}:{line}: missing required key {where!r}; add it"
    if kind == "string_pattern_mismatch":
        pattern = err.get("ctx", {}).get("pattern", "")
        if pattern in (OPTION_PATTERN, FLAG_PATTERN):
            return (
                f"{path}:{line}: {where}: {err['input']!r} is not an option; write it as -x, "
                f"--long or -long, without a value, a space or = (`--` itself is end_of_options)"
            )
        if pattern == PROGRAM_NAME_PATTERN:
            return (
                f"{path}:{line}: {where}: {err['input']!r} is not a program name; use the "
                f"command word's basename (deploy-tool) or a path (./scripts/deploy.sh), "
                f"matching {pattern}"
            )
        return (
            f"{path}:{line}: {where}: {err['input']!r} is not a valid name; it must match {pattern}"
        )
    message = err["msg"]
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    shown = repr(err["input"])
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return f"{path}:{line}: {where}: {message} (got {shown})"
