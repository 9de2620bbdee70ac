import { afterEach, describe, expect, it, vi } from "vitest";
import type { ExecuteResult } from "../protocol.ts";
import { PoolExecutor, type PoolRequest } from "./pool-executor.ts";
import { fakeWorld, leaseOn, POOL_URL, quietSink, tooDeepToSend, tracked } from "./testing/lane-fakes.ts";

let nextRun = 0;
const request = (payload: string, signal = new AbortController().signal): PoolRequest => ({
  runId: `run-${nextRun++}`,
  workspaceId: "w",
  grants: {},
  isolateKey: "w:hash",
  gadget: { hash: "hash", mainModule: "h.js", modules: { "h.js": "" } },
  payload,
  limits: { cpuMs: 1000, timeoutMs: 1000 },
  sink: quietSink,
  signal,
});

const FINE: ExecuteResult = { status: "ok", result: "fine" };
const TIMED_OUT = { kind: "timeout", message: "The run took longer than 1000 ms." } as const;

/** A fake pool and runner 1, whose lane answers by payload: "deep" (a reply too deep to send), "hung", "never" (no answer), else ok. */
function setup() {
  const world = fakeWorld();
  const runner1 = world.runner(1);
  runner1.answer = (job) => {
    if (job.payload === "deep") return { status: "ok", result: tooDeepToSend() };
    if (job.payload === "hung") return { status: "hung" };
    if (job.payload === "never") return new Promise(() => {});
    return FINE;
  };
  const executor = new PoolExecutor({ url: POOL_URL, secret: "s" });
  const poolOpened = () => world.fetch.mock.calls.filter(([url]) => url === POOL_URL).length;
  return { ...world, runner1, executor, poolOpened };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("PoolExecutor", () => {
  it("places a workspace's first run on the pool session it opens, and sends later runs straight to the lane", async () => {
    const { pool, runner1, executor, fetch, poolOpened } = setup();
    const first = request("echo");
    expect(await executor.execute(first)).toEqual(FINE);
    expect(await executor.execute(request("echo"))).toEqual(FINE);
    expect(pool.places).toEqual([[first.runId, "w", false]]);
    expect(runner1.jobs.map((job) => [job.leaseId, job.placed])).toEqual([
      ["L1", true],
      ["L1", false],
    ]);
    expect(poolOpened()).toBe(1);
    expect(fetch.mock.calls[0]?.[1]?.headers).toMatchObject({ Authorization: "Bearer s" });
    executor[Symbol.dispose]();
  });

  it("ends a run whose reply its runner's link refused as that run's outcome, and keeps lane and pool", async () => {
    const { pool, runner1, executor, poolOpened, opened } = setup();
    const deep = request("deep");
    // The supervisor says the run's event lines are all sent, on the session's main object.
    runner1.heard.until(() => runner1.jobs.length === 1).then(() => pool.listener?.eventsSent(deep.runId));
    expect(await executor.execute(deep)).toMatchObject({
      status: "error",
      kind: "invalid",
      error: { name: "UnsendableReply", message: expect.stringContaining("maximum allowed depth") },
    });
    expect(await executor.execute(request("echo"))).toEqual(FINE);
    expect(runner1.jobs).toHaveLength(2);
    expect(pool.places).toHaveLength(1);
    expect(poolOpened()).toBe(1);
    expect(opened(1)).toBe(1);
    executor[Symbol.dispose]();
  });

  it("ends a run whose pool answer was refused over a link still up as that run's outcome, and keeps the pool", async () => {
    const { pool, executor, poolOpened } = setup();
    pool.placement = (_runId, count) => {
      if (count === 1) throw new Error("the placement could not be made");
      return leaseOn(1);
    };
    expect(await executor.execute(request("echo"))).toMatchObject({
      status: "error",
      kind: "invalid",
      error: { name: "UnsendableReply", message: expect.stringContaining("the placement could not be made") },
    });
    expect(await executor.execute(request("echo"))).toEqual(FINE);
    expect(poolOpened()).toBe(1);
    executor[Symbol.dispose]();
  });

  it("says the pool could not run a run lost with a broken pool link, and reconnects", async () => {
    const { pool, executor, poolSockets, poolOpened } = setup();
    pool.placement = (_runId, count) => {
      if (count > 1) return leaseOn(1);
      poolSockets.at(-1)?.close();
      return new Promise(() => {});
    };
    const lost = await executor.execute(request("echo"));
    expect(lost).toMatchObject({ status: "error", kind: "busy" });
    expect("message" in lost && lost.message).toMatch(/could not run this gadget/);
    expect(await executor.execute(request("echo"))).toEqual(FINE);
    expect(poolOpened()).toBe(2);
    executor[Symbol.dispose]();
  });

  it("places runs anew on a new pool session once the old one broke: its leases ended with it", async () => {
    const { pool, runner1, executor, poolSockets, poolOpened, runner } = setup();
    const runner2 = runner(2);
    pool.placement = (_runId, count) => leaseOn(count);
    expect(await executor.execute(request("echo"))).toEqual(FINE);
    poolSockets[0]?.close();
    await pool.heard.until(() => poolSockets[0]?.closed);
    // The session breaks with no call in flight: the next run still runs, on the new session.
    await new Promise((done) => setTimeout(done, 10));
    const next = request("echo");
    expect(await executor.execute(next)).toEqual(FINE);
    expect(poolOpened()).toBe(2);
    expect(pool.places.map(([runId]) => runId).at(-1)).toBe(next.runId);
    expect(runner1.jobs).toHaveLength(1);
    expect(runner2.jobs.map((job) => [job.runId, job.leaseId, job.placed])).toEqual([[next.runId, "L2", true]]);
    executor[Symbol.dispose]();
  });

  it("says the pool could not be reached when it answers without a WebSocket, and tries again on the next run", async () => {
    const { executor, fetch } = setup();
    fetch.mockImplementationOnce(async () => ({ status: 401, webSocket: null }));
    const result = await executor.execute(request("echo"));
    expect(result).toMatchObject({ status: "error", kind: "busy" });
    expect("message" in result && result.message).toMatch(/answered 401 instead of a WebSocket/);
    expect(await executor.execute(request("echo"))).toEqual(FINE);
    executor[Symbol.dispose]();
  });

  it("holds a run its runner found hung until the supervisor's outcome, told on the session's main object", async () => {
    const { pool, runner1, executor } = setup();
    const asked = request("hung");
    const hung = tracked(executor.execute(asked));
    await runner1.heard.until(() => runner1.jobs.length === 1);
    await new Promise((done) => setTimeout(done, 50));
    expect(hung.over()).toBe(false);
    const stopped: ExecuteResult = { status: "error", ...TIMED_OUT };
    await pool.listener?.stopped(asked.runId, stopped);
    expect(await hung.result).toEqual(stopped);
    expect(pool.cancels).toEqual([]);
    executor[Symbol.dispose]();
  });

  it("ends a hung run at its deadline's abort, and asks the pool to stop it on its lease", async () => {
    const { pool, runner1, executor } = setup();
    const deadline = new AbortController();
    const asked = request("hung", deadline.signal);
    const hung = tracked(executor.execute(asked));
    await runner1.heard.until(() => runner1.jobs.length === 1);
    await new Promise((done) => setTimeout(done, 50));
    expect(hung.over()).toBe(false);
    deadline.abort(TIMED_OUT);
    expect(await hung.result).toEqual({ status: "error", ...TIMED_OUT });
    await pool.heard.until(() => pool.cancels.length > 0);
    expect(pool.cancels).toEqual([[asked.runId, "timeout", "L1"]]);
    executor[Symbol.dispose]();
  });

  it("ends a cancelled run at once, asks the pool to stop it naming why and its lease, and places later runs", async () => {
    const { pool, runner1, executor } = setup();
    pool.placement = () => leaseOn(1);
    for (const [reason, kind] of [
      [undefined, "cancelled"],
      [TIMED_OUT, "timeout"],
    ] as const) {
      const cancel = new AbortController();
      const asked = request("never", cancel.signal);
      const run = executor.execute(asked);
      await runner1.heard.until(() => runner1.jobs.some((job) => job.runId === asked.runId));
      cancel.abort(reason);
      expect(await run).toMatchObject({ status: "error", kind });
      await pool.heard.until(() => pool.cancels.length > 0);
      expect(pool.cancels.pop()).toEqual([asked.runId, kind, "L1"]);
    }
    // Each run after a cancel was placed: its lane's runner is about to be killed.
    expect(pool.places).toHaveLength(2);
    expect(runner1.jobs.every((job) => job.placed)).toBe(true);
    executor[Symbol.dispose]();
  });

  it("sends nothing for a run cancelled while the pool session is opening", async () => {
    const { pool, runner1, executor } = setup();
    const cancel = new AbortController();
    const run = executor.execute(request("echo", cancel.signal));
    cancel.abort();
    expect(await run).toMatchObject({ status: "error", kind: "cancelled" });
    expect(pool.places).toEqual([]);
    expect(runner1.jobs).toEqual([]);
    executor[Symbol.dispose]();
  });

  it("names no lease when it cancels a run still waiting for its placement", async () => {
    const { pool, executor } = setup();
    pool.placement = () => new Promise(() => {});
    const cancel = new AbortController();
    const asked = request("echo", cancel.signal);
    const run = executor.execute(asked);
    await pool.heard.until(() => pool.places.length === 1);
    cancel.abort();
    expect(await run).toMatchObject({ status: "error", kind: "cancelled" });
    await pool.heard.until(() => pool.cancels.length > 0);
    expect(pool.cancels).toEqual([[asked.runId, "cancelled", undefined]]);
    executor[Symbol.dispose]();
  });
});
