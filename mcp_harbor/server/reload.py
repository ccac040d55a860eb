"""Live reload (``serve --watch``) and telling clients the tool list changed.

When export files change (and every `preflight_interval` seconds, since a
need can appear or vanish without a file changing), every new or changed
file is loaded and checked first, and each export's needs are probed: one
whose needs are missing is not offered until they are there. A file that
fails to load or that the checker refuses keeps its last good version
(logged loudly), or stays unpublished if it never had one. The new registry
is swapped in whole: a running call finishes on the version it started
with. Each of these is logged once per change: a file that still fails as
it did, or an export still missing the same needs, is not logged again at
the next round. Then clients are told with ``notifications/tools/list_changed``:
2026-07-28 clients on their ``subscriptions/listen`` streams, handshake-era
sessions on their connection.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import anyio
from mcp.server import ServerRequestContext
from mcp.server.subscriptions import InMemorySubscriptionBus, ToolsListChanged

from mcp_harbor.check import cachefile, check_export
from mcp_harbor.config import Export, discover_files, load_export
from mcp_harbor.errors import ConfigError
from mcp_harbor.preflight import Preflight
from mcp_harbor.server.handlers import Handlers
from mcp_harbor.server.registry import Registry

__all__ = ["ListChangedNotifier", "Reloader"]

log = logging.getLogger("mcp_harbor.reload")


class ListChangedNotifier:
    """Sends ``notifications/tools/list_changed`` to every connected client.

    As a server middleware it remembers each handshake-era session that can
    receive server messages (registered once, on ``initialize``); a session
    whose send fails is forgotten. 2026-07-28 clients are reached through the
    subscription `bus` that ``subscriptions/listen`` serves.
    """

    def __init__(self) -> None:
        self.bus = InMemorySubscriptionBus()
        self._sessions: list[Any] = []

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        result = await call_next(ctx)
        if ctx.method == "initialize" and getattr(ctx.session, "can_send_request", False):
            self._sessions.append(ctx.session)
        return result

    async def tools_changed(self) -> None:
        await self.bus.publish(ToolsListChanged())
        for session in list(self._sessions):
            try:
                await session.send_tool_list_changed()
            except Exception:  # noqa: BLE001 - a closed session: forget it
                self._sessions.remove(session)


def _fingerprint(registry: Registry) -> list[tuple[str, str]]:
    return sorted((name, entry.export.content_hash) for name, entry in registry.items())


class Reloader:
    """Watches the export folders and swaps the handlers' registry."""

    def __init__(
        self,
        paths: Sequence[Path],
        handlers: Handlers,
        notifier: ListChangedNotifier,
        exports: Sequence[Export],
        *,
        strict: bool = False,
        preflight: Preflight | None = None,
        preflight_interval: float = 30.0,
        refused: Mapping[Path, str] | None = None,
        unoffered: Mapping[str, str] | None = None,
    ) -> None:
        self.paths = list(paths)
        self.handlers = handlers
        self.notifier = notifier
        self.strict = strict
        self.preflight = preflight
        self.preflight_interval = preflight_interval
        self._good: dict[Path, Export] = {e.path.resolve(): e for e in exports}
        # What was said already, so that a round says only what changed: the
        # files that failed to load or were refused (path -> SHA-256 of the
        # content that failed), and the exports not offered for their needs
        # (name -> why). `refused` and `unoffered`: what the start said.
        self._failed: dict[Path, str] = dict(refused or {})
        self._unoffered: dict[str, str] = dict(unoffered or {})
        self._twice: set[tuple[Path, str]] = set()  # files declaring a name taken (and as what)

    def _load(self, path: Path) -> Export | None:
        """The file's export if it loads and is accepted, else None (logged)."""
        try:
            export = load_export(path)
        except ConfigError as exc:
            log.error(
                "reload: %s is invalid; %s:\n%s",
                path,
                "keeping its last good version" if path in self._good else "not publishing it",
                "\n".join(f"  {p}" for p in exc.problems),
            )
            return None
        report = check_export(export)
        if report.refused_under(self.strict):
            reasons = "\n".join(f"  {f.message}" for f in report.findings)
            log.error(
                "reload: the checker refused %s; %s:\n%s",
                export.name,
                "keeping its last good version" if path in self._good else "not publishing it",
                reasons,
            )
            return None
        return export

    async def reload(self) -> bool:
        """Re-read every export file; swap and notify if the tool set changed.
        Returns whether it changed."""
        try:
            files = [p.resolve() for p in discover_files(self.paths)]
        except ConfigError as exc:
            log.error("reload: %s; keeping the current tools", exc)
            return False
        current: dict[Path, Export] = {}
        failed: dict[Path, str] = {}
        checked = False
        for path in files:
            known = self._good.get(path)
            try:
                raw = path.read_bytes()
            except OSError:
                continue
            digest = hashlib.sha256(raw).hexdigest()
            if known is not None and digest == known.file_hash:
                current[path] = known
                continue
            if self._failed.get(path) != digest:  # new or changed: load it (and say why not)
                loaded = await anyio.to_thread.run_sync(self._load, path)
                checked = True
            else:  # failed as it is now, and said so: not again
                loaded = None
            if loaded is not None:
                current[path] = loaded
            else:
                failed[path] = digest
                if known is not None:
                    current[path] = known
        self._failed = failed
        if checked:  # keep the new verdicts for the next start
            await anyio.to_thread.run_sync(cachefile.save)
        by_name: dict[str, Export] = {}
        twice: set[tuple[Path, str]] = set()
        for path, export in sorted(current.items()):
            other = by_name.get(export.name)
            if other is not None:
                twice.add((path, export.content_hash))
                if (path, export.content_hash) not in self._twice:
                    log.error(
                        "reload: %s declares tool %r, already declared by %s; not publishing it",
                        path,
                        export.name,
                        other.path,
                    )
                continue
            by_name[export.name] = export
        self._twice = twice
        offered = list(by_name.values())
        if self.preflight is not None:
            verdicts = await anyio.to_thread.run_sync(
                lambda: self.preflight.verdicts(offered, force=True)  # type: ignore[union-attr]
            )
            offered = []
            unoffered: dict[str, str] = {}
            for export, verdict in zip(by_name.values(), verdicts, strict=True):
                if verdict.ready:
                    offered.append(export)
                    continue
                unoffered[export.name] = verdict.reason()
                if self._unoffered.get(export.name) != unoffered[export.name]:  # once per change
                    log.warning("not offering %s: %s", export.name, unoffered[export.name])
            self._unoffered = unoffered
        registry = Registry(offered, self.handlers.registry.refused)
        if _fingerprint(registry) == _fingerprint(self.handlers.registry):
            self._good = {p: e for p, e in current.items() if by_name.get(e.name) is e}
            return False
        self._good = {p: e for p, e in current.items() if by_name.get(e.name) is e}
        self.handlers.registry = registry  # one reference swap: calls keep their version
        log.warning("reload: now publishing %d tools: %s", len(registry), ", ".join(registry))
        await self.notifier.tools_changed()
        return True

    async def watch(self) -> None:
        """Reload whenever the export folders change, until cancelled.

        **Cancellation:** stops watching; the current registry stays.
        """
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._watch_files)
            if self.preflight is not None:
                tg.start_soon(self._recheck_needs)

    async def _watch_files(self) -> None:
        import watchfiles

        # rust_timeout: the watching thread returns to Python this often, so
        # that a cancellation (the server stopping) ends it at once, not
        # after watchfiles' default 5 s.
        changes = watchfiles.awatch(*self.paths, debounce=200, step=50, rust_timeout=200)
        async for _changes in changes:
            await self._safe_reload()

    async def _recheck_needs(self) -> None:
        """Needs can appear or vanish without any export file changing (a
        program installed, a service started): probe again periodically."""
        while True:
            await anyio.sleep(self.preflight_interval)
            await self._safe_reload()

    async def _safe_reload(self) -> None:
        try:
            await self.reload()
        except Exception:
            log.exception("reload failed; keeping the current tools")
