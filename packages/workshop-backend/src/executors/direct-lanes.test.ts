import { RpcTarget, type RpcStub } from "capnweb";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DirectFate, DirectJob, DirectReply, Lease, LeaseListener, RunnerPoolApi } from "../runner/runner-api.ts";
import { DirectLanes, NOT_DIRECT } from "./direct-lanes.ts";
import { CapabilityTarget } from "./sink-target.ts";
import type { ExecuteJob, ExecuteResult, IsolateEventSink } from "./executor.ts";
import { upgradingFetch } from "./testing/socket-pair.ts";

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
  const pool = {
    lease: async (_workspace: string, _listener: LeaseListener): Promise<Lease> => ({ leaseId: "L1", url: "fake://" }),
    fate: async (runId: string, leaseId: string): Promise<DirectFate> => {
      fates.push(runId);
      expect(leaseId).toBe("L1");
      return fate;
    },
    releaseLease: async () => {},
    cancel: async () => true,
  } as unknown as RpcStub<RunnerPoolApi>;
  return { lanes, runner, pool, fetch, fates, sockets: served.sockets };
}

async function openLane(lanes: DirectLanes, pool: RpcStub<RunnerPoolApi>) {
  lanes.want(pool, "w");
  for (let i = 0; i < 20; i++) await new Promise((done) => setTimeout(done));
}

afterEach(() => {
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
});
