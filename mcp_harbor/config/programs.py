"""Program grammars: an export's own ``programs:`` and the server-wide
``--programs FILE``.

An operator declares how an in-house program reads its arguments (which
options take a value, which are flags, whether ``--`` ends the options,
whether it runs any operand as code) so that the checker can trust exactly
that far. Each loaded `Export` carries ``programs``: the server-wide
grammars with the export's own on top (the export file's entry wins for
that export).

The server-wide grammars are a process-wide setting (`set_server_programs`,
done by the CLI from ``--programs FILE``) because every load goes through
`load_export`: the checker's ``load_and_check``, ``serve --watch``'s reloads
and the commands that publish. An explicit ``programs=`` argument of
`load_export`/`load_exports` beats it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

import pydantic

from mcp_harbor.config._problems import pydantic_problem
from mcp_harbor.config.canonical import canonical_json
from mcp_harbor.config.model import ProgramGrammar, ProgramsFileSpec
from mcp_harbor.config.yaml_source import read_yaml
from mcp_harbor.errors import ConfigError

__all__ = [
    "effective_programs",
    "grammar_for",
    "load_programs_file",
    "programs_content_hash",
    "server_programs",
    "set_server_programs",
]

_server_wide: dict[str, ProgramGrammar] = {}


def set_server_programs(programs: Mapping[str, ProgramGrammar]) -> dict[str, ProgramGrammar]:
    """Make `programs` the server-wide grammars that every later load in
    this process attaches (unless a load is given ``programs=``). Returns
    the previous ones (to restore them)."""
    global _server_wide
    previous, _server_wide = _server_wide, dict(programs)
    return previous


def server_programs() -> Mapping[str, ProgramGrammar]:
    """The server-wide grammars (`set_server_programs`; none by default)."""
    return _server_wide


def effective_programs(
    own: Mapping[str, ProgramGrammar], server_wide: Mapping[str, ProgramGrammar]
) -> dict[str, ProgramGrammar]:
    """The grammars that hold for one export: the server-wide ones, with the
    export's `own` replacing any of the same name (whole entries: the two
    are not merged key by key)."""
    return {**server_wide, **own}


def programs_content_hash(
    file_hash: str,
    own: Mapping[str, ProgramGrammar],
    server_wide: Mapping[str, ProgramGrammar],
) -> str:
    """An export's content hash: its file's SHA-256 (`file_hash`, which
    already covers its own ``programs:``) when no server-wide grammar
    applies to it, else a SHA-256 over the file's hash and the server-wide
    grammars it inherits, so that a verdict cached for one set of grammars
    is never reused for another."""
    inherited = {name: g for name, g in server_wide.items() if name not in own}
    if not inherited:
        return file_hash
    text = canonical_json(
        {name: grammar.model_dump(mode="json") for name, grammar in sorted(inherited.items())}
    )
    assert text is not None  # model_dump(mode="json") is plain JSON data
    digest = hashlib.sha256(b"mcp-harbor export with server-wide programs\x00")
    digest.update(file_hash.encode("ascii") + b"\x00" + text.encode("utf-8"))
    return digest.hexdigest()


def grammar_for(programs: Mapping[str, ProgramGrammar], command_word: str) -> ProgramGrammar | None:
    """The grammar of the program that `command_word` (as written in the
    command) runs: the entry of that exact word (``deploy-tool``,
    ``./scripts/deploy.sh``), else, for a word with a ``/``, the entry of
    its basename when that entry is a bare name (``/opt/bin/deploy-tool``
    -> ``deploy-tool``)."""
    found = programs.get(command_word)
    if found is not None or "/" not in command_word:
        return found
    base = command_word.rsplit("/", 1)[1]
    return programs.get(base) if base else None


def _model_for(loc: tuple[str | int, ...]) -> type[pydantic.BaseModel] | None:
    if len(loc) == 1:
        return ProgramsFileSpec
    if len(loc) == 3 and loc[0] == "programs":
        return ProgramGrammar
    return None


def load_programs_file(path: Path) -> dict[str, ProgramGrammar]:
    """Load a server-wide programs file (``--programs FILE``): a YAML mapping
    with one key, ``programs:``, of program name -> grammar, validated as an
    export's ``programs:`` is.

    Raises:
        ConfigError: with one message per problem, each naming file and line.
    """
    data, smap, _raw = read_yaml(path, kind="programs")
    try:
        spec = ProgramsFileSpec.model_validate(data)
    except pydantic.ValidationError as exc:
        problems = [pydantic_problem(path, smap, e, _model_for) for e in exc.errors()]
        raise ConfigError("\n".join(problems), problems) from None
    return dict(spec.programs)
