"""A literal Python program given caller data is read with Python's own
parser against an allowlist (mcp_harbor/check/_python.py): what it does not
know is refused, through the checker as a whole (H005)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from mcp_harbor.check import check_export
from mcp_harbor.check._python import runs_data, writes_files
from tests.check._harness import load
from tests.check.corpus import Case

RUNS_DATA = [
    "import sys, yaml; print(yaml.load(open(sys.argv[1]), Loader=yaml.Loader))",
    "import sys, yaml\nfor d in yaml.load_all(sys.stdin, Loader=yaml.Loader): print(d)",
    "import sys, jinja2; print(jinja2.Template(sys.argv[1]).render())",
    "import sys, logging.config; logging.config.dictConfig({'x': sys.argv[1]})",
    "import os, sys; print(getattr(os, sys.argv[1]))",
    "import sys; print(sys.argv[1].__class__.__init__.__globals__)",
    "import sys, sqlite3; sqlite3.connect(':memory:').execute(sys.argv[1])",
    "import sys, pickle; pickle.loads(sys.stdin.buffer.read())",
    "from yaml import load; import sys; load(sys.stdin)",
    "import subprocess, sys; subprocess.run(sys.argv[1:])",
    "import os, sys; os.system(sys.argv[1])",
    "import sys; eval(sys.argv[1])",
    "import sys; __import__('os').system(sys.argv[1])",
    "import sys, importlib; importlib.import_module(sys.argv[1])",
    "import sys, runpy; runpy.run_path(sys.argv[1])",
    "from importlib import import_module; import sys; import_module(sys.argv[1])",
    "from importlib import metadata; import sys; metadata.entry_points()[sys.argv[1]]",
    "import sys\nif True print(1)",  # Python cannot parse it: refused
]
INERT = [
    "import sys, json; print(json.dumps({'x': sys.argv[1]}))",
    "import sys, yaml; print(yaml.safe_load(sys.stdin))",
    "import sys, csv; print(sum(1 for _ in csv.reader(sys.stdin)))",
    "import sys, sqlite3\nc = sqlite3.connect(':memory:')\n"
    "print(c.execute('select upper(?)', (sys.argv[1],)).fetchone())",
    "import os.path, sys; print(os.path.basename(sys.argv[1]))",
    "from urllib.parse import urlsplit; import sys; print(urlsplit(sys.argv[1]).hostname)",
    "import sys, importlib.metadata as m; print(m.version(sys.argv[1]))",
    "from importlib import metadata; import sys; print(metadata.version(sys.argv[1]))",
    "import sys\nif __name__ == '__main__': print(len(sys.argv[1]))",
]


@pytest.mark.parametrize("program", RUNS_DATA)
def test_a_program_that_may_run_its_data_is_named(program: str) -> None:
    assert runs_data(program) is not None


@pytest.mark.parametrize("program", INERT)
def test_a_program_of_known_inert_parts_passes(program: str) -> None:
    assert runs_data(program) is None


@pytest.mark.parametrize(
    ("program", "refused"), [(p, True) for p in RUNS_DATA[:4]] + [(p, False) for p in INERT[:3]]
)
def test_the_checker_refuses_exactly_those(program: str, refused: bool, tmp_path: Path) -> None:
    quoted = program.replace("'", "'\\''")
    run = f'python3 -c \'{quoted}\' "$ARG_x" < "$ARG_x"'
    report = check_export(load(Case("py", refused, run=run), tmp_path))
    rules = {f.rule for f in report.findings if f.severity == "error"}
    assert ("H005" in rules) is refused, report.findings


@pytest.mark.parametrize(
    ("program", "writes"),
    [
        ("import sys; print(open(sys.argv[1], newline='').read())", False),
        ("import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).namelist())", False),
        ("import sys; open(sys.argv[1], 'w').write(sys.argv[2])", True),
        ("import sys, pathlib; pathlib.Path(sys.argv[1]).write_text('x')", True),
        ("import sys, tarfile; tarfile.open(sys.argv[1]).extractall('out')", True),
        ("import sqlite3; sqlite3.connect(':memory:')", False),
        ("import sys, sqlite3; sqlite3.connect(sys.argv[1])", True),
        ("from sqlite3 import connect; import sys; connect(sys.argv[1])", True),
        ("import socket, sys; socket.socket(socket.AF_UNIX).connect(sys.argv[1])", False),
        ("import jinja2", True),  # a module the allowlist does not know
    ],
)
def test_what_a_program_may_write_is_read_from_its_calls(program: str, writes: bool) -> None:
    assert writes_files(program) is writes


#: node programs given caller data: ``require`` of a literal core module that
#: loads no code by name is no way to run it (the node grammar's `evaluates`).
NODE = [
    ('const fs = require("fs"); console.log(fs.existsSync(process.argv[1]))', False),
    ("const p = require('node:path'); console.log(p.basename(process.argv[1]))", False),
    ('require("child_process").execSync(process.argv[1])', True),
    ("require(process.argv[1])", True),
    ('const m = "fs"; require(m)', True),
]


@pytest.mark.parametrize(("program", "refused"), NODE)
def test_node_programs(program: str, refused: bool, tmp_path: Path) -> None:
    case = Case("node", refused, run=f'node -e {shlex.quote(program)} "$ARG_x"')
    report = check_export(load(case, tmp_path))
    assert (report.status == "refused") == refused, [f.message for f in report.findings]
