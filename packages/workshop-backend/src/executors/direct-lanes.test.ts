import { RpcTarget, type RpcStub } from "capnweb";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DirectFate, DirectJob, DirectReply, Lease, LeaseListener, RunnerPoolApi } from "../runner/runner-api.ts";
import { DirectLanes, NOT_DIRECT } from "./direct-lanes.ts";
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

function setup(answer: (job: DirectJob, lanes: DirectLanes) => Promise<unknown>) {
  const lanes = new DirectLanes();
  const runner = new FakeLane((job) => answer(job, lanes));
  const served = upgradingFetch(() => runner);
  const fetch = vi.fn(served.fetch);
  vi.stubGlobal("fetch", fetch);
  const fates: string[] = [];
  const pool = {
    lease: async (_workspace: string, _listener: LeaseListener): Promise<Lease> => ({ leaseId: "L1", url: "fake://" }),
    fate: async (runId: string): Promise<DirectFate> => {
      fates.push(runId);
      return { status: "ended", result: { status: "error", kind: "cancelled", message: "runner went away" } };
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
});
