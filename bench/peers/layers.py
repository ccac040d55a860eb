"""Table 6: what each layer of a call costs, measured in-process by calling
mcp-harbor's library functions directly, and a summary of a py-spy profile of
the server taken during a latency run."""

from __future__ import annotations

import collections
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio

from peers import write_harbor_exports

ECHO = "hello from the side-by-side benchmark"


def _per_call_us(fn: Callable[[], object], iterations: int, batches: int = 5) -> float:
    per = max(1, iterations // batches)
    out = []
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(per):
            fn()
        out.append((time.perf_counter() - t0) / per * 1e6)
    return statistics.median(out)


async def _per_call_us_async(fn: Callable[[], Any], iterations: int, batches: int = 5) -> float:
    per = max(1, iterations // batches)
    out = []
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(per):
            await fn()
        out.append((time.perf_counter() - t0) / per * 1e6)
    return statistics.median(out)


async def measure(folder: Path, iterations: int) -> list[dict[str, Any]]:
    from mcp_harbor.arguments import ArgumentValidator
    from mcp_harbor.check import check_export
    from mcp_harbor.config.loader import load_export
    from mcp_harbor.identity import Caller
    from mcp_harbor.runctx.context import compose
    from mcp_harbor.runctx.envelope import finish
    from mcp_harbor.runner import new_run_dir, new_run_id
    from mcp_harbor.runner.result import RunResult, StepResult
    from mcp_harbor.server.results import tool_result
    from mcp_harbor.store.audit import AuditTrail
    from mcp_harbor.store.sqlite import SqliteStore

    exports = write_harbor_exports(folder / "exports")
    export = load_export(exports / "echo_text.yaml")
    validator = ArgumentValidator(export)
    caller = Caller(
        transport="stdio",
        principal="bench",
        session="s1",
        request_id="1",
        protocol_version="2026-07-28",
        client_name="bench",
        client_version="1",
    )
    rows: list[dict[str, Any]] = []

    def add(layer: str, what: str, us: float) -> None:
        rows.append({"layer": layer, "what": what, "us": us})

    add(
        "argument validation",
        "ArgumentValidator.validate({'text': …})",
        _per_call_us(lambda: validator.validate({"text": ECHO}), iterations),
    )
    check_export(export)
    add(
        "checker cache lookup",
        "check_export(export), report cached by content hash",
        _per_call_us(lambda: check_export(export), iterations),
    )
    runs = folder / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    n = max(200, iterations // 10)
    add(
        "run directory",
        "new_run_dir(root, new_run_id(), keep=100) (mkdir + prune scan)",
        _per_call_us(lambda: new_run_dir(runs, new_run_id(), 100), n),
    )
    run_dir = new_run_dir(runs, new_run_id(), 0)
    values = validator.validate({"text": ECHO})

    def do_compose() -> Any:
        return compose(
            export=export,
            caller=caller,
            run_id="20261129T000000Z-0123456789",
            run_dir=run_dir,
            arguments=values,
            timeout=600,
        )

    add(
        "run-context composition",
        "runctx.compose(...) incl. writing context.json",
        _per_call_us(do_compose, iterations // 2),
    )
    context = do_compose()
    step = StepResult(
        name="echo",
        status="ok",
        exit_code=0,
        duration_ms=3.1,
        command='echo "$ARG_text"',
        stdout_tail=ECHO + "\n",
        stdout_bytes=len(ECHO) + 1,
        stdout_log=str(run_dir / "steps/1-echo.stdout.log"),
        stderr_log=str(run_dir / "steps/1-echo.stderr.log"),
        cwd=str(folder),
        env_names=["ARG_text", "HARBOR_RUN_ID"],
    )
    result = RunResult(
        run_id="20261129T000000Z-0123456789",
        tool="echo_text",
        status="ok",
        exit_code=0,
        duration_ms=6.0,
        run_dir=str(run_dir),
        steps=[step],
    )
    add(
        "envelope",
        "runctx.finish(context, result) + Envelope.dumps()",
        _per_call_us(lambda: finish(context, result).dumps(), iterations),
    )
    envelope = finish(context, result)
    add(
        "MCP result",
        "server.results.tool_result(envelope, False)",
        _per_call_us(lambda: tool_result(envelope, False), iterations),
    )

    store = SqliteStore(folder / "audit.db")
    trail = AuditTrail(store)
    counter = iter(range(10**9))

    async def audit_pair() -> None:
        call_id = f"20261129T000000Z-{next(counter):010d}"
        await trail.started(
            call_id, caller, "echo_text", export.content_hash, {"text": ECHO}, str(run_dir)
        )
        await trail.finished(caller, result, call_id=call_id, tool="echo_text", status="ok")

    await audit_pair()
    add(
        "audit",
        "AuditTrail.started + finished on a real SQLite file (2 thread hops, 2 commits)",
        await _per_call_us_async(audit_pair, max(200, iterations // 10)),
    )

    def append_pair() -> None:
        call_id = f"20261129T000000Z-{next(counter):010d}"
        store.append(call_id, "start", "bench", "echo_text", "running", {"text": ECHO})
        store.append(call_id, "end", "bench", "echo_text", "ok", {"status": "ok"})

    add(
        "audit (store only)",
        "SqliteStore.append × 2, no thread hop",
        _per_call_us(append_pair, max(200, iterations // 10)),
    )
    store.close()
    await anyio.sleep(0)
    return rows


# ------------------------------------------------------------------ py-spy

#: (label, substring of a py-spy frame "function (file:line)")
_WATCH = [
    ("Handlers.call_tool (whole handler)", "call_tool (mcp_harbor/server/handlers.py"),
    ("CallService.call", "call (mcp_harbor/runctx/service.py"),
    ("ArgumentValidator.validate", "validate (mcp_harbor/arguments.py"),
    ("new_run_dir", "new_run_dir (mcp_harbor/runner/rundir.py"),
    ("runctx.compose", "compose (mcp_harbor/runctx/context.py"),
    ("AuditTrail._append (event loop side)", "_append (mcp_harbor/store/audit.py"),
    ("SqliteStore.append (worker thread)", "append (mcp_harbor/store/sqlite.py"),
    ("executor/pipeline run", "run (mcp_harbor/runner/pipeline.py"),
    ("process: run_in_group", "run_in_group (mcp_harbor/runner/process.py"),
    ("anyio open_process", "open_process (anyio/_core/_subprocesses.py"),
    ("subprocess Popen._execute_child", "_execute_child (subprocess.py"),
    ("process: _group_members (/proc scan)", "_group_members (mcp_harbor/runner/process.py"),
    ("runctx.finish (envelope)", "finish (mcp_harbor/runctx/envelope.py"),
    ("server.results.tool_result", "tool_result (mcp_harbor/server/results.py"),
    ("SDK: JSON-RPC/pydantic validate_json", "validate_json"),
    ("SDK: model_dump_json / serialization", "model_dump_json"),
    ("stdio write (SDK)", "stdout_writer"),
    ("asyncio child watcher thread", "_do_waitpid"),
]


def summarize_pyspy(raw: Path, calls: int, wall: float, client_median_ms: float) -> dict[str, Any]:
    """Inclusive samples per watched function from py-spy's ``--raw`` output
    (collapsed stacks: ``frame;frame;... count``), at 1 kHz."""
    total = 0
    per_label: collections.Counter[str] = collections.Counter()
    threads: set[str] = set()
    top_self: collections.Counter[str] = collections.Counter()
    for line in raw.read_text().splitlines():
        stack, _, count_s = line.rpartition(" ")
        try:
            count = int(count_s)
        except ValueError:
            continue
        frames = stack.split(";")
        threads.add(frames[0] if frames and frames[0].startswith(("thread", "process")) else "?")
        total += count
        seen = set()
        for label, needle in _WATCH:
            if label not in seen and any(needle in f for f in frames):
                per_label[label] += count
                seen.add(label)
        if frames:
            top_self[frames[-1]] += count
    rows = [
        {
            "name": label,
            "ms_per_call": per_label[label] / calls,
            "share": per_label[label] / max(1, total),
        }
        for label, _ in _WATCH
        if per_label[label]
    ]
    return {
        "rows": rows,
        "busy_samples": total,
        "busy_ms_per_call": total / calls,
        "threads": len(threads),
        "wall_s": wall,
        "client_median_ms": client_median_ms,
        "top_self": [(f, c / calls) for f, c in top_self.most_common(15)],
    }


def top_inclusive(raw: Path, calls: int, rate: int = 1000, limit: int = 25) -> list[dict[str, Any]]:
    """The functions of mcp-harbor, the SDK and the web stack with the most
    inclusive samples in a py-spy ``--format raw`` file, in ms per call and as
    a share of all busy samples."""
    keep = (
        "mcp_harbor/",
        "mcp/",
        "mcp_types/",
        "starlette/",
        "uvicorn/",
        "anyio/",
        "sqlite",
        "subprocess.py",
        "pydantic",
        "json/",
        "h11/",
        "httptools",
    )
    total = 0
    inc: collections.Counter[str] = collections.Counter()
    for line in raw.read_text().splitlines():
        stack, _, count_s = line.rpartition(" ")
        try:
            count = int(count_s)
        except ValueError:
            continue
        total += count
        for frame in set(stack.split(";")):
            if (
                any(k in frame for k in keep)
                and "_run_once" not in frame
                and "run_forever" not in frame
            ):
                inc[frame] += count
    return [
        {"name": f, "ms_per_call": c / rate * 1000 / calls, "share": c / max(1, total)}
        for f, c in inc.most_common(limit)
    ]
