#!/usr/bin/env node
// A foreign MCP client for mcp-harbor: the official TypeScript SDK
// (@modelcontextprotocol/sdk, pinned in package.json next to this file).
//
// It connects, lists the tools, optionally calls one, and prints ONE JSON
// object on stdout:
//   {"client", "transport", "protocolVersion", "server", "tools": [{name, ...}],
//    "call": <CallToolResult> | null}
// Anything else (diagnostics, the server's stderr) goes to stderr.
//
// Usage:
//   node ts_client.mjs stdio [--tool NAME] [--args JSON] -- COMMAND [ARG...]
//   node ts_client.mjs http URL [--tool NAME] [--args JSON]
//
// Examples:
//   node ts_client.mjs stdio --tool echo --args '{"msg":"hi"}' -- \
//       .venv/bin/python -m mcp_harbor serve --exports exports
//   node ts_client.mjs http http://127.0.0.1:8765/mcp --tool echo --args '{"msg":"hi"}'
//
// Exit status: 0 when everything worked (a tool result with isError=true still
// exits 0: it is printed for the caller to judge), 2 on usage errors, 1 on any
// connection or protocol failure.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync } from "node:fs";

// The package's "exports" map hides its package.json; read it from disk.
const SDK_VERSION = JSON.parse(
  readFileSync(
    new URL("./node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url),
    "utf8",
  ),
).version;

function usage(message) {
  process.stderr.write(
    `${message}\nusage: ts_client.mjs stdio [--tool NAME] [--args JSON] -- COMMAND [ARG...]\n` +
      `       ts_client.mjs http URL [--tool NAME] [--args JSON]\n`,
  );
  process.exit(2);
}

function parseArgv(argv) {
  const opts = { mode: argv[0], tool: null, args: {}, url: null, command: null };
  if (opts.mode !== "stdio" && opts.mode !== "http") usage(`unknown mode: ${opts.mode}`);
  let i = 1;
  if (opts.mode === "http") {
    opts.url = argv[i++];
    if (!opts.url) usage("http needs a URL");
  }
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--tool") opts.tool = argv[++i];
    else if (a === "--args") {
      try {
        opts.args = JSON.parse(argv[++i]);
      } catch (e) {
        usage(`--args is not JSON: ${e.message}`);
      }
    } else if (a === "--" && opts.mode === "stdio") {
      opts.command = argv.slice(i + 1);
      break;
    } else usage(`unexpected argument: ${a}`);
  }
  if (opts.mode === "stdio" && !(opts.command && opts.command.length)) {
    usage("stdio needs `-- COMMAND [ARG...]`");
  }
  return opts;
}

async function main() {
  const opts = parseArgv(process.argv.slice(2));
  let transport;
  if (opts.mode === "stdio") {
    transport = new StdioClientTransport({
      command: opts.command[0],
      args: opts.command.slice(1),
      // The SDK passes only a few "safe" variables by default; the server
      // needs the caller's environment (venv, XDG dirs, ...).
      env: { ...process.env },
      stderr: "inherit",
    });
  } else {
    transport = new StreamableHTTPClientTransport(new URL(opts.url));
  }

  // The SDK tells the transport which version initialize negotiated; record it.
  let protocolVersion = null;
  const original = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v) => {
    protocolVersion = v;
    original?.(v);
  };

  const client = new Client({ name: "mcp-harbor-interop-ts", version: SDK_VERSION });
  await client.connect(transport);
  try {
    const listed = await client.listTools();
    let call = null;
    if (opts.tool) {
      call = await client.callTool({ name: opts.tool, arguments: opts.args });
    }
    const out = {
      client: `@modelcontextprotocol/sdk@${SDK_VERSION}`,
      transport: opts.mode,
      protocolVersion,
      sessionId: transport.sessionId ?? null,
      server: client.getServerVersion() ?? null,
      tools: listed.tools,
      call,
    };
    process.stdout.write(JSON.stringify(out) + "\n");
  } finally {
    await client.close();
  }
}

main().catch((err) => {
  process.stderr.write(`ts_client: ${err?.stack ?? err}\n`);
  process.exit(1);
});
