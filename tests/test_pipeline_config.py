"""Issue 9: the new pipeline fields at load time, the step-output file
format, and what the checker makes of ``STEP_*`` variables.

Every invalid field is refused with the file and line (and a message that
says what to write); `read_outputs` reads ``key=value`` lines and
``key<<DELIM`` blocks with the same rules as GitHub Actions, capped at 64 KiB,
and the checker treats step outputs as caller data.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harbor_helpers import harbor_cli, write_export

from mcp_harbor.check import check_export
from mcp_harbor.config import load_export
from mcp_harbor.errors import ConfigError
from mcp_harbor.runner.pipeline import OUTPUT_FILE_LIMIT, read_outputs

HEAD = 'name: x\ndescription: d\nsteps:\n  - name: build\n    run: "true"\n'


def problem_of(tmp_path: Path, text: str) -> str:
    path = write_export(tmp_path, "x.yaml", text)
    with pytest.raises(ConfigError) as info:
        load_export(path)
    return str(info.value)


# --- retry: ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("retry", "needle"),
    [
        (
            "{attempts: 0}",
            "x.yaml:6: steps[0].retry.attempts: Input should be greater than or equal to 1",
        ),
        (
            "{attempts: 21}",
            "x.yaml:6: steps[0].retry.attempts: Input should be less than or equal to 20",
        ),
        ("{attempts: 2, tries: 3}", "x.yaml:6: unknown key 'tries' at steps[0].retry.tries"),
        ("{delay: 1}", "x.yaml:6: missing required key 'steps[0].retry.attempts'"),
        (
            "{attempts: 2, delay: -1}",
            "x.yaml:6: steps[0].retry.delay: Input should be greater than or equal to 0",
        ),
        ("{attempts: '3'}", "x.yaml:6: steps[0].retry.attempts: Input should be a valid integer"),
        (
            "3",
            "x.yaml:6: steps[0].retry: Input should be a valid dictionary or instance of RetrySpec",
        ),
    ],
)
def test_invalid_retry(tmp_path: Path, retry: str, needle: str) -> None:
    problem = problem_of(tmp_path, HEAD + f"    retry: {retry}\n")
    assert needle in problem, problem


def test_valid_retry(tmp_path: Path) -> None:
    export = load_export(
        write_export(tmp_path, "x.yaml", HEAD + "    retry: {attempts: 3, delay: 0.5}\n")
    )
    retry = export.steps[0].spec.retry
    assert retry is not None and (retry.attempts, retry.delay) == (3, 0.5)


# --- on_failure: / finally: ------------------------------------------------------


def test_valid_hooks_compile_in_their_sections(tmp_path: Path) -> None:
    text = HEAD + (
        "on_failure:\n  - name: notify\n    run: echo failed\n    timeout: 5\n"
        'finally:\n  - name: clean\n    argv: ["true"]\n'
    )
    export = load_export(write_export(tmp_path, "x.yaml", text))
    assert [(s.name, s.section, s.index) for s in export.all_steps] == [
        ("build", "steps", 0),
        ("notify", "on_failure", 0),
        ("clean", "finally", 0),
    ]
    assert export.on_failure[0].spec.timeout == 5


@pytest.mark.parametrize(
    ("tail", "needle"),
    [
        (
            "on_failure:\n  - name: build\n    run: echo again\n",
            "x.yaml:7: step name 'build' is used twice (first at line 4)",
        ),
        (
            "on_failure:\n  - name: n\n    run: echo a\nfinally:\n  - name: n\n    run: echo b\n",
            "x.yaml:10: step name 'n' is used twice (first at line 7)",
        ),
        (
            "finally:\n  - name: build\n    run: echo b\n",
            "x.yaml:7: step name 'build' is used twice",
        ),
        ("finally:\n  - name: c\n", "x.yaml:7: finally[0]: a step needs exactly one of `run:`"),
        (
            "on_failure:\n  - name: c\n    run: x\n    retries: 2\n",
            "x.yaml:9: unknown key 'retries' at on_failure[0].retries (did you mean 'retry'?)",
        ),
        (
            "finally:\n  - name: c\n    run: x\n    timeout: 0\n",
            "x.yaml:9: finally[0].timeout: Input should be greater than 0",
        ),
        ("finally: {name: c, run: x}\n", "x.yaml:6: finally: Input should be a valid list"),
        (
            "on_failure:\n  - name: 1bad\n    run: x\n",
            "x.yaml:7: on_failure[0].name: '1bad' is not a valid name",
        ),
    ],
)
def test_invalid_hooks(tmp_path: Path, tail: str, needle: str) -> None:
    problem = problem_of(tmp_path, HEAD + tail)
    assert needle in problem, problem


# --- needs: ----------------------------------------------------------------------


def test_valid_needs(tmp_path: Path) -> None:
    text = HEAD + (
        "needs:\n  env: [HOME, API_TOKEN]\n  files: [data/, ../shared.txt]\n"
        "  programs: [git, python3.11]\n  tcp: ['127.0.0.1:5432', 'db.internal:6379', '[::1]:80']\n"
    )
    needs = load_export(write_export(tmp_path, "x.yaml", text)).spec.needs
    assert needs.env == ["HOME", "API_TOKEN"] and needs.programs == ["git", "python3.11"]
    assert needs.tcp == ["127.0.0.1:5432", "db.internal:6379", "[::1]:80"]


@pytest.mark.parametrize(
    ("needs", "needle"),
    [
        ("{env: [1BAD]}", "x.yaml:6: needs.env[0]: '1BAD' is not a valid name"),
        ("{env: [API-TOKEN]}", "'API-TOKEN' is not a valid name"),
        ("{tcp: [localhost]}", "x.yaml:6: needs.tcp[0]: 'localhost' is not a valid name"),
        ("{tcp: ['db:port']}", "'db:port' is not a valid name"),
        ("{tcp: ['db:123456']}", "'db:123456' is not a valid name"),
        ("{tcp: ['a b:80']}", "'a b:80' is not a valid name"),
        ("{programs: ['git; rm']}", "'git; rm' is not a valid name"),
        ("{files: ['']}", "x.yaml:6: needs.files[0]: String should have at least 1 character"),
        ("{service: [db]}", "x.yaml:6: unknown key 'service' at needs.service"),
        ("{env: HOME}", "x.yaml:6: needs.env: Input should be a valid list"),
    ],
)
def test_invalid_needs(tmp_path: Path, needs: str, needle: str) -> None:
    problem = problem_of(tmp_path, HEAD + f"needs: {needs}\n")
    assert needle in problem, problem


def test_invalid_needs_on_their_own_lines(tmp_path: Path) -> None:
    text = HEAD + "needs:\n  env:\n    - HOME\n    - 9LIVES\n  tcp:\n    - ok:80\n    - nope\n"
    problem = problem_of(tmp_path, text)
    assert "x.yaml:9: needs.env[1]: '9LIVES'" in problem, problem
    assert "x.yaml:12: needs.tcp[1]: 'nope'" in problem, problem


# --- step outputs: the file format -----------------------------------------------


def outputs(tmp_path: Path, data: bytes | str) -> dict[str, str]:
    path = tmp_path / "out"
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return read_outputs(path)


def test_key_value_lines_and_blocks(tmp_path: Path) -> None:
    text = (
        "plain=hello world\n"
        "empty=\n"
        "eq=a=b=c\n"
        "crlf=yes\r\n"
        "notes<<EOF\nline one\n  line two = not a key\nEOF\n"
        "after=still read\n"
        "raw<<END_MARK\n$(touch pwned) `id` 'q' \"dq\"\nEND_MARK\n"
        "plain=second wins\n"
    )
    assert outputs(tmp_path, text) == {
        "plain": "second wins",
        "empty": "",
        "eq": "a=b=c",
        "crlf": "yes",
        "notes": "line one\n  line two = not a key",
        "after": "still read",
        "raw": "$(touch pwned) `id` 'q' \"dq\"",
    }


def test_invalid_keys_and_reserved_keys_are_ignored(tmp_path: Path) -> None:
    text = (
        "good=1\n"
        "1bad=x\n"
        "has-dash=x\n"
        "has space=x\n"
        "=novalue\n"
        "just a line\n"
        "EXIT=0\n"
        "STATUS=ok\n"
        "_under=ok\n"
        "bad key<<EOF\nbody\nEOF\n"
    )
    assert outputs(tmp_path, text) == {"good": "1", "_under": "ok"}


def test_an_unterminated_block_takes_the_rest(tmp_path: Path) -> None:
    assert outputs(tmp_path, "a=1\nb<<EOF\nx\ny") == {"a": "1", "b": "x\ny"}


def test_missing_file_and_binary_garbage(tmp_path: Path) -> None:
    assert read_outputs(tmp_path / "absent") == {}
    assert outputs(tmp_path, b"k=\xff\xfe\nz=1\n") == {"k": "\ufffd\ufffd", "z": "1"}


def test_only_the_first_64_kib_is_read(tmp_path: Path) -> None:
    assert OUTPUT_FILE_LIMIT == 64 * 1024
    big = "a=" + "x" * (OUTPUT_FILE_LIMIT - 3) + "\n"  # exactly 64 KiB
    got = outputs(tmp_path, big + "late=1\n")
    assert len(got["a"]) == OUTPUT_FILE_LIMIT - 3 and "late" not in got
    huge = outputs(tmp_path, "k=" + "y" * (10 * OUTPUT_FILE_LIMIT))
    assert len(huge["k"]) == OUTPUT_FILE_LIMIT - 2


def test_output_keys_cannot_pose_as_the_runtimes_inert_variables(tmp_path: Path) -> None:
    """The checker trusts ``STEP_<name>_EXIT``/``_STATUS`` as the runtime's
    own; a key ``x_EXIT`` would make ``STEP_first_x_EXIT`` carry caller data
    under that trusted name, so such keys are ignored like EXIT itself."""
    got = outputs(tmp_path, "x_EXIT=payload\ny_STATUS=ok\nEXITS=kept\nSTATUS_x=kept\n")
    assert got == {"EXITS": "kept", "STATUS_x": "kept"}


# --- the checker: step outputs are caller data ------------------------------------

PRODUCER = """
name: {name}
description: A later step reads what an earlier one wrote from a caller arg.
args:
  v: {{type: string, maxLength: 100}}
steps:
  - name: first
    run: printf 'key=%s\\n' "$ARG_v" >> "$HARBOR_STEP_OUTPUT"
  - name: second
    run: |
{body}
"""


VARIANTS = {
    "evals": 'eval "$STEP_first_key"',
    "runs": '"$STEP_first_key" --version',
    "pycode": 'python3 -c "$STEP_first_key"',
    "unquoted": "printf '%s\\n' $STEP_first_key",
    "quoted": 'cat -- "$STEP_first_key"\nprintf "%s\\n" "$STEP_first_key" "$STEP_first_STATUS"',
    # The runtime's own exit code and status are not caller data.
    "inert": "exit $STEP_first_EXIT\necho $STEP_first_STATUS",
}


def test_checker_treats_step_outputs_as_caller_data(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    for name, body in VARIANTS.items():
        indented = "\n".join("      " + line for line in body.splitlines())
        write_export(folder, f"{name}.yaml", PRODUCER.format(name=name, body=indented))
    proc = harbor_cli("check", str(folder), check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()

    def findings(name: str) -> str:
        return "\n".join(line for line in lines if f"/{name}.yaml:" in line)

    assert "evals.yaml:10:" in findings("evals") and "H004" in findings("evals")
    assert "H003" in findings("runs")
    assert "H005" in findings("pycode")
    unquoted = findings("unquoted")
    assert "W102" in unquoted and "`$STEP_first_key` is unquoted" in unquoted
    assert "[error]" not in unquoted
    assert findings("quoted") == "" and findings("inert") == ""
    assert "6 exports checked: 3 accepted, 3 refused (1 warnings)" in proc.stdout

    # --strict: the unquoted expansion refuses its export too; the others stay accepted.
    for name in ("unquoted", "quoted", "inert"):
        report = check_export(load_export(folder / f"{name}.yaml"))
        assert report.refused_under(True) is (name == "unquoted"), report.findings
