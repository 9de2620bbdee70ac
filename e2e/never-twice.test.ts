/**
 * A run never runs twice, whatever the runners' timing: runner processes are frozen (SIGSTOP) at random
 * moments while bursts of runs are in flight, thawed (SIGCONT), and every run's side effect — a granted
 * fetch to a counting server — is counted. Runners killed mid-run, or with a job received and not yet
 * started, end each run once with an outcome that says what happened, and the pool heals.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient, type RunOutcome, type WorkshopClient } from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_SOURCE, gadget } from "./helpers.ts";

const TRIALS = 36;
const CONNECTIONS = 3;
const RUNS_PER_CONNECTION = 3;

let server: WorkshopServer;
let dataDir: string;
let counter: Server;
let host = "";
/** Side effects seen, by run id. */
const hits = new Map<string, number>();
const clients: WorkshopClient[] = [];

/** Fetches the counting server once (its side effect), then keeps the run going a little. */
const SIDE_EFFECT = `export default {
  async run({ id }: { id: string }, env: any) {
    await env.fetch("http://HOST/hit?id=" + id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return id;
  },
};`;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const random = (below: number) => Math.floor(Math.random() * below);

function signal(pid: number, name: "SIGSTOP" | "SIGCONT" | "SIGKILL"): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already (killed by the pool at a deadline): nothing to freeze or thaw.
  }
}

async function workspace() {
  const boot = createRpcClient({ url: server.url });
  const { token, workspaceId } = await boot.createWorkspace();
  boot[Symbol.dispose]();
  const connect = () => {
    const client = createRpcClient({ url: server.url, token });
    clients.push(client);
    return client.getSession();
  };
  const sessions = Array.from({ length: CONNECTIONS }, connect);
  const drafts = await Promise.all(
    sessions.map((session) =>
      session.createDraft({
        files: gadget(SIDE_EFFECT.replace("HOST", host), { grants: { fetch: { hosts: [host] } } }),
      }),
    ),
  );
  return { workspaceId, sessions, drafts };
}

/** Each run's id, its outcome and how many times its side effect happened. */
function checkOnce(runs: { id: string; outcome: RunOutcome }[]): void {
  for (const { id, outcome } of runs) {
    const seen = hits.get(id) ?? 0;
    const what = `${id}: ${JSON.stringify(outcome)}, side effect ×${seen}`;
    expect(seen, what).toBeLessThanOrEqual(1);
    if (outcome.status === "ok") {
      expect(seen, what).toBe(1);
      expect(outcome.result, what).toBe(id);
    }
    // A run refused before it started has no effect.
    if (outcome.status === "error" && outcome.kind === "busy") expect(seen, what).toBe(0);
  }
}

beforeAll(async () => {
  counter = createServer((req, res) => {
    const id = new URL(req.url ?? "/", "http://x").searchParams.get("id") ?? "";
    hits.set(id, (hits.get(id) ?? 0) + 1);
    res.end("counted");
  });
  await new Promise<void>((resolve) => counter.listen(0, "127.0.0.1", () => resolve()));
  host = `127.0.0.1:${(counter.address() as AddressInfo).port}`;
  dataDir = mkdtempSync(join(tmpdir(), "workshop-twice-"));
  server = await startWorkshopServer({
    dataDir,
    allowLocalFetch: true,
    pool: { size: 4, runsPerRunner: 2, runnersPerWorkspace: 2 },
  });
});
afterAll(async () => {
  for (const client of clients) client[Symbol.dispose]();
  await server?.stop();
  counter?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a run never runs twice", () => {
  it("while runners are frozen and thawed at random moments under bursts of runs", { timeout: 240_000 }, async () => {
    const w = await workspace();
    // Warm: the workspace holds runners, and its sessions lanes to them.
    for (let i = 0; i < 4; i++)
      await Promise.all(
        w.sessions.map((session, at) => session.runDraft(w.drafts[at]?.id ?? "", { id: `warm-${at}-${i}` })),
      );
    const kinds = new Map<string, number>();
    const directBefore = server.poolStats()?.adoptedRuns ?? 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      // Most freezes are short; every fourth outlasts the runs' deadline, so the pool kills a frozen runner.
      const long = trial % 4 === 3;
      const timeoutMs = long ? 800 : 5000;
      const burst = w.sessions.flatMap((session, at) =>
        Array.from({ length: RUNS_PER_CONNECTION }, (_, n) => {
          const id = `t${trial}-${at}-${n}`;
          return session
            .runDraft(w.drafts[at]?.id ?? "", { id }, undefined, { timeoutMs })
            .then((outcome) => ({ id, outcome }));
        }),
      );
      await sleep(random(40));
      const runners = server.poolRunners().filter((runner) => runner.workspaceId === w.workspaceId);
      const frozen = runners.filter(() => Math.random() < 0.6).map((runner) => runner.pid);
      for (const pid of frozen) signal(pid, "SIGSTOP");
      await sleep(long ? 1200 : 10 + random(250));
      for (const pid of frozen) signal(pid, "SIGCONT");
      const runs = await Promise.all(burst);
      checkOnce(runs);
      for (const { outcome } of runs) {
        const kind = outcome.status === "ok" ? "ok" : outcome.kind;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
    }
    // Runs went straight to the runners (the lane under test) and ended ok through all of it, and nothing but the outcomes a frozen or killed runner explains.
    expect(server.poolStats()?.adoptedRuns ?? 0).toBeGreaterThan(directBefore);
    expect(kinds.get("ok") ?? 0).toBeGreaterThan(0);
    expect([...kinds.keys()].filter((kind) => !["ok", "timeout", "cancelled", "busy", "user"].includes(kind))).toEqual(
      [],
    );
    // The pool healed: every runner is back, and a run goes through.
    await expect.poll(() => server.poolRunners().length, { timeout: 20_000 }).toBe(4);
    const echo = await w.sessions[0]?.createDraft({ files: gadget(ECHO_SOURCE) });
    expect(await w.sessions[0]?.runDraft(echo?.id ?? "", { input: "after" })).toMatchObject({ status: "ok" });
  });

  it("ends a run whose runner is killed mid-run once, saying so, and heals", async () => {
    const w = await workspace();
    const [session] = w.sessions;
    const draft = w.drafts[0]?.id ?? "";
    if (!session) throw new Error("no session");
    for (let i = 0; i < 3; i++) await session.runDraft(draft, { id: `warm-kill-${i}` });
    const sleeper = await session.createDraft({
      files: gadget(
        `export default { async run({ id }: { id: string }, env: any) {
          await env.fetch("http://${host}/hit?id=" + id);
          await new Promise((r) => setTimeout(r, 5000));
          return id;
        } };`,
        { grants: { fetch: { hosts: [host] } } },
      ),
    });
    const running = session.runDraft(sleeper.id, { id: "killed-mid-run" });
    await expect.poll(() => hits.get("killed-mid-run") ?? 0, { timeout: 10_000 }).toBe(1);
    const pid = server
      .poolRunners()
      .find((runner) => runner.workspaceId === w.workspaceId && runner.runs.length > 0)?.pid;
    expect(pid).toBeDefined();
    signal(pid as number, "SIGKILL");
    const outcome = await running;
    const message = outcome.status === "error" && "error" in outcome ? outcome.error?.message : undefined;
    expect(message, JSON.stringify(outcome)).toMatch(/stopped unexpectedly/);
    expect(hits.get("killed-mid-run")).toBe(1);
    expect(await session.runDraft(draft, { id: "after-kill" })).toMatchObject({ status: "ok", result: "after-kill" });
    expect(hits.get("after-kill")).toBe(1);
  });

  it("runs once, elsewhere, a job its runner received and was killed before starting", async () => {
    const w = await workspace();
    const [session] = w.sessions;
    const draft = w.drafts[0]?.id ?? "";
    if (!session) throw new Error("no session");
    const before = server.poolStats()?.adoptedRuns ?? 0;
    for (let i = 0; i < 20 && (server.poolStats()?.adoptedRuns ?? 0) === before; i++)
      await session.runDraft(draft, { id: `warm-received-${i}` });
    expect(server.poolStats()?.adoptedRuns ?? 0).toBeGreaterThan(before);
    const runners = server.poolRunners().filter((runner) => runner.workspaceId === w.workspaceId);
    expect(runners.length).toBeGreaterThan(0);
    // Frozen, the runner reads nothing: the job sent to it waits in its socket, received and not started.
    for (const runner of runners) signal(runner.pid, "SIGSTOP");
    const running = session.runDraft(draft, { id: "received-not-started" });
    await sleep(300);
    expect(hits.get("received-not-started") ?? 0).toBe(0);
    for (const runner of runners) signal(runner.pid, "SIGKILL");
    expect(await running).toMatchObject({ status: "ok", result: "received-not-started" });
    expect(hits.get("received-not-started")).toBe(1);
    expect(await session.runDraft(draft, { id: "after-received" })).toMatchObject({ status: "ok" });
  });
});
