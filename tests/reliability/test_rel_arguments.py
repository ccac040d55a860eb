"""Issue 8, hostile arguments: for every shipped export that takes a value
and for accepted test exports, Hypothesis-generated values (quotes, ``$(…)``,
backticks, newlines, NUL, globs, leading ``-``, very long strings, unusual
Unicode) are sent through a real ``mcp-harbor serve``. Programs on PATH are
stubs that record every call: no unintended program ever runs (``pwned``,
``touch``, ``rm``, ``id``, ``curl`` are stubs too), and each value reaches its
command as exactly one intended argument, or the call is refused by
validation with nothing run.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from _raw import RawStdio, make_stubs, scaled, stub_calls, text_of_result
from harbor_helpers import write_export
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
SINKS = ["du", "df", "sort", "head", "git", "find", "grep", "wc", "sha256sum", "probe"]
FORBIDDEN = ["pwned", "touch", "rm", "id", "curl", "wget", "nc", "python3", "perl"]

TEST_EXPORTS = {
    "q_shellquote": "run: probe {{ args.v | shellquote }}",
    "q_env": 'run: probe "$ARG_v" | cat',
    "q_argv": 'argv: [probe, "--", "{{ args.v }}"]',
    "q_var": 'run: x={{ args.v | shellquote }}; probe "$x"',
}

ATTACKS = [
    "$(pwned)",
    "`pwned`",
    "; pwned",
    "| pwned",
    "&& pwned",
    "a\npwned",
    "a\x00b",
    "*",
    "?",
    "[a-z]*",
    "-rf",
    "--help",
    "--output=/tmp/x",
    "$HOME",
    "${IFS}pwned",
    "'",
    '"',
    "\\",
    "'$(pwned)'",
    '"$(pwned)"',
    "~root",
    "a b",
    "\t",
    "\u202epwned",
    "é\u0301",
    "😀" * 50,
    "x" * 4096,
    "x" * 5000,
    "-",
    "--",
    "$((1+1))",
    "<(pwned)",
    ">(pwned)",
    "!!",
    "%s%n",
]
values = st.sampled_from(ATTACKS) | st.text(
    alphabet=st.characters(codec="utf-8")
    | st.sampled_from(list("$`'\"\\;|&*?[]{}()<>!~#-\n\x00 ")),
    max_size=60,
)
FUZZ = settings(
    max_examples=scaled(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


#: NUL and what str.splitlines() counts as a line break.
BREAKS = "\x00\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


class Harness:
    def __init__(self, tmp: Path) -> None:
        self.stubs, self.log, self.work = tmp / "stubs", tmp / "log", tmp / "work"
        make_stubs(self.stubs, SINKS + FORBIDDEN)
        self.log.mkdir()
        self.work.mkdir()
        exports = tmp / "exports"
        exports.mkdir()
        for f in (ROOT / "exports").glob("*.yaml"):
            shutil.copy(f, exports / f.name)
        for name, step in TEST_EXPORTS.items():
            write_export(
                exports,
                f"{name}.yaml",
                f"""
                name: {name}
                description: Test export.
                args:
                  v: {{type: string}}
                required: [v]
                # The stub reads its operands and stdin as data; without this
                # grammar the checker gives a program it does not know only
                # clean data (issue 34).
                programs:
                  probe: {{runs_operands: false, stdin: data}}
                steps:
                  - name: a
                    {step}
            """,
            )
        env = {"PATH": f"{self.stubs}:/usr/bin:/bin", "STUB_LOG": str(self.log)}
        self.server = RawStdio(
            exports,
            tmp / "state",
            "--db",
            str(tmp / "a.db"),
            "--workdir",
            str(self.work),
            "--keep-runs",
            "5",
            "--pass-env",  # the stubs log where the test reads (steps get nothing unlisted)
            "STUB_LOG",
            # The stubs write that log outside the working directory, which the
            # shipped exports' sandbox: rightly forbids; their confinement is
            # tested in test_sandbox_confinement.py and test_within_exports.py.
            "--sandbox",
            "off",
            env=env,
        )
        try:
            self.server.initialize()
        except Exception as exc:
            self.server.close()
            raise AssertionError(self.server.stderr()) from exc

    def call(self, tool: str, args: dict[str, Any]) -> tuple[bool, list[list[str]]]:
        for f in self.log.iterdir():
            f.unlink()
        reply = self.server.call(tool, args)
        assert "result" in reply, reply
        text = text_of_result(reply)
        refused = bool(reply["result"].get("isError")) and "Nothing was run" in text
        calls = stub_calls(self.log)
        for c in calls:
            assert c[0] not in FORBIDDEN, (tool, args, c)
        if refused:
            assert calls == [], (tool, args, calls)
        return refused, calls


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    h = Harness(tmp_path_factory.mktemp("args"))
    yield h
    assert h.server.close() == 0
    assert "Traceback" not in h.server.stderr()


def only(calls: list[list[str]], program: str) -> list[list[str]]:
    return [c for c in calls if c[0] == program]


Check = Callable[[str, list[list[str]]], None]


def last_arg_is(program: str) -> Check:
    def check(v: str, calls: list[list[str]]) -> None:
        for c in only(calls, program):
            assert c[-1] == v and c[-2] == "--" and c.count(v) >= 1, c

    return check


CASES: dict[str, tuple[str, Callable[[str], dict[str, Any]], list[Check]]] = {
    "disk_usage": ("path", lambda v: {"path": v}, [last_arg_is("du"), last_arg_is("df")]),
    "git_log": ("path", lambda v: {"path": v}, [last_arg_is("git")]),
    "search_path": ("path", lambda v: {"pattern": "x", "path": v}, [last_arg_is("grep")]),
    "list_tree": ("path", lambda v: {"path": v}, []),
}


def _grep_pattern(v: str, calls: list[list[str]]) -> None:
    for c in only(calls, "grep"):
        assert c[c.index("-e") + 1] == v, c


@FUZZ
@given(v=values)
@pytest.mark.parametrize(
    "case", ["disk_usage", "git_log", "search_path", "search_pattern", "list_tree"]
)
def test_shipped_exports(harness: Harness, case: str, v: str) -> None:
    if case == "search_pattern":
        tool, args, checks = "search_text", {"pattern": v, "path": "."}, [_grep_pattern]
    else:
        _, make, checks = CASES[case]
        tool, args = ("search_text" if case == "search_path" else case), make(v)
    refused, calls = harness.call(tool, args)
    if not refused:
        for check in checks:
            check(v, calls)
    if "\n" in v or "\x00" in v:
        assert refused


@FUZZ
@given(v=values)
@pytest.mark.parametrize("tool", sorted(TEST_EXPORTS))
def test_accepted_test_exports(harness: Harness, tool: str, v: str) -> None:
    refused, calls = harness.call(tool, {"v": v})
    if refused:  # validation refuses only NUL, line breaks and a leading "-" in a plain string
        assert any(ch in v for ch in BREAKS) or v.startswith("-"), v
        return
    assert not v.startswith("-"), v  # leading_dash is not declared: always refused
    (probe,) = only(calls, "probe")
    assert probe[1:] == (["--", v] if tool == "q_argv" else [v]), probe


@FUZZ
@given(data=st.binary(max_size=2000))
def test_text_stats_attachment(harness: Harness, data: bytes) -> None:
    import base64

    refused, calls = harness.call("text_stats", {"file": base64.b64encode(data).decode()})
    assert not refused
    (wc,) = only(calls, "wc")
    assert Path(wc[-1]).read_bytes() == data  # the attachment, byte for byte
