"""``mcp-harbor call``: call a tool the way a client does, with the SDK
client: through a real ``mcp-harbor serve`` subprocess over stdio, or, with
``--url``, a running HTTP server."""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from mcp_harbor.cli._app import (
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    abort,
    complete_tool_names,
    exports_option,
    load_models_option,
    load_published,
    load_skills_option,
    models_option,
    programs_option,
    skills_option,
    use_programs_file,
)

if TYPE_CHECKING:
    from mcp import Client

    from mcp_harbor.cli._progress import ProgressView
    from mcp_harbor.config import Export

__all__ = ["call"]

#: Options that only a local call (the ``serve`` subprocess it starts) has.
_LOCAL_ONLY = ("exports", "programs", "models", "skills", "workdir")


@dataclass(frozen=True, slots=True)
class _Target:
    """Where the call goes: a local ``serve`` subprocess, or a running server at `url`."""

    url: str | None = None
    token: str | None = None
    folders: tuple[str, ...] = ()
    programs: str | None = None
    models: str | None = None
    skills: str | None = None
    workdir: str | None = None


@dataclass(frozen=True, slots=True)
class _Inputs:
    """What the command line says about the call itself."""

    assignments: tuple[str, ...]
    memory: str | None
    #: The arguments' schema known here (a local call); None: ask the server.
    schema: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class _Answer:
    """The call's envelope text, or why there is none (`problem`, `code`)."""

    envelope: str | None = None
    problem: str | None = None
    code: int = EXIT_USAGE
    #: Over --url: the tools the server lists for this caller.
    offered: tuple[str, ...] | None = None


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("tool", shell_complete=complete_tool_names)
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@exports_option
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option(
    "--memory",
    "memory",
    default=None,
    help="Caller memory: a JSON value (<= 32 KiB), sent under the request's _meta key "
    "mcp-harbor/memory.",
)
@click.option("--legacy", is_flag=True, help="Use the 2025 handshake era instead of 2026-07-28.")
@click.option(
    "--url",
    default=None,
    metavar="URL",
    help="Call the running HTTP server at URL (mcp-harbor serve --transport http, e.g. "
    "http://127.0.0.1:8765/mcp) instead of starting one over stdio; --exports, --programs, "
    "--models, --skills and --workdir are the local server's and are refused with it.",
)
@click.option(
    "--token",
    default=None,
    envvar="MCP_HARBOR_TOKEN",
    metavar="TOKEN",
    help="With --url: the bearer token (from mcp-harbor token add). Default: "
    "$MCP_HARBOR_TOKEN, which other users cannot see in ps as they can a command line.",
)
@click.option(
    "--workdir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=None,
    help="Local calls: where steps without cwd: run (the local server's --workdir). "
    "Default: the current directory.",
)
@programs_option
@models_option
@skills_option
def call(
    tool: str,
    assignments: tuple[str, ...],
    exports: tuple[Path, ...],
    as_json: bool,
    memory: str | None,
    legacy: bool,
    url: str | None,
    token: str | None,
    workdir: Path | None,
    programs: Path | None,
    models: Path | None,
    skills: Path | None,
) -> None:
    """Call TOOL with name=value arguments and print the result.

    Exit 0 on success, 1 on a tool error, 2 on usage or configuration errors
    (an unknown tool too, and a token the server refuses).
    """
    import anyio

    from mcp_harbor.cli._output import print_envelope
    from mcp_harbor.identity import local_principal

    ctx = click.get_current_context()
    published: dict[str, Export] = {}
    if url is not None:
        given = [name for name in _LOCAL_ONLY if _explicit(ctx, name)]
        if given:
            flags = ", ".join(f"--{name}" for name in given)
            abort(
                f"call: {flags} apply to a local call only (the server at --url has its own); "
                f"drop {flags} or --url",
                EXIT_USAGE,
            )
        if not url.startswith(("http://", "https://")):
            abort(f"call: --url {url!r} is not an http:// or https:// URL", EXIT_USAGE)
        target = _Target(url=url, token=token or None)
        inputs = _Inputs(assignments, memory, None)
    else:
        if _explicit(ctx, "token"):
            abort("call: --token applies to --url only (a local call needs none)", EXIT_USAGE)
        use_programs_file(programs)
        load_models_option(models)  # refused here, on one line, not by the subprocess
        load_skills_option(skills)
        published = {e.name: e for e in load_published(exports).exports}
        known = published.get(tool)
        target = _Target(
            folders=tuple(str(p.resolve()) for p in exports) or (str(Path("exports").resolve()),),
            programs=str(programs.resolve()) if programs is not None else None,
            models=str(models.resolve()) if models is not None else None,
            skills=str(skills.resolve()) if skills is not None else None,
            workdir=str(workdir.resolve()) if workdir is not None else None,
        )
        inputs = _Inputs(assignments, memory, known.input_schema if known is not None else {})
    answer = anyio.run(_call, tool, inputs, target, legacy)
    if answer.envelope is None:
        abort(answer.problem or f"{tool}: no answer", answer.code)
    print_envelope(
        answer.envelope,
        published,
        local_principal(),
        as_json,
        offered=answer.offered,
        why_not=_why_not(workdir, models),
    )


def _why_not(workdir: Path | None, models: Path | None) -> Callable[[Export], str | None]:
    """Why the local server would not offer an export now (its preflight:
    needs, secrets, models), as `mcp-harbor tools` says it; None: it would."""

    def why(export: Export) -> str | None:
        from mcp_harbor.config.models_file import load_models_file
        from mcp_harbor.preflight import Preflight

        loaded = load_models_file(models) if models is not None else None
        verdict = Preflight(workdir=workdir, models=loaded).verdict(export)
        return None if verdict.ready else verdict.reason()

    return why


def _explicit(ctx: click.Context, name: str) -> bool:
    """Whether the option `name` was given on the command line (not a
    default, nor an environment variable)."""
    return ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE


def _stdio_client(target: _Target, mode: str, **client_kw: Any) -> Client:
    from mcp import Client, StdioServerParameters

    args = ["-m", "mcp_harbor", "--log-level", "error", "serve"]
    for folder in target.folders:
        args += ["--exports", folder]
    if target.programs is not None:  # the server checks with the same grammars
        args += ["--programs", target.programs]
    if target.models is not None:  # agent steps' models, as this command was given them
        args += ["--models", target.models]
    if target.skills is not None:
        args += ["--skills", target.skills]
    if target.workdir is not None:
        args += ["--workdir", target.workdir]
    # The server gets this process's whole environment (the SDK passes only
    # a few variables by default): --db, --tokens and XDG defaults must agree.
    params = StdioServerParameters(
        command=sys.executable, args=args, cwd=str(Path.cwd()), env=dict(os.environ)
    )
    return Client(params, mode=mode, **client_kw)


async def _call(tool: str, inputs: _Inputs, target: _Target, legacy: bool) -> _Answer:
    """Connect, call `tool` and return its envelope; never raises for what
    a user can get wrong (a refused token, a server that is not there)."""
    from mcp_harbor.cli._progress import ProgressView

    with ProgressView(tool) as view:
        if target.url is None:
            return await _session(tool, inputs, target, legacy, view, None)
        import logging

        import httpx2
        from mcp.shared.exceptions import MCPError

        # Its INFO line per request is noise on a command's stderr.
        logging.getLogger("httpx2").setLevel(logging.WARNING)

        refused: list[int] = []

        async def note_refusal(response: httpx2.Response) -> None:
            if response.status_code in (401, 403):
                refused.append(response.status_code)

        headers = {"Authorization": f"Bearer {target.token}"} if target.token else {}
        async with httpx2.AsyncClient(
            headers=headers,
            timeout=httpx2.Timeout(30, read=300),
            event_hooks={"response": [note_refusal]},
        ) as http:
            failure: BaseExceptionGroup[Exception] | None = None
            try:
                return await _session(tool, inputs, target, legacy, view, http)
            except* (MCPError, httpx2.HTTPError, OSError) as group:
                failure = group
    # The SDK turns an HTTP error status into a JSON-RPC error: the status
    # itself is what the hook saw.
    if refused:
        given = "the token" if target.token else "a call without a token"
        return _Answer(
            problem=f"call: {target.url} refused {given} (HTTP {refused[0]}); "
            "give a valid one with --token or MCP_HARBOR_TOKEN"
        )
    reason = _first_text(failure.exceptions) if failure is not None else "no answer"
    return _Answer(problem=f"call: cannot call {target.url}: {reason}")


def _first_text(errors: Sequence[BaseException]) -> str:
    for error in errors:
        if isinstance(error, BaseExceptionGroup):
            return _first_text(error.exceptions)
        return str(error) or type(error).__name__
    return "no answer"


async def _session(
    tool: str,
    inputs: _Inputs,
    target: _Target,
    legacy: bool,
    view: ProgressView,
    http: Any,
) -> _Answer:
    from mcp import Client, types
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

    from mcp_harbor import __version__
    from mcp_harbor.cli._output import InputProblem, parse_caller_inputs
    from mcp_harbor.runctx import ENVELOPE_META_KEY

    info = types.Implementation(name="mcp-harbor-call", version=__version__)
    mode = "legacy" if legacy else "auto"
    client_kw: dict[str, Any] = {"client_info": info}
    if view.live:  # the step's live output: shown above the bar
        client_kw.update(logging_callback=view.log_message, log_level="info")
    if http is None:
        client: Client = _stdio_client(target, mode, **client_kw)
    else:
        assert target.url is not None
        transport = streamable_http_client(target.url, http_client=http)
        client = Client(transport, mode=mode, **client_kw)
    error: MCPError | None = None
    offered: tuple[str, ...] | None = None
    async with client:
        if view.live and legacy:
            with warnings.catch_warnings():  # how the handshake era asks for log messages
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await client.session.set_logging_level("info")
        schema = inputs.schema
        if schema is None:  # over --url: the schema this caller is shown
            listing = await client.list_tools()
            offered = tuple(sorted(t.name for t in listing.tools))
            found = next((t for t in listing.tools if t.name == tool), None)
            schema = dict(found.input_schema) if found is not None else {}
        try:
            arguments, meta = parse_caller_inputs(tool, inputs.assignments, inputs.memory, schema)
        except InputProblem as exc:
            return _Answer(problem=str(exc))
        try:
            result = await client.call_tool(
                tool,
                arguments,
                progress_callback=view.update,
                meta=meta,  # type: ignore[arg-type]
            )
        except MCPError as exc:  # caught here: the client's task group would wrap it
            error = exc
    if error is not None:
        # An unknown tool (or one this caller may not call) carries its envelope.
        data = error.data if isinstance(error.data, dict) else {}
        envelope = data.get(ENVELOPE_META_KEY)
        if isinstance(envelope, str):
            return _Answer(envelope, offered=offered)
        return _Answer(problem=f"{tool}: the server answered with an error: {error}")
    envelope = (result.meta or {}).get(ENVELOPE_META_KEY)
    if not isinstance(envelope, str):  # a crash: the server logged it
        text = "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))
        return _Answer(problem=f"{tool}: {text}", code=EXIT_TOOL_ERROR)
    return _Answer(envelope, offered=offered)
