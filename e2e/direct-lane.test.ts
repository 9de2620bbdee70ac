import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient, type RunOutcome, type WorkshopClient } from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_SOURCE, eventCollector, gadget } from "./helpers.ts";

/**
 * Once a workspace holds a runner, its runs go from the Worker straight to that runner; the supervisor
 * only watches (start and end from the runner's stdout) and stops. These tests hold that lane to the
 * same outcomes as the supervisor's own.
 */

let server: WorkshopServer;
let dataDir: string;
const clients: WorkshopClient[] = [];

async function session() {
  const boot = createRpcClient({ url: server.url });
  const { token, workspaceId } = await boot.createWorkspace();
  boot[Symbol.dispose]();
  const client = createRpcClient({ url: server.url, token });
  clients.push(client);
  return { session: client.getSession(), workspaceId };
}

const adoptedRuns = () => server.poolStats()?.adoptedRuns ?? 0;

function kindOf(outcome: RunOutcome): string {
  return outcome.status === "ok" ? "ok" : outcome.kind;
}

/** Runs the echo until the pool reports runs sent straight to a runner. */
async function warm(s: Awaited<ReturnType<typeof session>>["session"]): Promise<string> {
  const draft = await s.createDraft({ files: gadget(ECHO_SOURCE) });
  const before = adoptedRuns();
  for (let i = 0; i < 50 && adoptedRuns() === before; i++) {
    const outcome = await s.runDraft(draft.id, { input: `warm ${i}` });
    // A new workspace may wait for a recycled runner; on a starved machine past the pool's wait (busy).
    // Where runs go is what these tests check, so a busy warm-up run is simply tried again.
    if (kindOf(outcome) === "busy") continue;
    expect(kindOf(outcome)).toBe("ok");
    await new Promise((done) => setTimeout(done, 10));
  }
  expect(adoptedRuns()).toBeGreaterThan(before);
  return draft.id;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "workshop-direct-"));
  server = await startWorkshopServer({ dataDir, pool: { size: 4, runsPerRunner: 2, runnersPerWorkspace: 1 } });
});
afterAll(async () => {
  for (const client of clients) client[Symbol.dispose]();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("runs sent straight to a workspace's runner", () => {
  it("carry results, console lines in order before the outcome, and capability calls", async () => {
    const { session: s } = await session();
    await warm(s);
    const before = adoptedRuns();
    const draft = await s.createDraft({
      files: gadget(
        `export default { async run({ n }: { n: number }, env: any) {
          for (let i = 0; i < n; i++) console.log("line", i);
          await env.kv.put("k", String(n));
          return { n, stored: await env.kv.get("k") };
        } };`,
        { grants: { kv: true } },
      ),
    });
    const collector = eventCollector();
    // Twice: the first run of new code sends the code on the lane, the second only its hash.
    await s.runDraft(draft.id, { n: 1 });
    const outcome = await s.runDraft(draft.id, { n: 300 }, collector.listener);
    expect(outcome.status === "ok" ? outcome.result : outcome).toEqual({ n: 300, stored: "300" });
    const lines = collector.ofType("log").map((event) => event.values.map((value) => JSON.stringify(value)).join(" "));
    expect(lines).toHaveLength(300);
    expect(collector.events.at(-1)?.event.type).toBe("end");
    expect(adoptedRuns()).toBeGreaterThan(before);
  });

  it("stops a spinning run at its deadline, and the next run is served", async () => {
    const { session: s } = await session();
    await warm(s);
    const spin = await s.createDraft({
      files: gadget(`export default { async run() { console.log("spinning"); while (true) {} } };`),
    });
    const before = adoptedRuns();
    const collector = eventCollector();
    const outcome = await s.runDraft(spin.id, {}, collector.listener, { timeoutMs: 300 });
    expect(kindOf(outcome), JSON.stringify(outcome)).toBe("timeout");
    expect(outcome.status === "error" ? outcome.message : "").toMatch(/300 ms/);
    expect(collector.ofType("log").length).toBe(1);
    expect(adoptedRuns()).toBeGreaterThan(before);
    const echo = await s.createDraft({ files: gadget(ECHO_SOURCE) });
    expect(kindOf(await s.runDraft(echo.id, { input: "after" }))).toBe("ok");
  });

  it("ends a promise that never settles as a timeout, and cancels a run in flight", async () => {
    const { session: s } = await session();
    await warm(s);
    const hang = await s.createDraft({ files: gadget(`export default { run() { return new Promise(() => {}); } };`) });
    const hung = await s.runDraft(hang.id, {}, undefined, { timeoutMs: 300 });
    expect(kindOf(hung), JSON.stringify(hung)).toBe("timeout");

    const sleep = await s.createDraft({
      files: gadget(
        `export default { async run() { await new Promise((r) => setTimeout(r, 5000)); return "late"; } };`,
      ),
    });
    const collector = eventCollector();
    const running = s.runDraft(sleep.id, {}, collector.listener);
    for (let i = 0; i < 100 && collector.ofType("status").length === 0; i++)
      await new Promise((done) => setTimeout(done, 10));
    const runId = collector.ofType("status")[0]?.runId;
    expect(runId).toBeTruthy();
    // The cancel kills the runner it ran on; the very next run must not land there.
    const echo = await s.createDraft({ files: gadget(ECHO_SOURCE) });
    const cancelled = s.cancelRun(runId as string);
    const next = s.runDraft(echo.id, { input: "next" });
    await cancelled;
    expect(kindOf(await running)).toBe("cancelled");
    const after = await next;
    expect(kindOf(after), JSON.stringify(after)).toBe("ok");
  });

  it("never carries one workspace's runs to another's runner", async () => {
    const [a, b] = [await session(), await session()];
    await Promise.all([warm(a.session), warm(b.session)]);
    const runners = server.poolRunners().filter((runner) => runner.workspaceId !== undefined);
    const owners = new Set(runners.map((runner) => runner.workspaceId));
    expect(owners.has(a.workspaceId) && owners.has(b.workspaceId)).toBe(true);
    // Each runner serves one workspace: no pid appears under two.
    expect(new Set(runners.map((runner) => runner.pid)).size).toBe(runners.length);
  });

  it("ends a run whose runner is killed from outside with a clear outcome, and heals", async () => {
    const { session: s, workspaceId } = await session();
    await warm(s);
    const sleep = await s.createDraft({
      files: gadget(
        `export default { async run() { await new Promise((r) => setTimeout(r, 3000)); return "late"; } };`,
      ),
    });
    await s.runDraft(sleep.id, {}, undefined, { timeoutMs: 100 });
    const running = s.runDraft(sleep.id, {});
    let pid: number | undefined;
    for (let i = 0; i < 200 && pid === undefined; i++) {
      pid = server.poolRunners().find((runner) => runner.workspaceId === workspaceId && runner.runs.length > 0)?.pid;
      if (pid === undefined) await new Promise((done) => setTimeout(done, 5));
    }
    expect(pid).toBeDefined();
    process.kill(pid as number, "SIGKILL");
    const outcome = await running;
    expect(outcome.status).toBe("error");
    expect(outcome.status === "error" && "error" in outcome ? outcome.error?.message : "").toMatch(
      /stopped unexpectedly/,
    );
    const echo = await s.createDraft({ files: gadget(ECHO_SOURCE) });
    expect(kindOf(await s.runDraft(echo.id, { input: "healed" }))).toBe("ok");
  });
});
