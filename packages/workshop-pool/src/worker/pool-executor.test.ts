import { RpcTarget } from "capnweb";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DirectFate, DirectJob, DirectReply, Lease } from "../protocol.ts";
import { DirectLanes } from "./direct-lanes.ts";
import type { ExecuteJob, ExecuteReply, ExecuteRequest, ExecuteResult, IsolateEventSink } from "../protocol.ts";
import { PoolExecutor } from "./pool-executor.ts";
import { upgradingFetch } from "../testing/socket-pair.ts";

/** Deeper than any Cap'n Web link will carry (its limit is 256): a reply holding it cannot be sent. */
function tooDeepToSend(): unknown {
  let value: unknown = 0;
  for (let i = 0; i < 300; i++) value = [value];
  return value;
}

const sink: IsolateEventSink = { started() {}, log() {}, error() {}, events() {}, dropped() {} };
let nextRun = 0;
const request = (payload: string, signal = new AbortController().signal): ExecuteRequest => ({
  runId: `run-${nextRun++}`,
  workspaceId: "w",
  grants: {},
  isolateKey: "w:hash",
  gadget: { hash: "hash", mainModule: "h.js", modules: { "h.js": "" } },
  payload,
  limits: { cpuMs: 1000, timeoutMs: 1000 },
  sink,
  signal,
});

/** Resolves once `check` holds, tried again at each `notify()` (a fake heard a call): no polling, no clock. */
class Heard {
  readonly #waiting = new Set<() => void>();
  until(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve) => {
      const retry = () => {
        if (!check()) return;
        this.#waiting.delete(retry);
        resolve();
      };
      this.#waiting.add(retry);
    });
  }
  notify(): void {
    for (const retry of [...this.#waiting]) retry();
  }
}

/**
 * The supervisor as the Worker sees it. It keeps the code it was sent (`forget` empties that, as a
 * restarted pool would); a payload says how it answers: "deep" (a reply too deep to send), "hung",
 * "never" (no answer), "no-code" (missing code even when sent), anything else ok. It leases a runner
 * only when given `lane`.
 */
class FakePool extends RpcTarget {
  readonly runs: string[] = [];
  /** Whether each job came with its code. */
  readonly withCode: boolean[] = [];
  readonly cancels: [string, string, string | undefined][] = [];
  readonly #known = new Set<string>();
  /** Set, the next run breaks the link instead of answering. */
  breakLink: (() => void) | undefined;
  lane: Lease | undefined;
  readonly heard = new Heard();
  forget(): void {
    this.#known.clear();
  }
  async execute(job: ExecuteJob): Promise<ExecuteReply> {
    this.runs.push(job.runId);
    this.withCode.push(job.gadget.modules !== undefined);
    this.heard.notify();
    const breakLink = this.breakLink;
    this.breakLink = undefined;
    if (breakLink) {
      breakLink();
      return new Promise(() => {});
    }
    if (job.payload === "no-code") return { status: "missing-code" };
    if (job.gadget.modules) this.#known.add(job.gadget.hash);
    else if (!this.#known.has(job.gadget.hash)) return { status: "missing-code" };
    if (job.payload === "deep") return { status: "ok", result: tooDeepToSend() } as ExecuteReply;
    if (job.payload === "hung") return { status: "hung" };
    if (job.payload === "never") return new Promise(() => {});
    return { status: "ok", result: "fine" };
  }
  async lease(): Promise<Lease | null> {
    return this.lane ?? null;
  }
  async fate(): Promise<DirectFate> {
    return { status: "never-started" };
  }
  async cancel(runId: string, reason: string, leaseId?: string): Promise<boolean> {
    this.cancels.push([runId, reason, leaseId]);
    this.heard.notify();
    return true;
  }
  async releaseLease(): Promise<void> {}
}

/** A leased runner's direct lane: a payload "full" is refused, "never" is not answered, else ok. */
class FakeLane extends RpcTarget {
  readonly jobs: DirectJob[] = [];
  readonly heard = new Heard();
  async execute(job: DirectJob): Promise<DirectReply> {
    this.jobs.push(job);
    this.heard.notify();
    if (job.payload === "full") return { status: "refused", reason: "full" };
    if (job.payload === "never") return new Promise(() => {});
    return { status: "ok", result: "direct" };
  }
}

/** A pool at `http://pool`, and a `fetch` that serves it (and `lane`, at its lease's URL). */
function served(pool: FakePool, lane?: FakeLane) {
  const poolSide = upgradingFetch(() => pool);
  const laneSide = upgradingFetch(() => lane);
  const fetch = vi.fn((url: string) => (url === "http://pool" ? poolSide.fetch() : laneSide.fetch()));
  vi.stubGlobal("fetch", fetch);
  return { fetch, sockets: poolSide.sockets };
}

/**
 * Resolves once the lease the executor asked for after its last run is held and its lane open, or
 * refused (the executor asks before that run's outcome is returned).
 */
function laneAsked(): () => Promise<void> {
  const want = vi.spyOn(DirectLanes.prototype, "want");
  return async () => {
    await want.mock.results.at(-1)?.value;
  };
}

const TIMED_OUT = { kind: "timeout", message: "The run took longer than 1000 ms." };

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("PoolExecutor", () => {
  it("ends a run whose reply the pool's link refused as that run's outcome, and keeps the pool for the next", async () => {
    const pool = new FakePool();
    const { fetch } = served(pool);
    const executor = new PoolExecutor({ url: "http://pool", secret: "s" });
    expect(await executor.execute(request("deep"))).toMatchObject({
      status: "error",
      kind: "invalid",
      error: { name: "UnsendableReply", message: expect.stringContaining("maximum allowed depth") },
    });
    expect(await executor.execute(request("echo"))).toEqual({ status: "ok", result: "fine" });
    expect(pool.runs).toHaveLength(2);
    expect(fetch).toHaveBeenCalledTimes(1);
    executor[Symbol.dispose]();
  });

  it("reconnects after a run lost with a broken link, saying the pool could not run it", async () => {
    const pool = new FakePool();
    const { fetch, sockets } = served(pool);
    const executor = new PoolExecutor({ url: "http://pool", secret: "s" });
    pool.breakLink = () => sockets.at(-1)?.close();
    expect(await executor.execute(request("echo"))).toMatchObject({ status: "error", kind: "busy" });
    expect(await executor.execute(request("echo"))).toEqual({ status: "ok", result: "fine" });
    expect(fetch).toHaveBeenCalledTimes(2);
    executor[Symbol.dispose]();
  });
  it("sends a gadget's code once per session, and again when the pool has lost it", async () => {
    const pool = new FakePool();
    served(pool);
    const executor = new PoolExecutor({ url: "http://pool", secret: "s" });
    expect(await executor.execute(request("echo"))).toEqual({ status: "ok", result: "fine" });
    expect(await executor.execute(request("echo"))).toEqual({ status: "ok", result: "fine" });
    pool.forget();
    expect(await executor.execute(request("echo"))).toEqual({ status: "ok", result: "fine" });
    expect(pool.withCode).toEqual([true, false, false, true]);
    executor[Symbol.dispose]();
  });

  it("ends as busy, naming the code, when the pool refuses code it was sent in full", async () => {
    const pool = new FakePool();
    served(pool);
    const executor = new PoolExecutor({ url: "http://pool", secret: "s" });
    const result = await executor.execute(request("no-code"));
    expect(result).toMatchObject({ status: "error", kind: "busy" });
    expect("message" in result && result.message).toMatch(/did not accept the gadget's code/);
    expect(pool.runs).toHaveLength(1);
    executor[Symbol.dispose]();
  });

  it("says the pool could not be reached when it answers without a WebSocket, and tries again on the next run", async () => {
    const pool = new FakePool();
    const { fetch } = served(pool);
    fetch.mockImplementationOnce(async () => ({ status: 401, webSocket: undefined }) as never);
    const executor = new PoolExecutor({ url: "http://pool", secret: "s" });
    const result = await executor.execute(request("echo"));
    expect(result).toMatchObject({ status: "error", kind: "busy" });
    expect("message" in result && result.message).toMatch(/answered 401 instead of a WebSocket/);
    expect(await executor.execute(request("echo"))).toEqual({ status: "ok", result: "fine" });
    executor[Symbol.dispose]();
  });

  it("holds a run the pool found hung until its deadline's abort, and ends it as that timeout", async () => {
    const pool = new FakePool();
    served(pool);
    const executor = new PoolExecutor({ url: "http://pool", secret: "s" });
    const deadline = new AbortController();
    vi.useFakeTimers();
    let result: ExecuteResult | undefined;
    const run = executor.execute(request("hung", deadline.signal)).then((value) => {
      result = value;
      return value;
    });
    // Every message in flight is delivered (the fake sockets use timers): the hung reply is in.
    await vi.runAllTimersAsync();
    expect(pool.runs).toHaveLength(1);
    expect(result).toBeUndefined();
    deadline.abort(TIMED_OUT);
    expect(await run).toEqual({ status: "error", ...TIMED_OUT });
    // The pool, which ends such a run itself, is told too.
    await vi.runAllTimersAsync();
    expect(pool.cancels).toEqual([[pool.runs[0], "timeout", undefined]]);
    executor[Symbol.dispose]();
  });

  it("ends a cancelled run at once, and asks the pool to stop it, saying why", async () => {
    const pool = new FakePool();
    served(pool);
    const executor = new PoolExecutor({ url: "http://pool", secret: "s" });
    for (const [reason, kind] of [
      [undefined, "cancelled"],
      [TIMED_OUT, "timeout"],
    ] as const) {
      const cancel = new AbortController();
      const asked = request("never", cancel.signal);
      const run = executor.execute(asked);
      await pool.heard.until(() => pool.runs.includes(asked.runId));
      cancel.abort(reason);
      expect(await run).toMatchObject({ status: "error", kind });
      await pool.heard.until(() => pool.cancels.length > 0);
      expect(pool.cancels.pop()).toEqual([asked.runId, kind, undefined]);
    }
    executor[Symbol.dispose]();
  });

  it("sends a workspace's later runs straight to its leased runner, and the pool's way when that runner is full", async () => {
    const opened = laneAsked();
    const pool = new FakePool();
    const lane = new FakeLane();
    pool.lane = { leaseId: "L1", url: "http://lane" };
    served(pool, lane);
    const executor = new PoolExecutor({ url: "http://pool", secret: "s" });
    expect(await executor.execute(request("echo"))).toEqual({ status: "ok", result: "fine" });
    await opened();
    expect(await executor.execute(request("echo"))).toEqual({ status: "ok", result: "direct" });
    const full = request("full");
    expect(await executor.execute(full)).toEqual({ status: "ok", result: "fine" });
    expect(lane.jobs.map((job) => [job.payload, job.leaseId])).toEqual([
      ["echo", "L1"],
      ["full", "L1"],
    ]);
    expect(pool.runs).toHaveLength(2);
    expect(pool.runs.at(-1)).toBe(full.runId);
    executor[Symbol.dispose]();
  });

  it("names the lease of a direct run it asks the pool to stop", async () => {
    const opened = laneAsked();
    const pool = new FakePool();
    const lane = new FakeLane();
    pool.lane = { leaseId: "L1", url: "http://lane" };
    served(pool, lane);
    const executor = new PoolExecutor({ url: "http://pool", secret: "s" });
    await executor.execute(request("echo"));
    await opened();
    const cancel = new AbortController();
    const asked = request("never", cancel.signal);
    const run = executor.execute(asked);
    await lane.heard.until(() => lane.jobs.some((job) => job.runId === asked.runId));
    cancel.abort();
    expect(await run).toMatchObject({ status: "error", kind: "cancelled" });
    await pool.heard.until(() => pool.cancels.length > 0);
    expect(pool.cancels).toEqual([[asked.runId, "cancelled", "L1"]]);
    executor[Symbol.dispose]();
  });
});
