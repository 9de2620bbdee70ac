import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient, type RunEvent, type RunOutcome, type WorkshopClient } from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_SOURCE, eventCollector, eventually, gadget } from "./helpers.ts";

/** The pool of these tests: small caps, so each one is reached with a handful of runs. */
const POOL = {
  size: 4,
  runsPerRunner: 2,
  runnersPerWorkspace: 1,
  maxRunsPerWorkspace: 4,
  maxRuns: 7,
  maxWaitMs: 3000,
};

const sleep = (ms: number) => `export default {
  async run() {
    console.log("sleeping");
    await new Promise((resolve) => setTimeout(resolve, ${ms}));
    return "slept";
  },
};`;

const SPIN = `export default {
  async run() {
    console.log("spinning");
    while (true) {}
  },
};`;

/** Leaves work running past its outcome through waitUntil (imported by a computed name). */
const leftover = (work: string) => `export default {
  async run() {
    const { waitUntil } = await import(["cloudflare", "workers"].join(":"));
    waitUntil(new Promise((resolve) => setTimeout(() => { ${work} }, 50)));
    return "returned";
  },
};`;

interface Workspace {
  token: string;
  client: WorkshopClient;
  /** Runs `source` in a new draft on a connection of this workspace (a new one when `fresh`). */
  run(
    source: string,
    options?: { payload?: unknown; timeoutMs?: number; onEvent?: (event: RunEvent) => void; client?: WorkshopClient },
  ): Promise<RunOutcome>;
  connect(): WorkshopClient;
}

let server: WorkshopServer;
let dataDir: string;
const clients: WorkshopClient[] = [];

async function workspace(): Promise<Workspace> {
  const boot = createRpcClient({ url: server.url });
  const { token } = await boot.createWorkspace();
  boot[Symbol.dispose]();
  const connect = () => {
    const client = createRpcClient({ url: server.url, token });
    clients.push(client);
    return client;
  };
  const client = connect();
  return {
    token,
    client,
    connect,
    async run(source, options = {}) {
      const session = (options.client ?? client).getSession();
      const draft = await session.createDraft({ files: gadget(source) });
      return session.runDraft(
        draft.id,
        (options.payload ?? {}) as never,
        options.onEvent,
        options.timeoutMs === undefined ? undefined : { timeoutMs: options.timeoutMs },
      );
    },
  };
}

function kindOf(outcome: RunOutcome): string {
  return outcome.status === "ok" ? "ok" : outcome.kind;
}

/** The outcomes that were not ok, each with its message, so a failure says which refusal it was. */
function notOk(outcomes: RunOutcome[]): string[] {
  return outcomes.flatMap((outcome) => (outcome.status === "ok" ? [] : [`${outcome.kind}: ${outcome.message}`]));
}

function expectKind(outcome: RunOutcome, kind: string): string {
  expect(kindOf(outcome), JSON.stringify(outcome)).toBe(kind);
  return outcome.status === "error" ? outcome.message : "";
}

/**
 * Runs the workspace's echo until it has a runner of its own. A new workspace may find every runner
 * taken by earlier tests' workspaces and wait for one to be recycled and started, which on a loaded
 * machine can pass the pool's wait bound: that is set-up, not what a test watches, so it is done before.
 */
async function holdsARunner(w: Workspace): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const outcome = await w.run(ECHO_SOURCE, { payload: { input: "ready" } });
    if (outcome.status === "ok") return;
    expect(outcome.kind, outcome.message).toBe("busy");
  }
  throw new Error("the workspace found no runner in five tries");
}

/**
 * Runs B's echo again and again until `until` settles (at least once); every outcome must be ok. How
 * many fit depends on how loaded the machine is, so tests assert their outcomes, never their count.
 */
async function echoUntil(b: Workspace, until: Promise<unknown>): Promise<RunOutcome[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const session = b.client.getSession();
  const draft = await session.createDraft({ files: gadget(ECHO_SOURCE) });
  const outcomes: RunOutcome[] = [];
  do outcomes.push(await session.runDraft(draft.id, { input: "b" }));
  while (!done);
  return outcomes;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "workshop-pool-"));
  server = await startWorkshopServer({ dataDir, pool: POOL });
});
afterAll(async () => {
  for (const client of clients) client[Symbol.dispose]();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the runner pool shared by workspaces", () => {
  it("keeps serving workspace B while A floods it from many connections with long and spinning runs", async () => {
    const [a, b] = [await workspace(), await workspace()];
    await holdsARunner(b);
    const connections = Array.from({ length: 10 }, () => a.connect());
    const flood = Promise.all([
      ...connections.flatMap((client) => Array.from({ length: 4 }, () => a.run(sleep(1900), { client }))),
      ...Array.from({ length: 4 }, () => a.run(SPIN, { timeoutMs: 3000 })),
    ]);
    const bOutcomes = await echoUntil(b, flood);
    const aOutcomes = await flood;
    expect(notOk(bOutcomes)).toEqual([]);
    // A is held to its own caps (the Worker's runs in flight per workspace, the pool's running and
    // waiting): refused as busy, told it is its own workspace's runs, never blamed for its code.
    const busy = aOutcomes.filter((outcome) => kindOf(outcome) === "busy");
    expect(busy.length).toBeGreaterThan(0);
    for (const outcome of busy) {
      expect(expectKind(outcome, "busy")).toMatch(/this workspace|server is busy/i);
      expect(expectKind(outcome, "busy")).not.toMatch(/loop|your code|promise/i);
    }
    expect(aOutcomes.map(kindOf).filter((kind) => !["ok", "busy", "timeout", "cancelled"].includes(kind))).toEqual([]);
  });

  it("names the cause when the server is busy: the workspace's own cap, the waiting bound, the whole server", async () => {
    const [a, b, c] = [await workspace(), await workspace(), await workspace()];
    const aSessions = Array.from({ length: 4 }, () => a.connect());
    const aRuns = aSessions.map((client) => a.run(sleep(5000), { client, timeoutMs: 8000 }));
    await expect.poll(() => server.poolStats()?.queued, { timeout: 10_000 }).toBe(2);
    expect(expectKind(await a.run(ECHO_SOURCE, { payload: { input: "fifth" } }), "busy")).toMatch(
      /server is busy with this workspace's runs: it already has 4 runs/,
    );
    const bRuns = Array.from({ length: 3 }, () => b.run(sleep(5000), { client: b.connect(), timeoutMs: 8000 }));
    await expect.poll(() => server.poolStats()?.queued, { timeout: 10_000 }).toBe(3);
    expect(expectKind(await c.run(ECHO_SOURCE, { payload: { input: "c" } }), "busy")).toMatch(
      /server is busy: 7 runs from all workspaces/,
    );
    const waited = (await Promise.all([...aRuns, ...bRuns])).filter((outcome) => kindOf(outcome) === "busy");
    expect(waited).toHaveLength(3);
    for (const outcome of waited)
      expect(expectKind(outcome, "busy")).toMatch(/server is busy: no runner was free .*this workspace's runners/);
    expect(await c.run(ECHO_SOURCE, { payload: { input: "c" } })).toMatchObject({ status: "ok", result: "Echo: c" });
  });

  it("ends a promise that never settles (nothing pending) as a timeout, while B runs on", async () => {
    const [a, b] = [await workspace(), await workspace()];
    await holdsARunner(b);
    const hung = a.run(`export default { async run() { await new Promise(() => {}); } };`, { timeoutMs: 500 });
    const bOutcomes = await echoUntil(b, hung);
    expect(expectKind(await hung, "timeout")).toContain("longer than 500 ms");
    expect(notOk(bOutcomes)).toEqual([]);
  });

  it("keeps B's runs whole while A floods its console, and A's flood is capped", async () => {
    const [a, b] = [await workspace(), await workspace()];
    await holdsARunner(b);
    const collector = eventCollector();
    const flood = a.run(
      `export default { async run() { for (let i = 0; i < 100000; i++) console.log("line", i); return "flooded"; } };`,
      { timeoutMs: 10_000, onEvent: collector.listener },
    );
    const bOutcomes = await echoUntil(b, flood);
    expect(await flood).toMatchObject({ status: "ok", result: "flooded" });
    expect(notOk(bOutcomes)).toEqual([]);
    expect(collector.ofType("log").length).toBeLessThanOrEqual(2000);
    expect(collector.ofType("dropped")[0]?.count).toBeGreaterThan(90_000);
  });

  it("runs a workspace's runs side by side; one spinning ends the other with an outcome naming it", async () => {
    const [a, b] = [await workspace(), await workspace()];
    await holdsARunner(b);
    let sleeperStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      sleeperStarted = resolve;
    });
    const sleeper = a.run(sleep(6000), {
      timeoutMs: 10_000,
      onEvent: (event) => {
        if (event.type === "log") sleeperStarted();
      },
    });
    await started;
    let spinnerId = "";
    const spinner = a.run(SPIN, {
      client: a.connect(),
      timeoutMs: 800,
      onEvent: (event) => {
        spinnerId = event.runId;
      },
    });
    const bOutcomes = await echoUntil(b, Promise.all([sleeper, spinner]));
    expect(expectKind(await spinner, "timeout")).toContain("longer than 800 ms");
    const message = expectKind(await sleeper, "cancelled");
    expect(spinnerId).not.toBe("");
    expect(message).toContain(spinnerId);
    expect(notOk(bOutcomes)).toEqual([]);
  });

  it("ends a run whose runner is killed from outside with a clear outcome, and heals", async () => {
    const [a, b] = [await workspace(), await workspace()];
    let runId = "";
    let logged: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      logged = resolve;
    });
    const run = a.run(sleep(5000), {
      timeoutMs: 8000,
      onEvent: (event) => {
        runId = event.runId;
        if (event.type === "log") logged();
      },
    });
    await started;
    const runner = server.poolRunners().find((entry) => entry.runs.includes(runId));
    expect(runner).toBeDefined();
    process.kill(runner?.pid ?? 0, "SIGKILL");
    const outcome = await run;
    expect(expectKind(outcome, "user")).toMatch(/stopped unexpectedly \(SIGKILL\)/);
    await expect.poll(() => server.poolStats()?.runners, { timeout: 10_000 }).toBe(POOL.size);
    expect(await a.run(ECHO_SOURCE, { payload: { input: "again" } })).toMatchObject({ result: "Echo: again" });
    expect(await b.run(ECHO_SOURCE, { payload: { input: "b" } })).toMatchObject({ result: "Echo: b" });
  });
});

describe("work a gadget leaves running after its outcome", () => {
  for (const [what, work, said] of [
    ["spins", "const t = Date.now(); while (Date.now() - t < 60000) {} resolve();", /kept using \d+% of a CPU core/],
    [
      "allocates",
      "const keep = []; for (let i = 0; i < 20; i++) keep.push(new Uint8Array(16 * 1024 * 1024).fill(1)); setTimeout(() => resolve(keep.length), 60000);",
      /grew by \d+ MB/,
    ],
  ] as const) {
    it(`is stopped when it ${what}, charged to its own workspace (told why), and the other is not touched`, async () => {
      const [a, b] = [await workspace(), await workspace()];
      await holdsARunner(b);
      const killsBefore = server.poolStats()?.leftoverKills ?? 0;
      expect(await a.run(leftover(work))).toMatchObject({ status: "ok", result: "returned" });
      const stopped = eventually(async () => (server.poolStats()?.leftoverKills ?? 0) > killsBefore, 750, 20);
      const bOutcomes = await echoUntil(b, stopped);
      expect(await stopped).toBe(true);
      expect(notOk(bOutcomes)).toEqual([]);
      const session = a.client.getSession();
      await expect
        .poll(async () => (await session.listErrors()).map((group) => group.message).join("\n"), { timeout: 10_000 })
        .toMatch(said);
      expect(await b.client.getSession().listErrors()).toEqual([]);
      expect(await a.run(ECHO_SOURCE, { payload: { input: "after" } })).toMatchObject({ result: "Echo: after" });
    });
  }

  it("is not what a runner holds after many versions ran: it is replaced quietly, and nobody is told off", async () => {
    const [a, b] = [await workspace(), await workspace()];
    await holdsARunner(b);
    const restartsBefore = server.poolStats()?.restarts ?? 0;
    // Each version is new code, so each leaves a warm isolate behind on the workspace's runner; B runs
    // its echo all the while and must not notice.
    const versions = (async () => {
      for (let i = 0; i < 80; i++)
        expect(await a.run(`export default { async run() { return ${i}; } };`)).toMatchObject({
          status: "ok",
          result: i,
        });
    })();
    const bOutcomes = await echoUntil(b, versions);
    await versions;
    expect(notOk(bOutcomes)).toEqual([]);
    await expect.poll(() => (server.poolStats()?.restarts ?? 0) > restartsBefore, { timeout: 10_000 }).toBe(true);
    expect(await a.client.getSession().listErrors()).toEqual([]);
    expect(await b.client.getSession().listErrors()).toEqual([]);
    expect(await a.run(ECHO_SOURCE, { payload: { input: "after" } })).toMatchObject({ result: "Echo: after" });
  });
});
