"""The skills directory (``--skills DIR``): operator-written know-how agents
may read.

Each skill is ``DIR/<name>/SKILL.md``: YAML front matter between ``---``
lines (``name``, ``title``, ``trigger``: when to read it, ``pinned``: always
listed first) and a Markdown body. An agent's system message holds an
index (pinned skills, then the ones this principal used most recently; at
most `INDEX_ENTRIES` entries and `INDEX_BYTES` bytes); the full text is
fetched with the read-only ``skill_get`` meta-tool, which is audited.

Skills are operator text and may instruct, unlike memory, which is data.
The directory is read when the server starts; a skill that cannot be read
or has no valid front matter is a `ConfigError` naming the file.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import yaml

from mcp_harbor.errors import ConfigError
from mcp_harbor.identity import Caller

__all__ = ["INDEX_BYTES", "INDEX_ENTRIES", "Skill", "SkillsDirectory"]

#: The most entries of an index.
INDEX_ENTRIES: Final = 20
#: The most bytes of an index (UTF-8).
INDEX_BYTES: Final = 2048
#: The most skills remembered as recently used, per principal.
_RECENT: Final = 50
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_FRONT = re.compile(r"\A---\r?\n(.*?)\r?\n---\r?\n?(.*)\Z", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Skill:
    """One skill: its front matter and its body."""

    name: str
    title: str
    trigger: str
    pinned: bool
    text: str
    path: Path

    def entry(self) -> str:
        """Its line of the index."""
        return f"- {self.name}: {self.title} (read it when: {self.trigger})"


def _one_line(value: object, what: str, path: Path) -> str:
    if not isinstance(value, str) or not value.strip() or "\n" in value.strip():
        raise ConfigError(f"{path}: front matter {what}: must be one line of text")
    return value.strip()


def read_skill(path: Path) -> Skill:
    """Read one SKILL.md.

    Raises:
        ConfigError: it cannot be read, has no front matter, or a key is
            missing or wrong; the message names the file.
    """
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the skill: {exc}") from None
    match = _FRONT.match(raw)
    if match is None:
        raise ConfigError(
            f"{path}: a skill starts with front matter between --- lines "
            f"(name:, title:, trigger:, optional pinned: true)"
        )
    try:
        front = yaml.safe_load(match.group(1))
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: the front matter is not YAML: {exc}") from None
    if not isinstance(front, dict):
        raise ConfigError(f"{path}: the front matter must be a mapping (name:, title:, trigger:)")
    unknown = sorted(set(front) - {"name", "title", "trigger", "pinned"})
    if unknown:
        raise ConfigError(
            f"{path}: unknown front matter key(s) {', '.join(unknown)}; "
            f"the keys are name, title, trigger, pinned"
        )
    name = _one_line(front.get("name"), "name", path)
    if not _NAME.match(name):
        raise ConfigError(f"{path}: name {name!r}: letters, digits, _ . - (at most 64)")
    if name != path.parent.name:
        raise ConfigError(
            f"{path}: name {name!r} differs from its folder {path.parent.name!r}; make them equal"
        )
    pinned = front.get("pinned", False)
    if not isinstance(pinned, bool):
        raise ConfigError(f"{path}: pinned: must be true or false")
    return Skill(
        name=name,
        title=_one_line(front.get("title"), "title", path),
        trigger=_one_line(front.get("trigger"), "trigger", path),
        pinned=pinned,
        text=match.group(2).strip() + "\n",
        path=path,
    )


class SkillsDirectory:
    """The skills of one directory, read once, and who used which lately
    (kept in this process: a restart forgets it; the audit keeps every
    ``skill_get``). Thread-safe."""

    def __init__(self, root: Path) -> None:
        """Raises:
        ConfigError: `root` is not a directory, or a skill is invalid."""
        if not root.is_dir():
            raise ConfigError(f"--skills {root}: not a directory (DIR/<name>/SKILL.md)")
        skills = [read_skill(p) for p in sorted(root.glob("*/SKILL.md"))]
        self.root = root
        self.skills: dict[str, Skill] = {s.name: s for s in skills}
        self._recent: dict[tuple[str, str], OrderedDict[str, None]] = {}
        self._lock = threading.Lock()

    def index(self, caller: Caller) -> str | None:
        """The index for `caller` (None: there are no skills): pinned skills
        (by name), then `caller`'s recently used ones, newest first."""
        if not self.skills:
            return None
        with self._lock:
            recent = list(reversed(self._recent.get((caller.tenant, caller.principal), {})))
        order = [s.name for s in self.skills.values() if s.pinned]
        order += [n for n in recent if n in self.skills and n not in order]
        order += [n for n in sorted(self.skills) if n not in order]
        lines = ["Skills (read one with the skill_get tool when its trigger applies):"]
        size = len(lines[0].encode())
        for name in order[:INDEX_ENTRIES]:
            line = self.skills[name].entry()
            if size + len(line.encode()) + 1 > INDEX_BYTES:
                break
            lines.append(line)
            size += len(line.encode()) + 1
        return "\n".join(lines)

    def get(self, name: str, caller: Caller) -> str | None:
        """The full text of skill `name` (None: no such skill); remembered
        as used by `caller`."""
        skill = self.skills.get(name)
        if skill is None:
            return None
        with self._lock:
            used = self._recent.setdefault((caller.tenant, caller.principal), OrderedDict())
            used.pop(name, None)
            used[name] = None
            while len(used) > _RECENT:
                used.popitem(last=False)
        return skill.text
