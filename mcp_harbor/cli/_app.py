"""What every command shares: the console, exits, and loading the exports."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click
from click.shell_completion import CompletionItem

from mcp_harbor.defaults import DEFAULT_EXPORTS, DEFAULT_SANDBOX, SANDBOX_MODES

if TYPE_CHECKING:  # the application is imported by the commands that open it
    from rich.console import Console

    from mcp_harbor.config.models_file import Models
    from mcp_harbor.harbor import Harbor, HarborSettings, Published, Purpose

log = logging.getLogger("mcp_harbor.cli")

__all__ = [
    "DEFAULT_EXPORTS",
    "EXIT_OK",
    "EXIT_TOOL_ERROR",
    "EXIT_USAGE",
    "Published",
    "abort",
    "audit_key_option",
    "audit_seal_options",
    "complete_tool_names",
    "db_label",
    "db_option",
    "exit_code_of",
    "exports_option",
    "harbor_errors",
    "is_postgres",
    "load_models_option",
    "load_published",
    "load_skills_option",
    "models_option",
    "oauth_options",
    "open_harbor",
    "open_store",
    "pass_env_option",
    "programs_option",
    "sandbox_option",
    "setup_logging",
    "skills_option",
    "stderr",
    "tokens_option",
    "use_programs_file",
    "workdir_options",
]

EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE = 0, 1, 2


class _Stderr:
    """The diagnostics console on stderr, made when something is first
    printed: importing rich is ~25 ms that a server start, which prints
    nothing, need not pay. Tool output and config text are untrusted: never
    interpreted as markup."""

    __slots__ = ("_console",)

    def __init__(self) -> None:
        self._console: Console | None = None

    def print(self, *objects: Any, **options: Any) -> None:
        """`rich.console.Console.print` on stderr."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=True, markup=False, highlight=False, soft_wrap=True)
        self._console.print(*objects, **options)


stderr = _Stderr()


def abort(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print `message` to stderr and exit with `code` (the only exit path)."""
    stderr.print(message)
    sys.exit(code)


class _CallerStamp(logging.Filter):
    """Stamps every log record with the current call's caller (or ``-``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        from mcp_harbor.identity import current_caller

        caller = current_caller.get()
        record.caller = caller.describe() if caller is not None else "-"
        return True


def setup_logging(level: str) -> None:
    """Log to stderr only (stdout may be the MCP stdio wire); every line
    names the caller of the call it belongs to."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_CallerStamp())
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(caller)s]: %(message)s")
    )
    logging.basicConfig(level=getattr(logging, level.upper()), handlers=[handler])


F = TypeVar("F", bound=Callable[..., Any])


def exports_option(fn: F) -> F:
    option = click.option(
        "--exports",
        "exports",
        multiple=True,
        type=click.Path(path_type=Path),
        help="A folder (or file) of export files; repeatable. Default: ./exports",
    )
    return option(fn)


def complete_tool_names(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Shell completion of a TOOL argument: the names of the exports in the
    ``--exports`` given so far (default ./exports) that start with
    `incomplete`. Files are only loaded, not checked (completion must be
    quick); one that cannot be loaded is passed over, so completion never
    fails and never prints."""
    from mcp_harbor.config import discover_files, load_export
    from mcp_harbor.errors import HarborError

    folders = list(ctx.params.get("exports") or ()) or [DEFAULT_EXPORTS]
    try:
        files = discover_files(folders)
    except HarborError:
        return []
    names = []
    for path in files:
        try:
            names.append(load_export(path).name)
        except HarborError:
            continue
    return [CompletionItem(name) for name in sorted(names) if name.startswith(incomplete)]


def programs_option(fn: F) -> F:
    """``--programs FILE``: the server-wide program grammars (`use_programs_file`)."""
    option = click.option(
        "--programs",
        "programs",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        envvar="MCP_HARBOR_PROGRAMS",
        help="A YAML file declaring how in-house programs read their arguments "
        "(programs: NAME: {options_with_value, flags, end_of_options, runs_operands, "
        "code_options, stdin, output_options}); an export's own programs: entry of the "
        "same name wins.",
    )
    return option(fn)


def models_option(fn: F) -> F:
    """``--models FILE``: where agent steps' models are answered
    (`mcp_harbor.config.models_file`)."""
    option = click.option(
        "--models",
        "models",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        envvar="MCP_HARBOR_MODELS",
        help="The models file: the endpoints (base_url, api_key_env) and the models agent "
        "steps name (primary, fallback, turn_timeout, ...). Without it, exports with agent: "
        "or fix: steps are not offered.",
    )
    return option(fn)


def skills_option(fn: F) -> F:
    """``--skills DIR``: the skills directory agent steps see
    (`mcp_harbor.runctx.skills`)."""
    option = click.option(
        "--skills",
        "skills",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        envvar="MCP_HARBOR_SKILLS",
        help="The skills directory (DIR/NAME/SKILL.md): agent steps see its index and "
        "read a skill with the skill_get tool.",
    )
    return option(fn)


def load_models_option(path: Path | None) -> Models | None:
    """The models file at `path` (None: none given), or exit 2 with its
    problems, each naming file and line (no traceback)."""
    if path is None:
        return None
    from mcp_harbor.config.models_file import load_models_file

    with harbor_errors():
        return load_models_file(path)


def load_skills_option(path: Path | None) -> None:
    """Read the skills directory at `path` once (None: none given), or exit
    2 naming the skill that is invalid."""
    if path is None:
        return
    from mcp_harbor.runctx.skills import SkillsDirectory

    with harbor_errors():
        SkillsDirectory(path)


def _pass_env_names(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...]:
    if not value:
        return ()
    from mcp_harbor.config.model import env_name_problem

    for name in value:
        problem = env_name_problem(name, "--pass-env")
        if problem is not None:
            raise click.BadParameter(problem, ctx=ctx, param=param)
    return tuple(dict.fromkeys(value))


def pass_env_option(fn: F) -> F:
    """``--pass-env NAME`` (repeatable): variables of this process's
    environment that every step receives, besides the minimal set."""
    option = click.option(
        "--pass-env",
        "pass_env",
        multiple=True,
        metavar="NAME",
        callback=_pass_env_names,
        help="A variable of this process's environment that every step receives; repeatable. "
        "Steps get only PATH, HOME, USER, LOGNAME, LANG, LC_*, TZ, TERM and TMPDIR of it "
        "otherwise (plus an export's own pass_env:). BASH_ENV, ENV, ARG_*, HARBOR_* and "
        "STEP_* are refused. On a worker, the worker's own --pass-env applies.",
    )
    return option(fn)


def use_programs_file(path: Path | None) -> None:
    """`mcp_harbor.harbor.use_programs`, or exit 2 when the file is invalid.
    Call it before loading exports."""
    from mcp_harbor.harbor import use_programs

    with harbor_errors():
        use_programs(path)


def workdir_options(fn: F) -> F:
    """``--workdir`` and ``--runs-dir``: where steps run and where their run
    directories go (the commands that run pipelines share them)."""
    fn = click.option(
        "--runs-dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Where run directories (logs, context.json) go. "
        "Default: $XDG_STATE_HOME/mcp-harbor/runs.",
    )(fn)
    return click.option(
        "--workdir",
        type=click.Path(file_okay=False, exists=True, path_type=Path),
        default=None,
        help="Where steps without cwd: run. Default: the current directory.",
    )(fn)


def sandbox_option(fn: F) -> F:
    """``--sandbox auto|required|off``: how steps are confined (the commands
    that run pipelines share it)."""
    return click.option(
        "--sandbox",
        type=click.Choice(SANDBOX_MODES),
        default=DEFAULT_SANDBOX,
        show_default=True,
        envvar="MCP_HARBOR_SANDBOX",
        help="Confine steps: auto enforces what this kernel allows and logs what it cannot; "
        "required refuses exports whose sandbox: cannot be fully enforced; off runs "
        "steps unconfined.",
    )(fn)


def tokens_option(fn: F) -> F:
    from mcp_harbor.locations import default_tokens_path

    option = click.option(
        "--tokens",
        type=click.Path(dir_okay=False, path_type=Path),
        default=default_tokens_path,
        show_default="$XDG_CONFIG_HOME/mcp-harbor/tokens.json",
        envvar="MCP_HARBOR_TOKENS",
        help="The tokens file (HTTP bearer tokens, hashed).",
    )
    return option(fn)


def oauth_options(fn: F) -> F:
    """``--auth`` and the OAuth resource-server options of ``serve``
    (`mcp_harbor.server.oauth`); resolved by `http_verifier_of`."""
    options = [
        click.option(
            "--auth",
            "auth_mode",
            default="tokens",
            show_default=True,
            metavar="tokens|oauth|tokens,oauth",
            help="How HTTP callers authenticate: static tokens of the tokens file, OAuth "
            "access tokens of an identity provider (this server becomes an OAuth 2.1 "
            "resource server), or both side by side.",
        ),
        click.option(
            "--issuer",
            default=None,
            metavar="URL",
            help="With --auth oauth: the authorization server trusted (its iss, exactly); "
            "principals are oauth:CLAIM. Several: --auth-config.",
        ),
        click.option(
            "--audience",
            default=None,
            metavar="URL",
            help="With --auth oauth: this server's canonical MCP URL as clients reach it "
            "(https://host/mcp); every token's aud must hold it.",
        ),
        click.option(
            "--jwks-url",
            default=None,
            metavar="URL",
            help="The issuer's key set (default: its metadata's jwks_uri).",
        ),
        click.option(
            "--required-scope",
            "required_scopes",
            multiple=True,
            metavar="SCOPE",
            help="A scope every OAuth token needs (403 insufficient_scope otherwise); repeatable.",
        ),
        click.option(
            "--principal-claim",
            default="sub",
            show_default=True,
            metavar="NAME",
            help="The claim that names the caller (a dotted name walks into objects).",
        ),
        click.option(
            "--groups-claim", default=None, metavar="NAME", help="The claim holding groups."
        ),
        click.option(
            "--tenant-claim", default=None, metavar="NAME", help="The claim holding the tenant."
        ),
        click.option(
            "--introspection-url",
            default=None,
            metavar="URL",
            help="RFC 7662 endpoint that checks opaque (non-JWT) tokens; its client id and "
            "secret are read from the variables --introspection-client-id-env and "
            "--introspection-client-secret-env name.",
        ),
        click.option(
            "--introspection-client-id-env",
            default=None,
            metavar="NAME",
            show_default="MCP_HARBOR_INTROSPECTION_CLIENT_ID",
            help="The environment variable holding the introspection client id.",
        ),
        click.option(
            "--introspection-client-secret-env",
            default=None,
            metavar="NAME",
            show_default="MCP_HARBOR_INTROSPECTION_CLIENT_SECRET",
            help="The environment variable holding the introspection client secret.",
        ),
        click.option(
            "--auth-config",
            type=click.Path(dir_okay=False, exists=True, path_type=Path),
            default=None,
            metavar="FILE",
            help="The OAuth settings in a YAML file (any number of issuers); instead of "
            "--issuer and the options after it.",
        ),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def audit_key_option(fn: F) -> F:
    """``--audit-key FILE`` and ``--audit-witness FILE``: the key that signs
    the audit chain's checkpoints and the file they go to
    (`mcp_harbor.store.seal`), both outside the database."""
    from mcp_harbor.locations import default_audit_key_path, default_audit_witness_path

    fn = click.option(
        "--audit-witness",
        type=click.Path(dir_okay=False, path_type=Path),
        default=default_audit_witness_path,
        show_default="$XDG_CONFIG_HOME/mcp-harbor/audit.witness",
        envvar="MCP_HARBOR_AUDIT_WITNESS",
        help="The witness file: the audit chain's signed checkpoints, one JSON line each "
        "(appended, 0600). Keep it, or a copy shipped as it grows, out of reach of whoever "
        "can edit the database.",
    )(fn)
    return click.option(
        "--audit-key",
        type=click.Path(dir_okay=False, path_type=Path),
        default=default_audit_key_path,
        show_default="$XDG_CONFIG_HOME/mcp-harbor/audit.key",
        envvar="MCP_HARBOR_AUDIT_KEY",
        help="The key (32 random bytes, mode 0600) that signs the audit chain's checkpoints; "
        "created when missing by the commands that write records. Refused when group or "
        "world readable, or shorter than 32 bytes.",
    )(fn)


def audit_seal_options(fn: F) -> F:
    """`audit_key_option`, and how often the commands that write records
    sign a checkpoint: hidden, for tests only (``MCP_HARBOR_AUDIT_SEAL_EVERY``,
    ``MCP_HARBOR_AUDIT_SEAL_INTERVAL``); see docs/security.md."""
    from mcp_harbor.store.seal import DEFAULT_SEAL_EVERY, DEFAULT_SEAL_INTERVAL

    fn = click.option(
        "--audit-seal-interval",
        type=click.FloatRange(min=0.01),
        default=DEFAULT_SEAL_INTERVAL,
        envvar="MCP_HARBOR_AUDIT_SEAL_INTERVAL",
        hidden=True,
    )(fn)
    fn = click.option(
        "--audit-seal-every",
        type=click.IntRange(min=1),
        default=DEFAULT_SEAL_EVERY,
        envvar="MCP_HARBOR_AUDIT_SEAL_EVERY",
        hidden=True,
    )(fn)
    return audit_key_option(fn)


def db_option(fn: F) -> F:
    from mcp_harbor.locations import default_db_path

    fn = click.option(
        "--db",
        type=str,
        default=lambda: str(default_db_path()),
        show_default="$XDG_STATE_HOME/mcp-harbor/harbor.db",
        envvar="MCP_HARBOR_DB",
        help="The store: a SQLite file, or postgresql://USER@HOST:PORT/DBNAME (shared).",
    )(fn)
    return click.option(
        "--db-sync",
        type=click.Choice(["normal", "full"]),
        default="normal",
        show_default=True,
        help="normal: a record survives the server being killed; full: also power loss.",
    )(fn)


def is_postgres(db: str | Path) -> bool:
    """Whether `db` (a ``--db`` value) names a PostgreSQL database
    (`mcp_harbor.store.names_postgres`)."""
    from mcp_harbor import store

    return store.names_postgres(db)


def db_label(db: str | Path) -> str:
    """`db` for messages and logs: a DSN without its password
    (`mcp_harbor.store.label`)."""
    from mcp_harbor import store

    return store.label(db)


def open_store(db: str | Path, *, durable: bool = False, readonly: bool = False) -> Any:
    """Open the store named by `db` (`mcp_harbor.store.open`), or exit 2
    with the reason."""
    from mcp_harbor import store
    from mcp_harbor.errors import StoreError

    try:
        return store.open(db, durable=durable, readonly=readonly)
    except StoreError as exc:
        abort(str(exc), EXIT_USAGE)


def load_published(
    paths: Sequence[Path], *, strict: bool = False, skip_refused: bool = False
) -> Published:
    """`mcp_harbor.harbor.load_published`, or exit: 2 when a file cannot be
    loaded, 1 when the checker refused an export (unless `skip_refused`)."""
    from mcp_harbor.harbor import load_published as load

    with harbor_errors():
        return load(paths, strict=strict, skip_refused=skip_refused)


@contextlib.contextmanager
def harbor_errors() -> Iterator[None]:
    """The one abort path of the commands: a `HarborError` becomes its
    message on stderr and an exit code (1 when the checker refused exports,
    else 2: usage or configuration). Nothing else is caught."""
    from mcp_harbor.errors import ExportsRefused, HarborError

    try:
        yield
    except ExportsRefused as exc:
        abort(str(exc), EXIT_TOOL_ERROR)
    except HarborError as exc:
        abort(str(exc), EXIT_USAGE)


def open_harbor(settings: HarborSettings, purpose: Purpose) -> Harbor:
    """`Harbor.open`, or exit with the reason (`harbor_errors`)."""
    from mcp_harbor.harbor import Harbor

    with harbor_errors():
        return Harbor.open(settings, purpose=purpose)


def exit_code_of(status: str) -> int:
    """The exit code of a call that ended with `status` (as shown): 0 for
    ``ok``, 2 for an unknown tool (a usage error), 1 for anything else: a
    run that failed, and every other status where nothing ran (``busy``,
    ``rate_limited``, ``declined``, …), which a later call may change."""
    if status == "ok":
        return EXIT_OK
    return EXIT_USAGE if status == "unknown" else EXIT_TOOL_ERROR
