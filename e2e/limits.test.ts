import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient, type RunOutcome, type WorkshopClient } from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_SOURCE, eventCollector, gadget } from "./helpers.ts";

const SPIN = `export default {
  async run() {
    console.log("spinning");
    while (true) {}
  },
};`;

const HEAP_BOMB = `export default {
  async run() {
    const chunks = [];
    while (true) chunks.push(new Array(1_000_000).fill(7));
  },
};`;

const BUFFER_BOMB = `export default {
  async run() {
    const chunks = [];
    while (true) chunks.push(new Uint8Array(16 * 1024 * 1024).fill(1));
  },
};`;

interface Workspace {
  client: WorkshopClient;
  run(
    source: string,
    payload?: unknown,
    timeoutMs?: number,
    onEvent?: Parameters<ReturnType<WorkshopClient["getSession"]>["runDraft"]>[2],
  ): Promise<RunOutcome>;
}

async function workspaceOn(server: WorkshopServer): Promise<Workspace> {
  const boot = createRpcClient({ url: server.url });
  const { token } = await boot.createWorkspace();
  boot[Symbol.dispose]();
  const client = createRpcClient({ url: server.url, token });
  const session = client.getSession();
  return {
    client,
    async run(source, payload = {}, timeoutMs, onEvent) {
      const draft = await session.createDraft({ files: gadget(source) });
      return session.runDraft(draft.id, payload as never, onEvent, timeoutMs === undefined ? undefined : { timeoutMs });
    },
  };
}

function expectKind(outcome: RunOutcome, kind: string): string {
  expect(outcome.status === "error" && outcome.kind, JSON.stringify(outcome)).toBe(kind);
  return outcome.status === "error" ? outcome.message : "";
}

describe("runaway gadgets on the local runner pool", () => {
  let server: WorkshopServer;
  let dataDir: string;
  let a: Workspace;
  let b: Workspace;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "workshop-limits-"));
    server = await startWorkshopServer({ dataDir, pool: { size: 2 } });
    a = await workspaceOn(server);
    b = await workspaceOn(server);
  });
  afterAll(async () => {
    a?.client[Symbol.dispose]();
    b?.client[Symbol.dispose]();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("ends a synchronous endless loop with a timeout that says what to do, and the next run succeeds", async () => {
    const collector = eventCollector();
    const outcome = await a.run(SPIN, {}, 800, collector.listener);
    const message = expectKind(outcome, "timeout");
    expect(message).toContain("longer than 800 ms");
    expect(message).toMatch(/loop/);
    expect(collector.ofType("log").map((event) => event.values[0])).toEqual([{ t: "string", v: "spinning" }]);
    expect(await a.run(ECHO_SOURCE, { input: "after" })).toMatchObject({ status: "ok", result: "Echo: after" });
  });

  it("streams console output live from a synchronous loop until the timeout stops it", async () => {
    const collector = eventCollector();
    const outcome = await a.run(
      `export default {
  async run() {
    for (let i = 1; ; i++) if (i % 20_000_000 === 0) console.log("still spinning", i);
  },
};`,
      {},
      1000,
      collector.listener,
    );
    expectKind(outcome, "timeout");
    const logs = collector.ofType("log");
    expect(logs.length).toBeGreaterThan(1);
    const end = collector.events.at(-1);
    expect(end?.event.type).toBe("end");
    // The first line reached the client while the loop was still going, well before the end event.
    expect((end?.at ?? 0) - (collector.events.find((entry) => entry.event.type === "log")?.at ?? 0)).toBeGreaterThan(
      300,
    );
  });

  it("uses the workspace's run timeout setting, within the server maximum", async () => {
    const session = a.client.getSession();
    await expect(session.updateSettings({ runTimeoutMs: 10 ** 9 })).rejects.toThrow(/from 1 to 30000/);
    expect(await session.updateSettings({ runTimeoutMs: 600 })).toEqual({ runTimeoutMs: 600, fetchHosts: null });
    expectKind(await a.run(SPIN), "timeout");
    expect(await session.updateSettings({ runTimeoutMs: 2000 })).toEqual({ runTimeoutMs: 2000, fetchHosts: null });
  });

  it("ends a heap bomb with a memory outcome and keeps serving", async () => {
    const message = expectKind(await a.run(HEAP_BOMB, {}, 20_000), "memory");
    expect(message).toContain("more than 128 MB");
    expect(await a.run(ECHO_SOURCE, { input: "still here" })).toMatchObject({ status: "ok" });
  });

  it("ends a typed-array bomb (outside the JS heap) with a memory outcome", async () => {
    expectKind(await a.run(BUFFER_BOMB, {}, 20_000), "memory");
    expect(await a.run(ECHO_SOURCE, { input: "x" })).toMatchObject({ status: "ok" });
  });

  it("cancels a spinning run: the outcome is cancelled and its runner is replaced", async () => {
    const session = a.client.getSession();
    const draft = await session.createDraft({ files: gadget(SPIN) });
    const restartsBefore = server.poolStats()?.restarts ?? 0;
    let runId = "";
    let resolveStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      resolveStarted = resolve;
    });
    const outcome = session.runDraft(
      draft.id,
      {},
      (event) => {
        runId = event.runId;
        if (event.type === "log") resolveStarted();
      },
      { timeoutMs: 20_000 },
    );
    await started;
    expect(await session.cancelRun(runId)).toBe(true);
    expectKind(await outcome, "cancelled");
    expect(server.poolStats()?.restarts).toBeGreaterThan(restartsBefore);
    expect(await a.run(ECHO_SOURCE, { input: "next" })).toMatchObject({ status: "ok", result: "Echo: next" });
  });

  it("keeps other sessions working while one gadget spins: no failure, no dropped session", async () => {
    let spinningNow: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      spinningNow = resolve;
    });
    // Its deadline is far past what five echo runs take even on a starved machine: they all run beside it.
    const spinning = a.run(SPIN, {}, 8000, (event) => {
      if (event.type === "log") spinningNow();
    });
    let done = false;
    void spinning.finally(() => {
      done = true;
    });
    const session = b.client.getSession();
    const draft = await session.createDraft({ files: gadget(ECHO_SOURCE) });
    await started;
    const outcomes: RunOutcome[] = [];
    for (let i = 0; i < 5; i++) outcomes.push(await session.runDraft(draft.id, { input: "beside" }));
    expect(done).toBe(false);
    expect(outcomes.filter((outcome) => outcome.status !== "ok")).toEqual([]);
    expectKind(await spinning, "timeout");
    // Both WebSocket sessions are still alive.
    expect(await a.client.api.ping()).toBe("pong");
    expect(await b.client.api.ping()).toBe("pong");
  });

  it("stops delivering events at the end: a spinning gadget's late output never arrives", async () => {
    const collector = eventCollector();
    const outcome = await a.run(
      `export default {
  async run() {
    setTimeout(() => { while (true) {} }, 10);
    await new Promise(() => {});
  },
};`,
      {},
      500,
      collector.listener,
    );
    expectKind(outcome, "timeout");
    await new Promise((done) => setTimeout(done, 300));
    expect(collector.events.at(-1)?.event.type).toBe("end");
  });
});
