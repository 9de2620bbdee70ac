import { RpcTarget, type RpcStub } from "capnweb";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DirectFate, DirectJob, DirectReply, Lease, LeaseListener, RunnerPoolApi } from "../protocol.ts";
import { DirectLanes, NOT_DIRECT } from "./direct-lanes.ts";
import { CapabilityTarget } from "../sink-target.ts";
import type { ExecuteJob, ExecuteResult, IsolateEvent, IsolateEventSink } from "../protocol.ts";
import { upgradingFetch } from "../testing/socket-pair.ts";

/** Deeper than any Cap'n Web link will carry (its limit is 256): a reply holding it cannot be sent. */
function tooDeepToSend(): unknown {
  let value: unknown = 0;
  for (let i = 0; i < 300; i++) value = [value];
  return value;
}

const sink: IsolateEventSink = { started() {}, log() {}, error() {}, events() {}, dropped() {} };
const never = new Promise<ExecuteResult>(() => {});
let nextRun = 0;
const job = (): ExecuteJob => ({
  runId: `run-${nextRun++}`,
  workspaceId: "w",
  grants: {},
  isolateKey: "w:hash",
  gadget: { hash: "hash", mainModule: "h.js", modules: { "h.js": "" } },
  payload: null,
  limits: { cpuMs: 1000, timeoutMs: 1000 },
});

/** A leased runner's direct lane; `answer` says how it replies to each job. */
class FakeLane extends RpcTarget {
  readonly jobs: DirectJob[] = [];
  constructor(private readonly answer: (job: DirectJob) => Promise<unknown>) {
    super();
  }
  async execute(job: DirectJob): Promise<DirectReply> {
    this.jobs.push(job);
    return (await this.answer(job)) as DirectReply;
  }
}

const LOST: DirectFate = {
  status: "ended",
  result: { status: "error", kind: "cancelled", message: "runner went away" },
};

function setup(answer: (job: DirectJob, lanes: DirectLanes) => Promise<unknown>, fate: DirectFate = LOST) {
  const lanes = new DirectLanes();
  const runner = new FakeLane((job) => answer(job, lanes));
  const served = upgradingFetch(() => runner);
  const fetch = vi.fn(served.fetch);
  vi.stubGlobal("fetch", fetch);
  const fates: string[] = [];
  const released: string[] = [];
  /** What the supervisor would tell this session: the listener it was given with the lease. */
  let listener: LeaseListener | undefined;
  const pool = {
    lease: async (_workspace: string, given: LeaseListener): Promise<Lease> => {
      listener = given;
      return { leaseId: "L1", url: "fake://" };
    },
    fate: async (runId: string, leaseId: string): Promise<DirectFate> => {
      fates.push(runId);
      expect(leaseId).toBe("L1");
      return fate;
    },
    releaseLease: async (leaseId: string) => {
      released.push(leaseId);
    },
    cancel: async () => true,
  } as unknown as RpcStub<RunnerPoolApi>;
  const supervisor = () => listener as LeaseListener;
  return { lanes, runner, pool, fetch, fates, released, supervisor, sockets: served.sockets };
}

/** Opens workspace "w"'s lane: resolves once the lease is held and its socket open. */
async function openLane(lanes: DirectLanes, pool: RpcStub<RunnerPoolApi>) {
  await lanes.want(pool, "w");
}

/** Starts a direct run, and says whether it has ended yet. */
function started(result: Promise<ExecuteResult | typeof NOT_DIRECT>) {
  let over = false;
  void result.then(() => {
    over = true;
  });
  return { result, over: () => over };
}

const TIMEOUT: ExecuteResult = { status: "error", kind: "timeout", message: "The run took longer than 1000 ms." };
const CANCELLED: ExecuteResult = { status: "error", kind: "cancelled", message: "The run was cancelled." };

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("DirectLanes", () => {
  it("ends only the run whose reply the runner's link refused, and sends the next run on the same lane", async () => {
    const { lanes, runner, pool, fetch, fates } = setup(async (job, lanes) => {
      // The supervisor says the run's event lines are all sent.
      lanes.run(job.runId)?.finished();
      return job.payload === "deep" ? { status: "ok", result: tooDeepToSend() } : { status: "ok", result: "fine" };
    });
    await openLane(lanes, pool);
    const refused = await lanes.execute(pool, { ...job(), payload: "deep" }, sink, null, never);
    expect(refused).toMatchObject({
      status: "error",
      kind: "invalid",
      error: { name: "UnsendableReply", message: expect.stringContaining("maximum allowed depth") },
    });
    expect(fates).toEqual([]);
    expect(await lanes.execute(pool, job(), sink, null, never)).toEqual({ status: "ok", result: "fine" });
    expect(runner.jobs).toHaveLength(2);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("still takes a call failed by a broken link for a lost answer, and asks the pool what became of the run", async () => {
    let close: () => void = () => {};
    const { lanes, pool, fates, sockets } = setup(async () => {
      close();
      return new Promise(() => {});
    });
    await openLane(lanes, pool);
    close = () => sockets[0]?.close();
    const run = job();
    expect(await lanes.execute(pool, run, sink, null, never)).toMatchObject({ kind: "cancelled" });
    expect(fates).toEqual([run.runId]);
    expect(await lanes.execute(pool, job(), sink, null, never)).toBe(NOT_DIRECT);
  });

  it("sends a lost run elsewhere only when the pool saw it never start and no capability call of it came", async () => {
    let close: () => void = () => {};
    const { lanes, pool, fates, sockets } = setup(
      async () => {
        close();
        return new Promise(() => {});
      },
      { status: "never-started" },
    );
    close = () => sockets.at(-1)?.close();
    await openLane(lanes, pool);
    expect(await lanes.execute(pool, job(), sink, null, never)).toBe(NOT_DIRECT);
    await openLane(lanes, pool);
    const calls = new CapabilityTarget({ call: async () => ({ ok: true, value: null }) });
    await calls.call({ capability: "kv", op: "get", key: "k" });
    // A capability call came: whatever the pool read, the run started, so it is never sent again.
    expect(await lanes.execute(pool, job(), sink, calls, never)).toMatchObject({ kind: "cancelled" });
    expect(fates).toHaveLength(2);
  });

  it("never gives up on a silent runner by the clock: it waits for the reply, the pool's outcome or the abort", async () => {
    let abort: (result: ExecuteResult) => void = () => {};
    const aborted = new Promise<ExecuteResult>((resolve) => {
      abort = resolve;
    });
    const { lanes, runner, pool, fates } = setup(() => new Promise(() => {}));
    await openLane(lanes, pool);
    const run = lanes.execute(pool, job(), sink, null, aborted);
    await vi.waitFor(() => expect(runner.jobs).toHaveLength(1));
    // Longer than the start window the old rule gave a job (100 ms and a 50 ms margin).
    await new Promise((done) => setTimeout(done, 300));
    expect(fates).toEqual([]);
    abort({ status: "error", kind: "cancelled", message: "cancelled" });
    expect(await run).toMatchObject({ kind: "cancelled", message: "cancelled" });
    expect(fates).toEqual([]);
  });
  it("sends a gadget its runner already has by its hash, and its code again when the runner lost it", async () => {
    const known = new Set<string>();
    let forget = false;
    const { lanes, runner, pool } = setup(async (job) => {
      if (forget) known.clear();
      forget = false;
      if (job.gadget.modules) known.add(job.gadget.hash);
      else if (!known.has(job.gadget.hash)) return { status: "missing-code" };
      return { status: "ok", result: "fine" };
    });
    await openLane(lanes, pool);
    expect(await lanes.execute(pool, job(), sink, null, never)).toEqual({ status: "ok", result: "fine" });
    expect(await lanes.execute(pool, job(), sink, null, never)).toEqual({ status: "ok", result: "fine" });
    forget = true;
    expect(await lanes.execute(pool, job(), sink, null, never)).toEqual({ status: "ok", result: "fine" });
    expect(runner.jobs.map((sent) => sent.gadget.modules !== undefined)).toEqual([true, false, false, true]);
    expect(runner.jobs.every((sent) => sent.leaseId === "L1")).toBe(true);
  });

  it("ends as busy, naming the code, when the runner refuses code it was sent in full", async () => {
    const { lanes, runner, pool, fates } = setup(async () => ({ status: "missing-code" }));
    await openLane(lanes, pool);
    const result = await lanes.execute(pool, job(), sink, null, never);
    expect(result).toMatchObject({
      status: "error",
      kind: "busy",
      message: expect.stringMatching(/did not accept the gadget's code/),
    });
    expect(runner.jobs).toHaveLength(1);
    expect(fates).toEqual([]);
  });

  it("gives a job its full runner refused back to the caller, and keeps the lane for the next run", async () => {
    let full = true;
    const { lanes, runner, pool, released } = setup(async () => {
      if (full) return { status: "refused", reason: "full" };
      return { status: "ok", result: "fine" };
    });
    await openLane(lanes, pool);
    expect(await lanes.execute(pool, job(), sink, null, never)).toBe(NOT_DIRECT);
    full = false;
    expect(await lanes.execute(pool, job(), sink, null, never)).toEqual({ status: "ok", result: "fine" });
    expect(runner.jobs).toHaveLength(2);
    expect(released).toEqual([]);
  });

  it("lets go of a lane whose runner says it is closed: the pool is told, later runs go its way", async () => {
    const { lanes, runner, pool, released } = setup(async () => ({ status: "refused", reason: "closed" }));
    await openLane(lanes, pool);
    expect(await lanes.execute(pool, job(), sink, null, never)).toBe(NOT_DIRECT);
    expect(released).toEqual(["L1"]);
    expect(await lanes.execute(pool, job(), sink, null, never)).toBe(NOT_DIRECT);
    expect(runner.jobs).toHaveLength(1);
  });

  it("stops using a lane the supervisor revoked, without telling it back", async () => {
    const { lanes, runner, pool, released, supervisor } = setup(async () => ({ status: "ok", result: "fine" }));
    await openLane(lanes, pool);
    supervisor().revoked("L1");
    expect(await lanes.execute(pool, job(), sink, null, never)).toBe(NOT_DIRECT);
    expect(runner.jobs).toHaveLength(0);
    expect(released).toEqual([]);
  });

  it("holds a run its runner found hung until the supervisor's outcome at the deadline", async () => {
    const { lanes, runner, pool, fates, supervisor } = setup(async () => ({ status: "hung" }));
    await openLane(lanes, pool);
    vi.useFakeTimers();
    const run = job();
    const direct = started(lanes.execute(pool, run, sink, null, never));
    // Every message in flight is delivered (the fake sockets use timers): the hung reply is in.
    await vi.runAllTimersAsync();
    expect(runner.jobs).toHaveLength(1);
    expect(direct.over()).toBe(false);
    supervisor().ended(run.runId, TIMEOUT);
    expect(await direct.result).toEqual(TIMEOUT);
    expect(fates).toEqual([]);
  });

  it("waits for a run's last events when its reply says it wrote some, up to the drain bound", async () => {
    const events: IsolateEvent[][] = [];
    const recording: IsolateEventSink = { ...sink, events: (batch) => events.push(batch) };
    const { lanes, pool, supervisor } = setup(async () => ({ status: "ok", result: "fine", eventLines: 1 }));
    await openLane(lanes, pool);
    vi.useFakeTimers();
    const first = job();
    const drained = started(lanes.execute(pool, first, recording, null, never));
    await vi.advanceTimersByTimeAsync(500);
    expect(drained.over()).toBe(false);
    supervisor().events(first.runId, [{ kind: "log", level: "log", values: [] }]);
    supervisor().finished(first.runId);
    expect(await drained.result).toEqual({ status: "ok", result: "fine" });
    expect(events).toHaveLength(1);
    // Its events never said they were all sent: the reply goes after the bound all the same.
    const late = started(lanes.execute(pool, job(), sink, null, never));
    await vi.advanceTimersByTimeAsync(500);
    expect(late.over()).toBe(false);
    // The bound (1000 ms) runs from the reply's arrival, a few fake milliseconds in.
    await vi.advanceTimersByTimeAsync(1000);
    expect(late.over()).toBe(true);
    expect(await late.result).toEqual({ status: "ok", result: "fine" });
  });

  it("ends a cancelled run with its cancel, and sends the runs after it the supervisor's way", async () => {
    let cancel: (result: ExecuteResult) => void = () => {};
    const aborted = new Promise<ExecuteResult>((resolve) => {
      cancel = resolve;
    });
    const { lanes, runner, pool, fates, released } = setup(() => new Promise(() => {}));
    await openLane(lanes, pool);
    const run = job();
    const direct = lanes.execute(pool, run, sink, null, aborted);
    expect(lanes.run(run.runId)?.leaseId).toBe("L1");
    cancel(CANCELLED);
    expect(await direct).toEqual(CANCELLED);
    expect(lanes.run(run.runId)).toBeUndefined();
    // Its runner is about to be killed for it: the next run must not race that kill on this lane.
    expect(released).toEqual(["L1"]);
    const next = job();
    expect(await lanes.execute(pool, next, sink, null, never)).toBe(NOT_DIRECT);
    expect(runner.jobs.map((sent) => sent.runId)).not.toContain(next.runId);
    expect(fates).toEqual([]);
  });
});
