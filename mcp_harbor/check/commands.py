"""The programs an export's steps run, read off the same parse the checker
uses (`mcp_harbor.check._tree.parsed`: one parse and walk of each script,
shared with the analysis): the literal command words of every ``run:``
script (nested ``sh -c`` scripts are not followed) and the literal
``argv[0]`` of every ``argv:`` step, and those of the export's custom tools
(``tools:``), which its agents may call in any run. An ``agent:`` step runs
no program itself.

Shell keywords, builtins and functions the script defines are not programs.
A command word that is not literal (a placeholder, ``$VAR``) names no
program that preflight could check; the checker decides whether it is safe.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tree_sitter import Node

from mcp_harbor.check._facts import arg_models, export_scripts
from mcp_harbor.check._tree import parsed
from mcp_harbor.config import Export

__all__ = ["BASH_BUILTINS", "ProgramUse", "clear_cache", "programs_of"]

#: What bash runs without looking on PATH (``compgen -b`` and ``compgen -k`` of bash 5.2).
BASH_BUILTINS = frozenset(
    [
        ".",
        ":",
        "[",
        "alias",
        "bg",
        "bind",
        "break",
        "builtin",
        "caller",
        "cd",
        "command",
        "compgen",
        "complete",
        "compopt",
        "continue",
        "declare",
        "dirs",
        "disown",
        "echo",
        "enable",
        "eval",
        "exec",
        "exit",
        "export",
        "false",
        "fc",
        "fg",
        "getopts",
        "hash",
        "help",
        "history",
        "jobs",
        "kill",
        "let",
        "local",
        "logout",
        "mapfile",
        "popd",
        "printf",
        "pushd",
        "pwd",
        "read",
        "readarray",
        "readonly",
        "return",
        "set",
        "shift",
        "shopt",
        "source",
        "suspend",
        "test",
        "times",
        "trap",
        "true",
        "type",
        "typeset",
        "ulimit",
        "umask",
        "unalias",
        "unset",
        "wait",
        "if",
        "then",
        "else",
        "elif",
        "fi",
        "case",
        "esac",
        "for",
        "select",
        "while",
        "until",
        "do",
        "done",
        "in",
        "function",
        "time",
        "coproc",
        "!",
        "[[",
        "]]",
        "{",
        "}",
    ]
)


@dataclass(frozen=True, slots=True)
class ProgramUse:
    """A program a step runs, and where (step name, line in the export file)."""

    program: str
    step: str
    line: int


_SENTINEL = re.compile(r"hbSENT\d+x")


def _static_word(src: bytes, node: Node) -> str | None:
    if node.type == "word":
        text = src[node.start_byte : node.end_byte].decode("utf-8", "replace")
        return text if "\\" not in text else None
    if node.type == "raw_string":
        return src[node.start_byte + 1 : node.end_byte - 1].decode("utf-8", "replace")
    if node.type == "string" and all(c.type == '"' for c in node.children):
        return src[node.start_byte + 1 : node.end_byte - 1].decode("utf-8", "replace")
    if (
        node.type == "string"
        and len(node.children) == 3
        and node.children[1].type == "string_content"
    ):
        return src[node.start_byte + 1 : node.end_byte - 1].decode("utf-8", "replace")
    return None


def _script_programs(text: str) -> Iterator[tuple[str, int]]:
    script = parsed(text)
    src = script.src
    for node, _words in script.commands():
        name = node.child_by_field_name("name")
        if name is None or not name.children:
            continue
        word = _static_word(src, name.children[0])
        if word is None or word in BASH_BUILTINS or word in script.functions or "\x00" in word:
            continue
        if _SENTINEL.search(word):
            continue  # a caller value in command position: the checker's matter
        yield word, name.start_point[0]


#: programs_of results by export content hash and path (kept across starts by
#: `mcp_harbor.check.cachefile`, like the checker's reports).
_cache: dict[str, tuple[ProgramUse, ...]] = {}


def clear_cache() -> None:
    """Forget every `programs_of` result (benchmarks, tests)."""
    _cache.clear()


def programs_of(export: Export, scripts: Sequence[str] | None = None) -> list[ProgramUse]:
    """Every literal program the export's steps (hooks included) and its
    custom tools run (a custom tool's as step ``tools.KEY``, on its line
    in the file). Cached by the export's content hash and path. `scripts`: the export's
    ``run:`` scripts as the checker substituted them, in step order, when
    the caller has them already."""
    key = f"{export.content_hash}:{export.path}"
    cached = _cache.get(key)
    if cached is None:
        cached = _cache[key] = tuple(_programs_of(export, scripts))
    return list(cached)


def _programs_of(export: Export, scripts: Sequence[str] | None) -> list[ProgramUse]:
    if scripts is None:
        scripts = [text for text, _ in export_scripts(export, arg_models(export))]
    texts = iter(scripts)
    uses: list[ProgramUse] = []
    for step in export.all_steps:
        if step.script is not None:
            text = next(texts)
            base_line, _col = export.locate_text((*step.where, "run"))
            first = base_line  # locate() already points at the script's first line
            for word, row in _script_programs(text):
                uses.append(ProgramUse(word, step.name, first + row))
        elif step.argv is not None and step.argv[0].is_literal:
            line, _ = export.locate_text((*step.where, "argv", 0))
            uses.append(ProgramUse(step.argv[0].text, step.name, line))
        # an agent: step runs no program itself (its tools are their own exports)
    for key, tool in export.tools.items():
        # the model can call a custom tool in any run: its programs are this export's
        uses.extend(
            ProgramUse(use.program, f"tools.{key}", use.line) for use in _programs_of(tool, None)
        )
    return uses
