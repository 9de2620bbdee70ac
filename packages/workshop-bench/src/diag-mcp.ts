// TEMPORARY diagnostic (removed after measuring).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient } from "@gadgets/workshop-shared";
import { summarize } from "./stats.ts";

const server = await startWorkshopServer({ dataDir: mkdtempSync(join(tmpdir(), "diag-")), echo: process.argv.includes("--echo") });
const boot = createRpcClient({ url: server.url });
const { token } = await boot.createWorkspace();
const owner = createRpcClient({ url: server.url, token });
const session = owner.getSession();
const draft = await session.createDraft({ files: [
  { path: "gadget.json", content: JSON.stringify({ name: "echo", entry: "index.ts" }) },
  { path: "index.ts", content: "export default { async run({ input }) { return 'Echo: ' + input; } };" },
] });
const { agentId } = await session.publishDraft(draft.id);
const { key } = await session.createKey({ name: "diag", scope: "call" });
const url = new URL("/mcp", server.url);
const body = (method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
async function phases(method: string, params: unknown) {
  const t0 = performance.now();
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${key}`, "mcp-protocol-version": "2025-06-18" }, body: body(method, params) });
  const tHead = performance.now();
  const reader = res.body!.getReader();
  let tFirst = 0; let text = "";
  for (;;) { const { done, value } = await reader.read(); if (done) break; if (!tFirst) tFirst = performance.now(); text += new TextDecoder().decode(value); }
  const tEnd = performance.now();
  return { head: tHead - t0, first: tFirst - t0, end: tEnd - t0, text };
}
const agent = owner.getAgent(agentId);
const n = Number(process.env.N ?? 300);
if (process.argv.includes("--code")) {
  const code = 'return await agents.echo({ input: "hi" });';
  for (let i = 0; i < 200; i++) await agent.run({ input: "x" });
  for (let i = 0; i < 200; i++) await session.runCode(code);
  console.log("MARK code start");
  const c: number[] = [];
  for (let i = 0; i < n; i++) { const t = performance.now(); const o = await session.runCode(code); c.push(performance.now() - t); if (o.status !== "ok") throw new Error(JSON.stringify(o)); }
  console.log("runCode", summarize(c).median.toFixed(2));
  const r: number[] = [];
  for (let i = 0; i < n; i++) { const t = performance.now(); await agent.run({ input: "x" }); r.push(performance.now() - t); }
  console.log("agent.run", summarize(r).median.toFixed(2));
  await server.stop();
  process.exit(0);
}
for (const [label, fn] of [
  ["ping", () => phases("ping", {})],
  ["tools/list", () => phases("tools/list", {})],
  ["tools/call", () => phases("tools/call", { name: "echo", arguments: { input: "hi" } })],
] as const) {
  for (let i = 0; i < 200; i++) await fn();
  const r = { head: [] as number[], first: [] as number[], end: [] as number[] };
  for (let i = 0; i < n; i++) { const p = await fn(); r.head.push(p.head); r.first.push(p.first); r.end.push(p.end); if (i === 0 && process.argv.includes("--show")) console.log(p.text); }
  console.log(label, "headers", summarize(r.head).median.toFixed(2), "first chunk", summarize(r.first).median.toFixed(2), "end", summarize(r.end).median.toFixed(2));
}
const runs: number[] = [];
for (let i = 0; i < 200; i++) await agent.run({ input: "x" });
for (let i = 0; i < n; i++) { const t = performance.now(); await agent.run({ input: "x" }); runs.push(performance.now() - t); }
console.log("agent.run", summarize(runs).median.toFixed(2));
const ev: number[] = [];
for (let i = 0; i < n; i++) { const t = performance.now(); await agent.runWithEvents({ input: "x" }, () => {}); ev.push(performance.now() - t); }
console.log("agent.runWithEvents", summarize(ev).median.toFixed(2));
// A fresh Cap'n Web connection per run, with the key: what a new Connection per request costs.
const fresh: number[] = [];
for (let i = 0; i < 100; i++) { const t = performance.now(); const c = createRpcClient({ url: server.url, token: key }); await c.getAgent(agentId).run({ input: "x" }); fresh.push(performance.now() - t); c[Symbol.dispose](); }
console.log("new connection + key session + run", summarize(fresh).median.toFixed(2));
const freshPing: number[] = [];
for (let i = 0; i < 100; i++) { const t = performance.now(); const c = createRpcClient({ url: server.url, token: key }); await c.getSession().workspace(); freshPing.push(performance.now() - t); c[Symbol.dispose](); }
console.log("new connection + key session + workspace()", summarize(freshPing).median.toFixed(2));
owner[Symbol.dispose](); boot[Symbol.dispose]();
await server.stop();
