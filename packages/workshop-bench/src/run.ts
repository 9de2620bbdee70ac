/**
 * `pnpm bench`: starts a Workshop exactly as `pnpm start` does (fresh temp data folder) and prints, from
 * one run, each figure with its median, p99 and its ratio to a bare Node↔Node Cap'n Web ping measured
 * in the same run. Not part of the tests: machines are noisy, ratios are what to compare.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT, startWorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient, type GadgetFile } from "@gadgets/workshop-shared";
import { newWebSocketRpcSession } from "capnweb";
import { startBarePingServer } from "./bare-ping.ts";
import { measureIde } from "./ide-bench.ts";
import { type Summary, summarize, timeEach } from "./stats.ts";

// `--soak`: instead of the figures, the e2e suite's kill -9 trials, 30 of them (it runs 3).
if (process.argv.includes("--soak")) {
  const trials = spawnSync(
    process.execPath,
    [join(REPO_ROOT, "node_modules/vitest/vitest.mjs"), "run", "--project", "e2e", "e2e/kill-trials.test.ts"],
    { cwd: REPO_ROOT, stdio: "inherit", env: { ...process.env, KILL_TRIALS: process.env.KILL_TRIALS ?? "30" } },
  );
  process.exit(trials.status ?? 1);
}

const quick = process.argv.includes("--quick");
const N = quick ? 100 : 1000;
const COLD_N = quick ? 20 : 100;
const SESSIONS = 32;
const THROUGHPUT_MS = quick ? 2000 : 5000;

const echoFiles = (tag = ""): GadgetFile[] => [
  { path: "gadget.json", content: JSON.stringify({ name: "echo", entry: "index.ts" }) },
  {
    path: "index.ts",
    content: `export default { async run({ input }: { input: string }) { return \`Echo${tag}: \${input}\`; } };`,
  },
];

/** A new workspace with a published echo agent, and a client in it. */
async function publishedEcho(url: string) {
  const boot = createRpcClient({ url });
  const { token } = await boot.createWorkspace();
  boot[Symbol.dispose]();
  const client = createRpcClient({ url, token });
  const session = client.getSession();
  const draft = await session.createDraft({ files: echoFiles() });
  const { agentId } = await session.publishDraft(draft.id);
  return { token, client, session, agentId };
}

interface Row {
  name: string;
  summary?: Summary;
  throughput?: number;
  note?: string;
}

const rows: Row[] = [];
let bundles: { name: string; bytes: number; gzip: number }[] = [];
let embedNote = "";
const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms.toFixed(2));

async function main(): Promise<void> {
  const bare = await startBarePingServer();
  const dataDir = mkdtempSync(join(tmpdir(), "workshop-bench-"));
  const server = await startWorkshopServer({ dataDir });
  try {
    // 1. Baseline: bare capnweb ping between two Node endpoints.
    const bareStub = newWebSocketRpcSession<{ ping(): string }>(bare.url);
    const baseline = summarize(await timeEach(N, 200, () => bareStub.ping()));
    rows.push({ name: "bare capnweb ping (Node ↔ Node)", summary: baseline });
    bareStub[Symbol.dispose]();

    // 2. Ping through the Workshop's session.
    const boot = createRpcClient({ url: server.url });
    rows.push({ name: "Workshop session ping", summary: summarize(await timeEach(N, 200, () => boot.api.ping())) });

    const { token, client, session, agentId } = await publishedEcho(server.url);

    // 3. Warm echo run end to end (published agent, isolate cached).
    const agent = client.getAgent(agentId);
    rows.push({
      name: "warm echo run, agent.run() end to end",
      summary: summarize(await timeEach(N, 100, () => agent.run({ input: "hi" }))),
    });

    // 4. Pipelined getAgent(id).run(x) on an existing session.
    rows.push({
      name: "getAgent(id).run(x) pipelined, new stub each call",
      summary: summarize(
        await timeEach(N, 50, async () => {
          const stub = client.getAgent(agentId);
          try {
            return await stub.run({ input: "hi" });
          } finally {
            stub[Symbol.dispose]();
          }
        }),
      ),
    });

    // 5. Cold run: new code each time (new content hash → new isolate, fresh transpile).
    const coldDrafts: string[] = [];
    for (let i = 0; i < COLD_N + 5; i++)
      coldDrafts.push((await session.createDraft({ files: echoFiles(`-${i}-${Date.now()}`) })).id);
    rows.push({
      name: "cold run of new code (transpile + new isolate)",
      summary: summarize(
        await timeEach(COLD_N, 5, async (i) => {
          const id = coldDrafts[i < 0 ? -1 - i : i + 5] ?? "";
          const outcome = await session.runDraft(id, { input: "x" });
          if (outcome.status !== "ok") throw new Error(outcome.message);
        }),
      ),
    });

    // 6. Throughput: 32 sessions, each with its own WebSocket, running the warm echo back to back.
    const clients = Array.from({ length: SESSIONS }, () => createRpcClient({ url: server.url, token }));
    const agents = clients.map((c) => c.getAgent(agentId));
    await Promise.all(agents.map((a) => a.run({ input: "warm" })));
    let runs = 0;
    const latencies: number[] = [];
    const until = performance.now() + THROUGHPUT_MS;
    await Promise.all(
      agents.map(async (a) => {
        while (performance.now() < until) {
          const start = performance.now();
          await a.run({ input: "hi" });
          latencies.push(performance.now() - start);
          runs++;
        }
      }),
    );
    rows.push({
      name: `warm runs over ${SESSIONS} concurrent sessions`,
      summary: summarize(latencies),
      throughput: runs / (THROUGHPUT_MS / 1000),
    });
    for (const c of clients) c[Symbol.dispose]();

    await runaway(server.url, token, agentId);
    const ide = await measureIde(server.url, join(REPO_ROOT, "apps/workshop/dist"), quick ? 3 : 7);
    rows.push({ name: "IDE: page load to editable editor (cold cache)", summary: ide.loadToEditable });
    rows.push({ name: "IDE: Ctrl+Enter to first console line (in the page)", summary: ide.runToFirstLine });
    bundles = ide.bundles;
    embedNote = `Embed with click-to-load: ${ide.embedBeforeClick.files} scripts, ${(ide.embedBeforeClick.bytes / 1024).toFixed(1)} KB (${(ide.embedBeforeClick.gzip / 1024).toFixed(1)} KB gzip; ${(ide.embedBeforeClick.sent / 1024).toFixed(1)} KB as sent, precompressed) of JavaScript before the first click (target ≤ 100 KB gzip).`;
    await directPath();

    client[Symbol.dispose]();
    boot[Symbol.dispose]();
    print(baseline);
  } finally {
    await server.stop();
    await bare.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const SPIN = `export default { async run() { while (true) {} } };`;
const HEAP_BOMB = `export default { async run() { const a = []; while (true) a.push(new Array(1_000_000).fill(7)); } };`;

/** Runaway code: how fast it ends, and what another session sees meanwhile. */
async function runaway(url: string, token: string, agentId: string): Promise<void> {
  const spinner = createRpcClient({ url, token });
  const observer = createRpcClient({ url, token });
  try {
    const session = spinner.getSession();
    const spin = await session.createDraft({
      files: [echoFiles()[0] as GadgetFile, { path: "index.ts", content: SPIN }],
    });
    const bomb = await session.createDraft({
      files: [echoFiles()[0] as GadgetFile, { path: "index.ts", content: HEAP_BOMB }],
    });
    const deadline = 1000;
    const overshoot: number[] = [];
    for (let i = 0; i < (quick ? 2 : 5); i++) {
      const start = performance.now();
      const outcome = await session.runDraft(spin.id, {}, undefined, { timeoutMs: deadline });
      if (outcome.status !== "error" || outcome.kind !== "timeout")
        throw new Error(`expected a timeout, got ${JSON.stringify(outcome)}`);
      overshoot.push(performance.now() - start - deadline);
    }
    rows.push({
      name: `while(true) with a ${deadline} ms deadline: time past the deadline to the timeout outcome`,
      summary: summarize(overshoot),
    });

    const toMemory: number[] = [];
    for (let i = 0; i < (quick ? 2 : 5); i++) {
      const start = performance.now();
      const outcome = await session.runDraft(bomb.id, {}, undefined, { timeoutMs: 20_000 });
      if (outcome.status !== "error" || outcome.kind !== "memory")
        throw new Error(`expected memory, got ${JSON.stringify(outcome)}`);
      toMemory.push(performance.now() - start);
    }
    rows.push({ name: "heap bomb: start to memory outcome", summary: summarize(toMemory) });

    const agent = observer.getAgent(agentId);
    const idle = summarize(await timeEach(quick ? 100 : 300, 20, () => agent.run({ input: "idle" })));
    rows.push({ name: "another session's warm run, idle", summary: idle });
    const during: number[] = [];
    let spinning = true;
    const spinRun = session.runDraft(spin.id, {}, undefined, { timeoutMs: 3000 }).then(() => {
      spinning = false;
    });
    await new Promise((done) => setTimeout(done, 50));
    let failures = 0;
    while (spinning) {
      const start = performance.now();
      try {
        await agent.run({ input: "during" });
      } catch {
        failures++;
      }
      during.push(performance.now() - start);
    }
    await spinRun;
    const summary = summarize(during);
    rows.push({
      name: `another session's warm run while a gadget spins (${failures} failures)`,
      summary,
      note: `p50 ×${(summary.median / idle.median).toFixed(2)}, p99 ×${(summary.p99 / idle.p99).toFixed(2)} of idle`,
    });
  } finally {
    spinner[Symbol.dispose]();
    observer[Symbol.dispose]();
  }
}

/** The same warm run with isolates in the Worker's own process (the Cloudflare path, no local limits). */
async function directPath(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "workshop-bench-direct-"));
  const server = await startWorkshopServer({ dataDir, pool: false });
  try {
    const { client, agentId } = await publishedEcho(server.url);
    const agent = client.getAgent(agentId);
    rows.push({
      name: "warm echo run without the runner pool (Worker Loader in-process, as on Cloudflare)",
      summary: summarize(await timeEach(N, 100, () => agent.run({ input: "hi" }))),
    });
    client[Symbol.dispose]();
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function print(baseline: Summary): void {
  const lines = [
    `Gadget Workshop benchmark — ${new Date().toISOString()} — Node ${process.version}, ${N} samples (cold: ${COLD_N})`,
    "",
    "| measurement | median ms | p99 ms | median ÷ bare ping | runs/s | note |",
    "| --- | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const row of rows) {
    const s = row.summary;
    lines.push(
      `| ${row.name} | ${s ? fmt(s.median) : ""} | ${s ? fmt(s.p99) : ""} | ${s ? (s.median / baseline.median).toFixed(1) : ""} | ${row.throughput ? Math.round(row.throughput) : ""} | ${row.note ?? ""} |`,
    );
  }
  if (embedNote) lines.push("", embedNote);
  if (bundles.length > 0) {
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    lines.push("", "| built file (apps/workshop/dist/assets) | KB | KB gzip |", "| --- | ---: | ---: |");
    for (const bundle of bundles.slice(0, 12))
      lines.push(`| ${bundle.name} | ${kb(bundle.bytes)} | ${kb(bundle.gzip)} |`);
  }
  console.log(lines.join("\n"));
}

await main();
