"""The registry of step variables (`mcp_harbor.step_env`) against what steps
really see.

Proves: each variable the runtime exports has the classification decided for
it; `step_variables` refuses a name the registry does not hold; every
``HARBOR_*``, ``ARG_*`` and ``STEP_*`` variable (and every other variable that
is neither the server's nor bash's nor the step's literal ``env:``) that real
steps see is registered, through the real call path in-process (`CallService`,
real bash, ``run:`` and ``argv:`` steps, a ``finally:`` hook, caller memory,
an attachment), through a real ``mcp-harbor serve --transport http`` (where
the caller picks the session, remote address, request id and client info
that the step sees, verbatim), and through a real ``mcp-harbor worker``
behind a real Redis; docs/security.md lists the registry as it is.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from harbor_helpers import http_server, stdio_client_opts, write_export

from mcp_harbor import step_env
from mcp_harbor.config.loader import load_export
from mcp_harbor.identity import Caller
from mcp_harbor.runctx import (
    CALLER_MEMORY_KEY,
    ENVELOPE_META_KEY,
    CallRequest,
    ExportCatalog,
    compose,
)
from mcp_harbor.runctx.service import CallService, RunSettings
from mcp_harbor.step_env import (
    REGISTRY,
    UnregisteredStepVariable,
    caller_file_variables,
    caller_variables,
    classify,
    families,
    is_caller_file,
    is_caller_influenced,
    lookup,
    server_variables,
    step_variables,
)
from mcp_harbor.store.audit import AuditTrail
from mcp_harbor.store.sqlite import SqliteStore
from tests.scale import conftest as scale

pytestmark = pytest.mark.anyio

#: The worker tests' fixture: a real redis-server (or $MCP_HARBOR_TEST_REDIS).
redis_url = scale.redis_url

# --- the classification -------------------------------------------------------------

#: Every exact name the runtime exports, and its class (decided in issue 17
#: from how each is set; see the registry's descriptions for the reasons).
EXACT: dict[str, step_env.Influence] = {
    "HARBOR_RUN_ID": "server",
    "HARBOR_RUN_DIR": "caller_file",
    "HARBOR_TOOL": "server",
    "HARBOR_STEP": "server",
    "HARBOR_STEP_OUTPUT": "caller_file",
    "HARBOR_PROGRESS": "caller_file",
    "HARBOR_CONTEXT": "caller_file",
    "HARBOR_OUTPUT": "caller_file",
    "HARBOR_CALLER_PRINCIPAL": "server",
    "HARBOR_CALLER_TENANT": "server",
    "HARBOR_CALLER_TRANSPORT": "server",
    "HARBOR_CALLER_GROUPS": "server",
    "HARBOR_CALLER_CLIENT": "caller",
    "HARBOR_CALLER_CLIENT_VERSION": "caller",
    "HARBOR_CALLER_SESSION": "caller",
    "HARBOR_CALLER_REQUEST_ID": "caller",
    "HARBOR_CALLER_REMOTE_ADDR": "caller",
}

#: Members of the families, and names that are none of the runtime's.
SAMPLES: dict[str, step_env.Influence | None] = {
    "ARG_note": "caller",
    "ARG_x": "caller",
    "ARG_": None,  # no arg name
    "STEP_build_EXIT": "server",
    "STEP_build_STATUS": "server",
    "STEP_two_words_EXIT": "server",
    "STEP_build_version": "caller",
    "STEP_build_EXIT_CODE": "caller",  # an output key, not the runtime's _EXIT
    "STEP_build_STATUSES": "caller",
    "STEP__EXIT": "caller",  # no step name: not an exit code, so (conservatively) an output
    "STEP_": None,
    "HARBOR_NOPE": None,
    "HARBOR_CALLER": None,
    "PATH": None,
    "harbor_run_id": None,  # names are case-sensitive
}


def test_each_known_variable_has_its_class() -> None:
    for name, influence in EXACT.items():
        assert classify(name) == influence, name
        found = lookup(name)
        assert found is not None and found.name == name and not found.is_family
        assert found.description
    for name, expected in SAMPLES.items():
        assert classify(name) == expected, name
    assert {v.name for v in REGISTRY if not v.is_family} == set(EXACT)
    assert [(v.name, v.influence) for v in families()] == [
        ("ARG_<name>", "caller"),
        ("STEP_<step>_EXIT", "server"),
        ("STEP_<step>_STATUS", "server"),
        ("STEP_<step>_<key>", "caller"),
    ]
    by_class = {c: {n for n, i in EXACT.items() if i == c} for c in step_env.INFLUENCES}
    assert caller_variables() == by_class["caller"]
    assert caller_file_variables() == by_class["caller_file"]
    assert server_variables() == by_class["server"]
    assert all(isinstance(s, frozenset) for s in (caller_variables(), server_variables()))
    assert len({v.name for v in REGISTRY}) == len(REGISTRY)


def test_caller_influence_and_caller_files() -> None:
    for name, influence in EXACT.items():
        assert is_caller_influenced(name) == (influence == "caller"), name
        assert is_caller_file(name) == (influence == "caller_file"), name
    assert is_caller_influenced("ARG_anything")
    assert is_caller_influenced("STEP_build_version")
    assert not is_caller_influenced("STEP_build_EXIT")
    # Unregistered names in the runtime's namespace: conservative.
    assert is_caller_influenced("HARBOR_NOPE")
    # The inherited environment and literal env: are not the caller's.
    assert not is_caller_influenced("PATH")
    assert not is_caller_influenced("GREETING")
    assert not is_caller_file("PATH")


def test_the_inherited_set_is_the_documented_minimal_one() -> None:
    """What steps receive of the server's environment without pass_env:
    (issue 19): none of it is the runtime's, none of it the caller's."""
    expected = {"PATH", "HOME", "USER", "LOGNAME", "LANG", "TZ", "TERM", "TMPDIR"}
    assert expected == step_env.INHERITED
    for name in [*expected, "LC_ALL", "LC_CTYPE"]:
        assert step_env.is_inherited(name), name
        assert step_env.lookup(name) is None and not is_caller_influenced(name), name
    for name in ("BASH_ENV", "ENV", "SHELL", "SSH_AUTH_SOCK", "HARBOR_RUN_ID", "ARG_x", "LC"):
        assert not step_env.is_inherited(name), name


def test_step_variables_passes_registered_names_and_refuses_others() -> None:
    good = {"HARBOR_RUN_ID": "r", "ARG_note": "n", "STEP_a_EXIT": "0", "STEP_a_key": "v"}
    assert step_variables(good) is good
    assert step_variables({}) == {}
    for bad in ("HARBOR_NEW_THING", "ARG_", "RUN_ID", "harbor_tool"):
        with pytest.raises(UnregisteredStepVariable, match=repr(bad)) as info:
            step_variables({**good, bad: "x"})
        assert "mcp_harbor.step_env.REGISTRY" in str(info.value)


ALL_FIELDS = Caller(
    transport="http",
    principal="alice",
    tenant="acme",
    groups=("ops", "dev"),
    client_name="claimed-client",
    client_version="9.9",
    session="http:abc",
    request_id="7",
    remote_addr="192.0.2.1",
    protocol_version="2025-11-25",
)


def test_caller_and_context_variables_are_all_registered(tmp_path: Path) -> None:
    """`Caller.environment` and `RunContext.environment` (the request's
    ``extra_env``, also what a remote worker is sent) with every field set."""
    caller_env = ALL_FIELDS.environment()
    assert step_variables(caller_env) is caller_env
    assert set(caller_env) == {n for n in EXACT if n.startswith("HARBOR_CALLER_")}
    export = load_export(write_export(tmp_path / "exports", "e.yaml", ENVDUMP))
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    context = compose(
        export=export,
        caller=ALL_FIELDS,
        run_id="r1",
        run_dir=run_dir,
        arguments={"note": "n"},
        timeout=10,
    )
    env = context.environment()
    assert step_variables(env) is env
    assert set(env) == set(caller_env) | {"HARBOR_CONTEXT", "HARBOR_OUTPUT"}


# --- what real steps see --------------------------------------------------------------

#: A step's environment (env-STEP) and its bash's runtime variables,
#: exported or not (vars-STEP), NUL-separated.
DUMP = (
    'env -0 > "$HARBOR_RUN_DIR/env-$HARBOR_STEP"; '
    "for n in ${!ARG_*} ${!HARBOR_*} ${!STEP_*}; do "
    'printf "%s=%s\\0" "$n" "${!n}"; done > "$HARBOR_RUN_DIR/vars-$HARBOR_STEP"'
)

ENVDUMP = f"""
    name: envdump
    description: Writes the environment each of its steps sees into the run directory.
    args:
      note: {{type: string}}
      token: {{type: string, secret: true, default: s3cret}}
      count: {{type: integer, default: 2}}
      doc: {{type: string, contentEncoding: base64, contentMediaType: text/plain}}
      unused: {{type: string}}
    attachments: {{disposition: inline}}
    steps:
      - name: produce
        run: |
          {DUMP}
          printf 'version=%s\\n' "$ARG_note" >> "$HARBOR_STEP_OUTPUT"
          printf '{{"ok": true}}\\n' > "$HARBOR_OUTPUT"
      - name: never
        if: args.count == 0
        run: echo never
      - name: consume
        env: {{GREETING: hello}}
        run: {DUMP}
      - name: raw
        argv: [env, "-0"]
    finally:
      - name: last
        run: {DUMP}
"""

#: The steps whose environment is dumped, and where (``raw`` prints it).
DUMPED = ("produce", "consume", "raw", "last")
#: What bash itself exports to the commands of a script.
BASH_OWN = frozenset({"PWD", "SHLVL", "_", "OLDPWD"})
RUNTIME_PREFIXES = ("HARBOR_", "ARG_", "STEP_")


def _entries(data: bytes) -> dict[str, str]:
    entries = [e.decode() for e in data.split(b"\0") if e]
    return dict(e.split("=", 1) for e in entries)


def read_environments(run_dir: Path) -> dict[str, dict[str, str]]:
    """Each dumped step's process environment, by step name."""
    out: dict[str, dict[str, str]] = {}
    for step in DUMPED:
        if step == "raw":
            (log,) = (run_dir / "steps").glob("*-raw.stdout.log")
            out[step] = _entries(log.read_bytes())
        else:
            out[step] = _entries((run_dir / f"env-{step}").read_bytes())
    return out


def read_dumps(run_dir: Path) -> dict[str, dict[str, str]]:
    """What each dumped step sees, by step name: its environment and, for a
    ``run:`` step, its bash's runtime variables (the caller's ones are
    shell variables only). Also asserts that no step's environment holds a
    variable of class ``caller`` (issue 34: caller data is not ambient)."""
    environments = read_environments(run_dir)
    for step, env in environments.items():
        ambient = sorted(n for n in env if classify(n) == "caller")
        assert ambient == [], f"step {step} has caller variables in its environment: {ambient}"
    out: dict[str, dict[str, str]] = {}
    for step, env in environments.items():
        shell = {} if step == "raw" else _entries((run_dir / f"vars-{step}").read_bytes())
        out[step] = {**env, **shell}
    return out


def unregistered(
    dumps: dict[str, dict[str, str]], server_env: dict[str, str]
) -> dict[str, list[str]]:
    """Per step: the names it saw that the runtime must have exported (every
    ``HARBOR_``/``ARG_``/``STEP_`` name, and any other that is neither the
    server's, bash's nor the step's literal ``env:``) but the registry does not
    classify. Empty lists everywhere: all registered."""
    literal = {"GREETING"}
    out: dict[str, list[str]] = {}
    for step, env in dumps.items():
        exported = {
            n
            for n in env
            if n.startswith(RUNTIME_PREFIXES)
            or (n not in server_env and n not in BASH_OWN and n not in literal)
        }
        out[step] = sorted(n for n in exported if classify(n) is None)
    return out


def runtime_names(dumps: dict[str, dict[str, str]]) -> set[str]:
    return {n for env in dumps.values() for n in env if n.startswith(RUNTIME_PREFIXES)}


def assert_all_registered(dumps: dict[str, dict[str, str]], server_env: dict[str, str]) -> None:
    assert set(dumps) == set(DUMPED)
    missing = unregistered(dumps, server_env)
    assert missing == {step: [] for step in DUMPED}, (
        f"steps saw variables that mcp_harbor.step_env does not classify: {missing}"
    )


async def test_every_variable_a_step_sees_is_registered(tmp_path: Path) -> None:
    """In-process, through `CallService` as MCP calls go: the caller with
    every field set, caller memory, an attachment; ``run:``, ``argv:``, a
    skipped step and a ``finally:`` hook."""
    export = load_export(write_export(tmp_path / "exports", "envdump.yaml", ENVDUMP))
    store = SqliteStore(tmp_path / "audit.db")
    try:
        service = CallService(
            RunSettings(runs_root=tmp_path / "runs", workdir=tmp_path),
            AuditTrail(store),
            store,
            catalog=ExportCatalog([export]),
        )
        envelope = await service.call(
            CallRequest(
                export.name,
                {"note": "1.2", "doc": base64.b64encode(b"attached\n").decode()},
                ALL_FIELDS,
                meta={CALLER_MEMORY_KEY: {"ticket": "OPS-1"}},
            )
        )
    finally:
        store.close()
    assert envelope.ok, envelope.answer
    dumps = read_dumps(Path(envelope.run_dir))
    assert_all_registered(dumps, dict(os.environ))

    seen = runtime_names(dumps)
    # The run covers the whole registry: every exact name, every family.
    assert set(EXACT) <= seen, set(EXACT) - seen
    for family in families():
        assert any(family.matches(n) and lookup(n) is family for n in seen), family.name
    assert {n for n in seen if n.startswith("ARG_")} == {
        "ARG_note",
        "ARG_token",
        "ARG_count",
        "ARG_doc",
    }
    consume = dumps["consume"]
    assert consume["STEP_produce_version"] == "1.2"
    assert consume["STEP_never_STATUS"] == "skipped" and consume["STEP_never_EXIT"] == ""
    assert consume["GREETING"] == "hello"  # the literal env: is there, and is not the runtime's
    assert classify("GREETING") is None
    # The values are what they always were.
    assert consume["HARBOR_TOOL"] == "envdump" and consume["HARBOR_STEP"] == "consume"
    assert consume["HARBOR_RUN_DIR"] == envelope.run_dir
    assert consume["HARBOR_RUN_ID"] == envelope.run_id
    assert consume["HARBOR_CONTEXT"] == str(Path(envelope.run_dir) / "context.json")
    assert consume["HARBOR_OUTPUT"] == str(Path(envelope.run_dir) / "output.json")
    assert consume["HARBOR_STEP_OUTPUT"].endswith("-consume.output")
    assert consume["HARBOR_CALLER_GROUPS"] == "ops,dev"
    assert consume["ARG_doc"] == str(Path(envelope.run_dir) / "inputs" / "doc.txt")
    # What the server made in the run directory is what step_env says it
    # makes (the checker takes the rest for the steps' own files)
    made = {p.name for p in Path(envelope.run_dir).iterdir()} - {
        f"{kind}-{step}" for kind in ("env", "vars") for step in DUMPED
    }
    assert made <= step_env.RUN_DIR_ENTRIES, made - step_env.RUN_DIR_ENTRIES
    assert {"context.json", "output.json", "inputs", "steps"} <= made, made
    # Every step's recorded env_names are registered (or its literal env:).
    for step in envelope.steps:
        for name in step.get("env_names", []):
            assert classify(name) is not None or name == "GREETING", (step["name"], name)


# --- over HTTP: the caller picks these values ---------------------------------------


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("stepenv-http")
    write_export(root / "exports", "envdump.yaml", ENVDUMP)
    with http_server(root / "exports", root / "state") as srv:
        yield srv.url


#: Shell code a hostile client puts into every value it can choose.
HOSTILE = {
    "HARBOR_CALLER_CLIENT": "$(touch /tmp/client)",
    "HARBOR_CALLER_CLIENT_VERSION": "`id`",
    "HARBOR_CALLER_REQUEST_ID": "1; rm -rf ~",
    "HARBOR_CALLER_SESSION": "http:$(curl evil) 'x",
    "HARBOR_CALLER_REMOTE_ADDR": '"; reboot #',
}


async def test_over_http_the_caller_chooses_what_the_registry_calls_caller(http: str) -> None:
    """A raw 2026-07-28 ``tools/call`` (loopback, no tokens): the JSON-RPC id,
    ``clientInfo``, an ``Mcp-Session-Id`` and an ``X-Forwarded-For`` header all
    reach the step verbatim, and each is classified ``caller``; what the
    server decides (principal, tenant, transport, groups) is ``server``."""
    version = "2026-07-28"
    body = {
        "jsonrpc": "2.0",
        "id": HOSTILE["HARBOR_CALLER_REQUEST_ID"],
        "method": "tools/call",
        "params": {
            "name": "envdump",
            "arguments": {"note": "$(note)"},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": version,
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {
                    "name": HOSTILE["HARBOR_CALLER_CLIENT"],
                    "version": HOSTILE["HARBOR_CALLER_CLIENT_VERSION"],
                },
            },
        },
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": version,
        "Mcp-Method": "tools/call",
        "Mcp-Name": "envdump",
        "Mcp-Session-Id": HOSTILE["HARBOR_CALLER_SESSION"].removeprefix("http:"),
        "X-Forwarded-For": HOSTILE["HARBOR_CALLER_REMOTE_ADDR"],
    }
    async with httpx2.AsyncClient(timeout=60) as client:
        resp = await client.post(http, json=body, headers=headers)
    assert resp.status_code == 200, resp.text
    answer: dict[str, Any] = resp.json()
    assert answer["result"]["isError"] is False, answer
    envelope = json.loads(answer["result"]["_meta"][ENVELOPE_META_KEY])
    dumps = read_dumps(Path(envelope["run_dir"]))
    # The server's environment is the test's (harbor_helpers.server_env), but
    # for XDG_STATE_HOME and MCP_HARBOR_LOG_LEVEL.
    assert_all_registered(dumps, dict.fromkeys([*os.environ, "XDG_STATE_HOME"], ""))
    consume = dumps["consume"]
    for name, value in HOSTILE.items():
        assert consume[name] == value, name
        assert classify(name) == "caller" and is_caller_influenced(name), name
    assert consume["ARG_note"] == "$(note)" and classify("ARG_note") == "caller"
    decided = {
        "HARBOR_CALLER_PRINCIPAL": "anonymous",
        "HARBOR_CALLER_TENANT": "default",
        "HARBOR_CALLER_TRANSPORT": "http",
        "HARBOR_CALLER_GROUPS": "",
    }
    for name, value in decided.items():
        assert consume[name] == value, name
        assert classify(name) == "server", name
    assert set(EXACT) <= runtime_names(dumps)


# --- on a remote worker -------------------------------------------------------------


async def test_a_remote_worker_exports_only_registered_variables(
    tmp_path: Path, redis_url: str
) -> None:
    """The export with ``runs_on:``: ``mcp-harbor serve --broker`` sends the
    run through Redis to an ``mcp-harbor worker``, which runs the steps."""
    exports = tmp_path / "exports"
    write_export(
        exports, "envdump.yaml", ENVDUMP.replace("    args:", "    runs_on: lab\n    args:")
    )
    state, db = tmp_path / "state", tmp_path / "harbor.db"
    worker = scale.start_worker(
        exports, db, redis_url, state, tmp_path / "worker.log", "--slots", "1"
    )
    try:
        async with stdio_client_opts(
            exports, state, "legacy", "--db", str(db), "--broker", redis_url
        ) as client:
            result = await client.call_tool("envdump", {"note": "remote"})
    finally:
        worker.stop()
    envelope = json.loads(result.meta[ENVELOPE_META_KEY]) if result.meta else {}
    assert result.is_error is False and envelope.get("finish_reason") == "goal", result
    dumps = read_dumps(Path(envelope["run_dir"]))
    # Celery sets these in the worker's own environment (its log settings),
    # which steps inherit as they inherit the server's.
    celery = {
        n for env in dumps.values() for n in env if n.startswith(("CELERY_LOG_", "_MP_FORK_"))
    }
    assert_all_registered(dumps, dict.fromkeys([*os.environ, "XDG_STATE_HOME", *celery], ""))
    seen = runtime_names(dumps)
    assert {n for n in EXACT if n != "HARBOR_CALLER_REMOTE_ADDR"} <= seen  # stdio: no peer
    assert dumps["consume"]["ARG_note"] == "remote"
    assert dumps["consume"]["STEP_produce_version"] == "remote"


# --- the documentation ----------------------------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs" / "security.md"
BEGIN = "<!-- step-env registry: begin -->"
END = "<!-- step-env registry: end -->"


def registry_table() -> str:
    rows = ["| variable | class | what it is |", "|---|---|---|"]
    for v in REGISTRY:
        rows.append(f"| `{v.name}` | {v.influence} | {v.description} |")
    return "\n".join(rows)


def test_security_docs_list_the_registry() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert BEGIN in text and END in text, f"{DOCS} lacks the registry markers"
    shown = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    expected = registry_table()
    assert shown == expected, (
        f"docs/security.md's list of step variables differs from mcp_harbor.step_env; "
        f"put this between the markers:\n{expected}"
    )
