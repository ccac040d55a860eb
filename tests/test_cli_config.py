"""Issue 2, item 8: configuration errors name the file and line (and column
for placeholders); one bad file among good ones and ``serve`` refuses to
start (exit 2, nothing half-registered). ``mcp-harbor tools --json`` shows
what a client sees; ``mcp-harbor call`` exits 0/1/2 and converts
``name=value`` words to the types of the schema."""

from __future__ import annotations

import json
import socket
import subprocess
import time
from pathlib import Path

import pytest
from harbor_helpers import PY, free_port, server_env, stdio_client_of, write_export

pytestmark = pytest.mark.anyio

REPO = Path(__file__).resolve().parents[1]

GOOD = """
    name: good
    description: A valid export next to a broken one.
    steps:
      - name: ok
        run: echo good
"""

# name -> (files {filename: text}, the file at fault, expected fragments; "{f}" is its path)
BROKEN: dict[str, tuple[dict[str, str], str, list[str]]] = {
    "unknown-key": (
        {
            "bad.yaml": """
                name: bad
                description: Misspelt key.
                tiemout: 5
                steps:
                  - name: s
                    run: echo hi
            """
        },
        "bad.yaml",
        ["{f}:3: unknown key 'tiemout'", "did you mean 'timeout'?"],
    ),
    "unknown-step-key": (
        {
            "bad.yaml": """
                name: bad
                description: Misspelt step key.
                steps:
                  - name: s
                    run: echo hi
                    continue_on_eror: true
            """
        },
        "bad.yaml",
        ["{f}:6: unknown key 'continue_on_eror'", "did you mean 'continue_on_error'?"],
    ),
    "yaml-syntax": (
        {
            "bad.yaml": """
                name: bad
                description: Broken YAML.
                steps:
                  - name: s
                    run: "echo unclosed
                  - name: t
            """
        },
        "bad.yaml",
        ["{f}:", "invalid YAML"],
    ),
    "undeclared-placeholder": (
        {
            "bad.yaml": """
                name: bad
                description: A placeholder naming an undeclared arg.
                args:
                  good: {type: string}
                steps:
                  - name: s
                    run: echo {{ args.good }} {{ args.bda }}
            """
        },
        "bad.yaml",
        ["{f}:7:31:", "undeclared arg 'bda'"],
    ),
    "undeclared-placeholder-block": (
        {
            "bad.yaml": """
                name: bad
                description: The same in a block scalar.
                steps:
                  - name: s
                    run: |
                      echo first line
                        echo {{ args.nope }}
            """
        },
        "bad.yaml",
        ["{f}:7:14:", "undeclared arg 'nope'"],
    ),
    "duplicate-step": (
        {
            "bad.yaml": """
                name: bad
                description: Two steps with one name.
                steps:
                  - name: build
                    run: echo one
                  - name: build
                    run: echo two
            """
        },
        "bad.yaml",
        ["{f}:6: step name 'build' is used twice (first at line 4)"],
    ),
    "duplicate-tool": (
        {
            "a.yaml": "name: twin\ndescription: first\nsteps: [{name: s, run: echo a}]\n",
            "b.yaml": "description: second\nname: twin\nsteps: [{name: s, run: echo b}]\n",
        },
        "b.yaml",
        ["{f}:2: tool name 'twin' is already used by", "a.yaml"],
    ),
    "invalid-arg-schema": (
        {
            "bad.yaml": """
                name: bad
                description: An arg whose schema is not JSON Schema.
                args:
                  ok: {type: string}
                  n: {type: integr}
                steps:
                  - name: s
                    run: echo hi
            """
        },
        "bad.yaml",
        ["{f}:5: args.n: invalid JSON Schema"],
    ),
}


def run_cli(*args: str, state: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "mcp_harbor", *args],
        cwd=REPO,
        env=server_env(state),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_config_error_names_file_and_line_and_serve_refuses(tmp_path: Path, case: str) -> None:
    files, culprit, fragments = BROKEN[case]
    exports = tmp_path / "exports"
    write_export(exports, "good.yaml", GOOD)
    for name, text in files.items():
        write_export(exports, name, text)
    proc = run_cli("serve", "--exports", str(exports), state=tmp_path / "state")
    assert proc.returncode == 2, proc.stderr
    stderr = " ".join(proc.stderr.split())  # rich may wrap long lines
    for fragment in fragments:
        expected = fragment.format(f=exports / culprit)
        assert expected in stderr or expected in proc.stderr.replace("\n", ""), (
            f"{expected!r} not in {proc.stderr!r}"
        )
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    assert not (tmp_path / "state" / "mcp-harbor").exists()


def test_http_serve_refuses_to_start_with_one_bad_file(tmp_path: Path) -> None:
    files, _, _ = BROKEN["unknown-key"]
    exports = tmp_path / "exports"
    write_export(exports, "good.yaml", GOOD)
    write_export(exports, "bad.yaml", files["bad.yaml"])
    port = free_port()
    started = time.monotonic()
    proc = run_cli(
        "serve", "--exports", str(exports), "--transport", "http", "--port", str(port),
        state=tmp_path / "state", timeout=30,
    )  # fmt: skip
    assert proc.returncode == 2
    assert time.monotonic() - started < 30
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0  # nothing listens


TYPES = """
    name: types
    title: Typed arguments
    description: Echoes typed arguments.
    args:
      count: {type: integer, minimum: 1, maximum: 10}
      flag: {type: boolean, default: false}
      ratio: {type: number}
      tags: {type: array, items: {type: string}}
      word: {type: string}
    required: [count]
    annotations: {readOnlyHint: true}
    steps:
      - name: show
        run: printf '%s|%s|%s|%s|%s' "$ARG_count" "$ARG_flag" "$ARG_ratio" "$ARG_tags" "$ARG_word"
"""

FAILS = """
    name: fails
    description: Always fails.
    steps:
      - name: boom
        run: exit 4
"""


@pytest.fixture
def cli_exports(tmp_path: Path) -> Path:
    exports = tmp_path / "exports"
    write_export(exports, "types.yaml", TYPES)
    write_export(exports, "fails.yaml", FAILS)
    return exports


async def test_tools_json_is_what_a_client_sees(cli_exports: Path, tmp_path: Path) -> None:
    proc = run_cli("tools", "--json", "--exports", str(cli_exports), state=tmp_path / "state")
    assert proc.returncode == 0, proc.stderr
    listing = json.loads(proc.stdout)["tools"]
    assert [t["name"] for t in listing] == ["fails", "types"]
    types_tool = listing[1]
    assert types_tool["title"] == "Typed arguments"
    assert types_tool["inputSchema"]["additionalProperties"] is False
    assert types_tool["inputSchema"]["required"] == ["count"]
    assert types_tool["annotations"] == {"readOnlyHint": True}
    assert "outputSchema" not in types_tool  # no output_schema of its own
    async with stdio_client_of(cli_exports, tmp_path / "state", "auto") as client:
        seen = (await client.list_tools()).tools
    assert all(t.pop("available") is True for t in listing)  # every export is available
    assert listing == [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in seen]


def test_tools_refuses_bad_config(tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    write_export(exports, "bad.yaml", BROKEN["unknown-key"][0]["bad.yaml"])
    proc = run_cli("tools", "--json", "--exports", str(exports), state=tmp_path / "state")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert f"{exports / 'bad.yaml'}:3" in proc.stderr


def test_call_success_converts_values(cli_exports: Path, tmp_path: Path) -> None:
    state = tmp_path / "state"
    proc = run_cli(
        "call", "types", "count=5", "flag=true", "ratio=2.5", "tags=a", "tags=b c",
        "word=007", "--json", "--exports", str(cli_exports), state=state,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)  # the answer envelope, as `run --json` prints it
    assert out["finish_reason"] == "goal"
    # Integer 5, boolean true, number 2.5, array, and a string stays a string.
    assert out["steps"][0]["stdout_tail"] == '5|true|2.5|["a","b c"]|007'
    assert out["status"] == "ok"
    # The server started by `call` keeps the caller's environment (XDG_STATE_HOME).
    assert Path(out["run_dir"]).parent == state / "mcp-harbor" / "runs"


def test_call_json_array_and_legacy_era(cli_exports: Path, tmp_path: Path) -> None:
    proc = run_cli(
        "call", "types", "count=1", "flag=no", 'tags=["x", "y"]', "--legacy",
        "--exports", str(cli_exports), state=tmp_path / "state",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert '1|false||["x","y"]|' in proc.stdout
    assert proc.stdout.startswith("types: ok, exit 0")


@pytest.mark.parametrize(
    ("words", "code", "fragment"),
    [
        (["fails"], 1, "fails: failed, exit 4"),
        (["types", "count=11"], 1, "rule: maximum"),
        (["types"], 1, "'count' is missing"),
        (["types", "count=abc"], 2, "count=abc: expected an integer"),
        (["types", "count=1", "flag=maybe"], 2, "flag=maybe: expected true or false"),
        (["types", "count"], 2, "arguments are written name=value"),
        (["nope"], 2, "unknown tool 'nope'"),
    ],
    ids=["tool-failed", "invalid-argument", "missing", "not-an-int", "not-a-bool", "no-equals",
         "unknown-tool"],
)  # fmt: skip
def test_call_exit_codes(
    cli_exports: Path, tmp_path: Path, words: list[str], code: int, fragment: str
) -> None:
    proc = run_cli("call", *words, "--exports", str(cli_exports), state=tmp_path / "state")
    assert proc.returncode == code, (proc.stdout, proc.stderr)
    assert fragment in (proc.stdout if code == 1 else proc.stderr)
    assert "Traceback" not in proc.stdout + proc.stderr
