"""ATTACKS17 (tests/check/attacks.py): the checker's verdicts, and the
dynamic oracle's proof that the labels are true.

(a) every dangerous case is refused and every safe one accepted;
(b) every exercisable dangerous case really runs a payload (or leaks the
    canary file) in the sandbox, with its own values first, then the battery
    of test_oracle.ATTACKS;
(c) no safe case ever does, whatever the values; and no case the checker
    accepts does (the accepted dangerous ones are listed with the value
    that got through).

The sandbox is test_oracle's (`_sandbox.build`) with a folder in front of it
on PATH: real programs whose option parsing or -c handling is the point
(git, make, tar, flock, script, …) and stubs that do what the real program
does with its command (su/runuser/sg run ``-c`` through ``sh -c``, ssh runs
``ProxyCommand`` and its remote command, …). The steps are run as the runner
runs them: ``HARBOR_CALLER_*`` are the caller's values, ``HARBOR_CONTEXT`` a
context.json with the args, the caller and earlier steps' outputs, and
``STEP_<step>_<key>`` the outputs of earlier steps.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from mcp_harbor.arguments import ArgumentValidator
from mcp_harbor.check import check_exports
from mcp_harbor.config import Export, load_export
from mcp_harbor.errors import ArgumentError
from mcp_harbor.runner.pipeline import read_outputs
from mcp_harbor.template import value_text
from tests.check import _sandbox
from tests.check._harness import Case, write
from tests.check.attacks import (
    ATTACKS17,
    INERT_SINCE_NOT_EXPORTED,
    LEAK_PROOF,
    NOT_EXERCISABLE,
    OPTION_PAYLOADS,
    PAYLOADS,
    REFUSED_BY_DESIGN,
    Payload,
    class_of,
)
from tests.check.test_oracle import ATTACKS

CANARY_TEXT = "hb-canary-content-5e1f"

_BY_ID = {case.id: case for case in ATTACKS17}
_DANGEROUS = [c.id for c in ATTACKS17 if c.dangerous and c.id not in NOT_EXERCISABLE]
_SAFE = [c.id for c in ATTACKS17 if not c.dangerous and c.id not in NOT_EXERCISABLE]

# ---------------------------------------------------------------- sandbox

#: Real programs put in front of test_oracle's stubs.
_EXTRA_REAL = (
    "git",
    "make",
    "tar",
    "zip",
    "unzip",
    "gzip",
    "split",
    "date",
    "flock",
    "script",
    "setarch",
    "setpriv",
    "stdbuf",
    "setsid",
    "cut",
    "printenv",
    "tee",
)


def _option_probe(more: str = "") -> str:
    words = "|".join("'" + w.replace("'", "'\"'\"'") + "'" for w in OPTION_PAYLOADS)
    return (
        "# a getopt-style program: a caller's option before -- leaves the marker\n"
        'for a do case "$a" in\n'
        "  --) break ;;\n"
        f'  {words}) : > "$HB_MARKER/pwned" ;;\n'
        f"{more}"
        '  -[0-9]*) case "${a#-}" in *[!0-9]*) ;; *) : > "$HB_MARKER/pwned" ;; esac ;;\n'
        "esac; done\nexit 0\n"
    )


_SU = (
    "# su/runuser: -c CMD runs through the shell; runuser -u USER [--] CMD execs\n"
    'cmd= u= have_cmd=\nwhile [ "$#" -gt 0 ]; do case "$1" in\n'
    "  -c|--command|--session-command) cmd=$2; have_cmd=1; shift 2 ;;\n"
    "  --command=*|--session-command=*) cmd=${1#*=}; have_cmd=1; shift ;;\n"
    "  -c?*) cmd=${1#-c}; have_cmd=1; shift ;;\n"
    "  -u|--user) u=$2; shift 2 ;;\n"
    "  -s|--shell|-g|--group|-G|--supp-group|-w|--whitelist-environment) shift 2 ;;\n"
    "  --) shift; break ;;\n"
    "  -) shift ;;\n  -*) shift ;;\n"
    '  *) if [ -n "$u" ]; then break; fi; u=$1; shift ;;\n'
    "esac; done\n"
    'if [ -n "$have_cmd" ]; then exec sh -c "$cmd" "$@"; fi\n'
    'if [ "$#" -gt 0 ]; then exec "$@"; fi\nexec sh\n'
)

_STUBS: dict[str, str] = {
    "mytool": _option_probe(),
    "othertool": _option_probe(),
    "rm": _option_probe(),
    # pytest writes its JUnit report where --junitxml= says
    "pytest": _option_probe('  --junitxml=*|--junit-xml=*) : > "${a#*=}" ;;\n'),
    "su": _SU,
    "runuser": _SU,
    "sg": (
        "# sg [-] GROUP [-c] COMMAND: the command goes to sh -c\n"
        '[ "$1" = - ] && shift\nshift\n[ "$1" = -c ] && shift\n'
        'if [ "$#" -gt 0 ]; then exec sh -c "$1"; fi\nexec sh\n'
    ),
    "ssh": (
        "# ssh: ProxyCommand runs locally; the remote command (or, without one,\n"
        "# the login shell reading stdin) runs through sh -c\n"
        "proxy=\n"
        'opt() { case "$1" in\n'
        "  [Pp][Rr][Oo][Xx][Yy][Cc][Oo][Mm][Mm][Aa][Nn][Dd]=*) proxy=${1#*=} ;;\n"
        "  [Pp][Rr][Oo][Xx][Yy][Cc][Oo][Mm][Mm][Aa][Nn][Dd]\\ *) proxy=${1#* } ;;\n"
        "esac; }\n"
        'while [ "$#" -gt 0 ]; do case "$1" in\n'
        "  --) shift; break ;;\n"
        '  -o) opt "$2"; shift 2 ;;\n'
        '  -o*) opt "${1#-o}"; shift ;;\n'
        "  -[BbcDEeFIiJLlmOpQRSWw]) shift 2 ;;\n"
        "  -?*) shift ;;\n"
        "  *) break ;;\n"
        "esac; done\n"
        '[ "$#" -gt 0 ] && shift\n'
        '[ -n "$proxy" ] && sh -c "$proxy" < /dev/null\n'
        'if [ "$#" -gt 0 ]; then exec sh -c "$*"; fi\nexec sh\n'
    ),
    "ssh-agent": (
        "# ssh-agent [options] [COMMAND [ARG...]]: runs COMMAND\n"
        'while [ "$#" -gt 0 ]; do case "$1" in\n'
        "  -[aEPtO]) shift 2 ;; --) shift; break ;; -*) shift ;; *) break ;;\n"
        "esac; done\n"
        'if [ "$#" -gt 0 ]; then exec "$@"; fi\nexit 0\n'
    ),
    "fakeroot": (
        "# fakeroot [options] [--] [COMMAND [ARG...]]: runs COMMAND (default: a shell)\n"
        'while [ "$#" -gt 0 ]; do case "$1" in\n'
        "  -l|--lib|--faked|-i|-s|-b) shift 2 ;; --) shift; break ;; -*) shift ;; *) break ;;\n"
        "esac; done\n"
        'if [ "$#" -gt 0 ]; then exec "$@"; fi\nexec sh\n'
    ),
    "npx": (
        "# npx -c CMD runs CMD through the shell; npx PKG runs PKG's program\n"
        'while [ "$#" -gt 0 ]; do case "$1" in\n'
        '  -c|--call) exec sh -c "$2" ;;\n'
        '  --call=*) exec sh -c "${1#*=}" ;;\n'
        "  -p|--package) shift 2 ;; --) shift; break ;; -*) shift ;; *) break ;;\n"
        "esac; done\n"
        'if [ "$#" -gt 0 ]; then exec "$@"; fi\nexit 0\n'
    ),
    "gdb": (
        "# gdb: -ex 'shell CMD' runs CMD; -ex run with --args PROG runs PROG\n"
        "run=\n"
        'gcmd() { case "$1" in\n'
        '  shell\\ *) sh -c "${1#shell }" ;; !*) sh -c "${1#!}" ;; run|r) run=1 ;;\n'
        "esac; }\n"
        'while [ "$#" -gt 0 ]; do case "$1" in\n'
        '  -ex|--ex|-eval-command|--eval-command) gcmd "$2"; shift 2 ;;\n'
        '  -ex=*|--ex=*|-eval-command=*|--eval-command=*) gcmd "${1#*=}"; shift ;;\n'
        "  -x|--command|-cd|--cd|-p|--pid|-d|--directory|-iex|-ix) shift 2 ;;\n"
        "  --args) shift; break ;;\n"
        "  --) shift; break ;;\n"
        "  *) shift ;;\n"
        "esac; done\n"
        'if [ -n "$run" ] && [ "$#" -gt 0 ]; then exec "$@"; fi\nexit 0\n'
    ),
}

#: Added to the sandbox's environment. SHELL: steps inherit the server's
#: environment, where it is set (make 4.3 evaluates ``x:=$(shell …)`` on the
#: command line through $SHELL, and fails without it).
_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "SHELL": "/bin/sh",
}


def _git(repo: Path, env: Mapping[str, str], *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), *args],
        env=dict(env),
        check=True,
        capture_output=True,
        timeout=30,
    )


def build(root: Path) -> dict[str, str]:
    """test_oracle's sandbox with the extra programs in front, a canary file,
    a data archive and a template git repository; returns the base env."""
    env = _sandbox.build(root)
    extra = root / "extra"
    extra.mkdir()
    for name in _EXTRA_REAL:
        found = shutil.which(name, path="/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin")
        if found:
            (extra / name).symlink_to(found)
    for name, body in _STUBS.items():
        path = extra / name
        path.write_text("#!/bin/sh\n" + body)
        path.chmod(0o755)
    env = {**env, **_ENV, "PATH": f"{extra}:{env['PATH']}"}
    (root / "secret.txt").write_text(CANARY_TEXT + "\n")
    data = root / "data.txt"
    data.write_text("alpha\nbeta\n")
    with tarfile.open(root / "data.tar", "w") as tar:
        tar.add(data, arcname="data.txt")
    repo = root / "repo"
    repo.mkdir()
    git_env = {**env, "PATH": "/usr/bin:/bin"}
    _git(repo, git_env, "init", "-q", "-b", "main")
    _git(repo, git_env, "config", "user.name", "T")
    _git(repo, git_env, "config", "user.email", "t@example.com")
    (repo / "README").write_text("HEAD TODO\n")
    _git(repo, git_env, "add", "README")
    _git(repo, git_env, "commit", "-q", "-m", "one")
    _git(repo, git_env, "checkout", "-q", "-b", "feature")
    (repo / "README").write_text("HEAD TODO\nmore\n")
    _git(repo, git_env, "commit", "-q", "-am", "two")
    _git(repo, git_env, "remote", "add", "origin", str(repo))
    return env


def _prepare(root: Path, workdir: Path, needs_git: bool) -> None:
    if needs_git:
        shutil.copytree(root / "repo", workdir, symlinks=True)
    else:
        workdir.mkdir()
    (workdir / "Makefile").write_text("all:\n\t@true\n%:\n\t@true\n")
    shutil.copy(root / "data.txt", workdir / "data.txt")
    shutil.copy(root / "data.tar", workdir / "data.tar")
    (workdir / "app.conf").write_text("version=1.0\n")
    (workdir / "out").mkdir()
    (workdir / "run" / "steps").mkdir(parents=True)


# ---------------------------------------------------------------- runner


def _substitute(value: object, marker: Path, root: Path) -> object:
    if isinstance(value, str):
        return value.replace("{MARKER}", str(marker)).replace("{CANARY}", str(root / "secret.txt"))
    return value


def _caller_env(text: str, override: Mapping[str, str]) -> dict[str, str]:
    env = {
        "HARBOR_CALLER_CLIENT": text,
        "HARBOR_CALLER_CLIENT_VERSION": text,
        "HARBOR_CALLER_REQUEST_ID": text,
        "HARBOR_CALLER_SESSION": text,
        "HARBOR_CALLER_REMOTE_ADDR": text,
    }
    env.update(override)
    return env


def run_export(
    export: Export,
    values: Mapping[str, Any],
    caller: Mapping[str, str],
    base: Mapping[str, str],
    workdir: Path,
) -> tuple[bool, bool, str]:
    """Run every step of `export` as the runner does; returns (the marker was
    left, the canary's content was printed, the steps' output)."""
    run_dir = workdir / "run"
    context_path = run_dir / "context.json"
    outcomes: dict[str, dict[str, Any]] = {}
    step_env: dict[str, str] = {}
    shown = b""
    for number, step in enumerate(export.steps, 1):
        context = {
            "version": 1,
            "caller": {
                "client_name": caller["HARBOR_CALLER_CLIENT"],
                "client_version": caller["HARBOR_CALLER_CLIENT_VERSION"],
                "request_id": caller["HARBOR_CALLER_REQUEST_ID"],
                "principal": "alice",
            },
            "tool": {"name": export.name},
            "arguments": dict(values),
            "steps": outcomes,
        }
        context_path.write_text(json.dumps(context), encoding="utf-8")
        output_file = run_dir / "steps" / f"{number}-{step.name}.output"
        extra = {
            "HARBOR_RUN_ID": "20250101T000000-5e1f9a",
            "HARBOR_RUN_DIR": str(run_dir),
            "HARBOR_TOOL": export.name,
            "HARBOR_STEP": step.name,
            "HARBOR_CONTEXT": str(context_path),
            "HARBOR_OUTPUT": str(run_dir / "output.json"),
            **caller,
            **dict(step.spec.env),
            **step_env,
            "HARBOR_STEP_OUTPUT": str(output_file),
        }
        proc = _sandbox.run_step(step, values, base, workdir, extra)
        shown += proc.stdout + proc.stderr
        outputs = read_outputs(output_file)
        status = "ok" if proc.returncode == 0 else "failed"
        outcomes[step.name] = {"status": status, "exit_code": proc.returncode, "outputs": outputs}
        step_env[f"STEP_{step.name}_EXIT"] = str(proc.returncode)
        step_env[f"STEP_{step.name}_STATUS"] = status
        for key, value in outputs.items():
            step_env[f"STEP_{step.name}_{key}"] = value
        if proc.returncode != 0:
            break  # the runner skips the later steps
    text = shown.decode("utf-8", "replace")
    return _sandbox.marker_set(base), CANARY_TEXT in text, text


def _payloads(case: Case, export: Export) -> Iterator[tuple[Payload, bool]]:
    """The case's own payloads (True), then the battery on every arg (False)."""
    for payload in PAYLOADS.get(case.id, ()):
        yield payload, True
    for attack in ATTACKS:
        yield Payload(dict.fromkeys(export.arg_schemas, attack)), False


class _Oracle:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.base = build(root)
        self.count = 0

    def attempts(self, case: Case) -> Iterator[tuple[dict[str, Any], bool, bool, str]]:
        """Each validated payload run on `case`: (values, marker, leak, output)."""
        assert case.id not in NOT_EXERCISABLE, case.id  # kill -1 is never run
        folder = self.root / "exports"
        folder.mkdir(exist_ok=True)
        self.count += 1
        export = load_export(write(case, folder, self.count))
        validator = ArgumentValidator(export)
        needs_git = "git" in json.dumps(case.document())
        for payload, own in _payloads(case, export):
            self.count += 1
            work = self.root / f"run{self.count}"
            markers = self.root / "markers" / f"m{self.count}"
            markers.mkdir(parents=True)
            base = {**self.base, "HB_MARKER": str(markers)}
            raw = {k: _substitute(v, markers / "pwned", self.root) for k, v in payload.args.items()}
            try:
                values = validator.validate(raw)
            except ArgumentError:
                if own:
                    raise  # a case's own payload must be a valid call
                continue
            text = next((value_text(v) for v in values.values()), "")
            caller = _caller_env(text, payload.env)
            _prepare(self.root, work, needs_git)
            try:
                hit, leak, out = run_export(export, values, caller, base, work)
            finally:
                shutil.rmtree(work, ignore_errors=True)
            yield values, hit, leak, out


@pytest.fixture(scope="module")
def oracle(tmp_path_factory: pytest.TempPathFactory) -> _Oracle:
    return _Oracle(tmp_path_factory.mktemp("attacks"))


# ---------------------------------------------------------------- (a) checker


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, list[str]]]:
    folder = tmp_path_factory.mktemp("attack-exports")
    exports = [load_export(write(case, folder, i)) for i, case in enumerate(ATTACKS17)]
    reports = check_exports(exports)
    return {
        case.id: (report.status, [f.rule for f in report.findings])
        for case, report in zip(ATTACKS17, reports, strict=True)
    }


@pytest.mark.parametrize("case_id", [c.id for c in ATTACKS17])
def test_checker_verdict(case_id: str, verdicts: dict[str, tuple[str, list[str]]]) -> None:
    case = _BY_ID[case_id]
    status, rules = verdicts[case_id]
    expected = "refused" if case.dangerous or case_id in REFUSED_BY_DESIGN else "accepted"
    assert status == expected, f"{case_id}: {status} {rules}\n{case.document()['steps']}"


# ---------------------------------------------------------------- (b) (c) oracle


@pytest.mark.parametrize("case_id", _DANGEROUS)
def test_dangerous_case_runs_a_payload(case_id: str, oracle: _Oracle) -> None:
    case = _BY_ID[case_id]
    tried = 0
    for _values, hit, leak, _out in oracle.attempts(case):
        tried += 1
        if hit or (leak and case_id in LEAK_PROOF):
            return
    pytest.fail(f"{case_id}: no payload ran in {tried} attempts")


@pytest.mark.parametrize("case_id", _SAFE)
def test_safe_case_never_runs_a_payload(case_id: str, oracle: _Oracle) -> None:
    case = _BY_ID[case_id]
    tried = 0
    for values, hit, leak, out in oracle.attempts(case):
        tried += 1
        assert not hit and not leak, f"{case_id}: {values!r} ran a payload\n{out[-2000:]}"
    assert tried > 0, f"{case_id}: no value was valid"


def test_no_accepted_case_runs_a_payload(
    verdicts: dict[str, tuple[str, list[str]]], oracle: _Oracle
) -> None:
    """test_oracle's property on ATTACKS17: nothing the checker accepts runs a
    payload. The safe cases are run above; this runs the dangerous cases the
    checker accepts, and names the value that got through."""
    exploits = []
    for case in ATTACKS17:
        if not case.dangerous or case.id in NOT_EXERCISABLE:
            continue
        if verdicts[case.id][0] != "accepted":
            continue
        for values, hit, leak, _out in oracle.attempts(case):
            if hit or (leak and case.id in LEAK_PROOF):
                exploits.append(f"{case.id}: {values!r}")
                break
    assert exploits == [], "accepted, and a payload ran:\n" + "\n".join(exploits)


# ---------------------------------------------------------------- the set itself


def test_attack_set_shape() -> None:
    ids = [c.id for c in ATTACKS17]
    assert len(ids) == len(set(ids))
    for n in range(1, 10):
        cls = [c for c in ATTACKS17 if class_of(c) == f"c{n}"]
        assert sum(c.dangerous for c in cls) >= 8, f"c{n}"
        assert sum(not c.dangerous for c in cls) >= 3, f"c{n}"
    assert set(PAYLOADS) <= set(ids)
    assert set(NOT_EXERCISABLE) <= set(ids)
    assert set(REFUSED_BY_DESIGN) <= {c.id for c in ATTACKS17 if not c.dangerous}
    # safe since ARG_* are not exported; the oracle runs them as safe cases
    assert {c.id for c in ATTACKS17 if not c.dangerous} >= INERT_SINCE_NOT_EXPORTED
    assert set(ids) >= LEAK_PROOF
    assert len(NOT_EXERCISABLE) <= 6  # each with its reason
    assert all(reason for reason in NOT_EXERCISABLE.values())
