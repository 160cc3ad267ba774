// End-to-end session with `rgkit mcp` through the official TypeScript MCP
// SDK client. cmd/rgkit's TestMCPTypeScriptClient runs it and checks the
// JSON report it prints on stdout; the assertions live in the Go test.
//
// Environment: RGKIT_BIN (the rgkit binary), RGKIT_ROOT (the workspace),
// RGKIT_SLOW_PROBE (a file the slow search reads; its access time moves
// when it does), RGKIT_SLOW_PATTERN (the slow search's pattern).
import { statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

const transport = new StdioClientTransport({
  command: env("RGKIT_BIN"),
  // A long timeout: only the client's cancellation can end the slow search.
  args: ["mcp", "--root", env("RGKIT_ROOT"), "--timeout", "10m"],
  env: { ...process.env },
  stderr: "pipe",
});
let stderr = "";
transport.stderr.on("data", (chunk) => { stderr += chunk.toString(); });

const client = new Client({ name: "rgkit-e2e-ts", version: "0.0.0" });
const report = { calls: {} };

await client.connect(transport);
report.serverInfo = client.getServerVersion();
report.capabilities = client.getServerCapabilities();
report.instructions = client.getInstructions();

const listed = await client.listTools();
report.tools = listed.tools.map((t) => ({
  name: t.name,
  inputProperties: Object.keys(t.inputSchema?.properties ?? {}).sort(),
  outputProperties: Object.keys(t.outputSchema?.properties ?? {}).sort(),
  readOnly: t.annotations?.readOnlyHint ?? false,
}));

// Each call goes through the SDK's callTool, which also validates the
// structured content against the tool's output schema (ajv).
const calls = {
  grepContent: ["Grep", { pattern: "needle", output_mode: "content" }],
  grepCount: ["Grep", { pattern: "needle", output_mode: "count" }],
  glob: ["Glob", { pattern: "**/*.go" }],
  read: ["Read", { file_path: "notes/a.txt" }],
  readOutside: ["Read", { file_path: "../outside.txt" }],
  grepOutside: ["Grep", { pattern: "OUTSIDE", path: ".." }],
  invalidPattern: ["Grep", { pattern: "needle(" }],
};
for (const [key, [name, args]] of Object.entries(calls)) {
  try {
    const res = await client.callTool({ name, arguments: args });
    report.calls[key] = {
      isError: res.isError ?? false,
      text: res.content.filter((c) => c.type === "text").map((c) => c.text).join(""),
      structured: res.structuredContent ?? null,
    };
  } catch (err) {
    report.calls[key] = { exception: String(err) };
  }
}

// A slow search, cancelled with an AbortSignal: the SDK sends
// notifications/cancelled. The search runs in the server's own process for
// minutes; it has started once the server has read a slow file, whose
// access time (set in the past by the Go test) then moves.
const probe = env("RGKIT_SLOW_PROBE");
const since = statSync(probe).atimeMs;
const controller = new AbortController();
const slow = client
  .callTool({ name: "Grep", arguments: { pattern: env("RGKIT_SLOW_PATTERN"), path: ".slow" } }, undefined, { signal: controller.signal, timeout: 600000 })
  .then(() => "completed", (err) => `rejected: ${err?.name ?? ""} ${err?.message ?? err}`);
let started = false;
while (!started) {
  const state = await Promise.race([slow, sleep(5).then(() => null)]);
  if (state !== null) break; // finished before it could be cancelled: the Go test reports it
  started = statSync(probe).atimeMs > since;
}
controller.abort("the test cancels the slow search");
report.cancel = { started, outcome: await slow };
// Wait for the server to log that the search's context was cancelled.
while (!/tool=Grep status=cancelled[^\n]*SLOWSEARCH/.test(stderr)) await sleep(5);
report.cancel.logged = true;
const after = await client.callTool({ name: "Read", arguments: { file_path: "main.go", limit: 1 } });
report.cancel.afterText = after.content.map((c) => c.text).join("");

await client.close();
report.stderr = stderr;
process.stdout.write(JSON.stringify(report, null, 2) + "\n");
