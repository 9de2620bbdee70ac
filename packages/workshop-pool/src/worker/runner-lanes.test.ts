import { afterEach, describe, expect, it, vi } from "vitest";
import type { ExecuteJob, ExecuteResult, IsolateEvent, IsolateEventSink, LaneJob, Placement } from "../protocol.ts";
import { CapabilityTarget } from "../sink-target.ts";
import { RunnerLanes } from "./runner-lanes.ts";
import { abortable, fakeWorld, later, leaseOn, quietSink, tooDeepToSend, tracked } from "./testing/lane-fakes.ts";

const never = new Promise<ExecuteResult>(() => {});
let nextRun = 0;
const job = (extra: Partial<ExecuteJob> = {}): ExecuteJob => ({
  runId: `run-${nextRun++}`,
  workspaceId: "w",
  grants: {},
  isolateKey: "w:hash",
  gadget: { hash: "hash", mainModule: "h.js", modules: { "h.js": "" } },
  payload: null,
  limits: { cpuMs: 1000, timeoutMs: 1000 },
  ...extra,
});

const TIMEOUT: ExecuteResult = { status: "error", kind: "timeout", message: "The run took longer than 1000 ms." };
const CANCELLED: ExecuteResult = { status: "error", kind: "cancelled", message: "The run was cancelled." };
const FINE: ExecuteResult = { status: "ok", result: "fine" };

/** A world of fake runners and a fake pool, and the lanes of one Worker session on it. */
function setup() {
  const world = fakeWorld();
  const lanes = new RunnerLanes();
  const pool = world.connect(lanes);
  const run = (
    sent: ExecuteJob = job(),
    aborted = never,
    capabilities: CapabilityTarget | null = null,
    sink: IsolateEventSink = quietSink,
  ) => lanes.execute(pool, sent, sink, capabilities, aborted);
  return { ...world, lanes, stub: pool, run };
}

const sent = (jobs: LaneJob[]) => jobs.map((one) => [one.runId, one.leaseId, one.placed]);

/** Fake timers for the fake sockets: advancing them delivers every message in flight. */
const fakeTimers = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });

/**
 * Runs a job whose placement is still being asked when it is aborted (after `placesBefore` placements
 * in all), then lets the placement come on runner 1; the aborted run's id.
 */
async function abortWhilePlaced(world: ReturnType<typeof setup>, placesBefore: number): Promise<string> {
  const placement = later<Placement>();
  world.pool.placement = () => placement.promise;
  fakeTimers();
  const { aborted, abort } = abortable();
  const cancelled = job();
  const waiting = world.run(cancelled, aborted);
  await vi.advanceTimersByTimeAsync(100);
  expect(world.pool.places).toHaveLength(placesBefore);
  abort(CANCELLED);
  expect(await waiting).toEqual(CANCELLED);
  placement.give(leaseOn(1));
  await vi.advanceTimersByTimeAsync(1000);
  return cancelled.runId;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("RunnerLanes", () => {
  it("places a workspace's first run and sends it as placed; later runs go straight to that lane", async () => {
    const { pool, run, runner, opened } = setup();
    const runner1 = runner(1);
    const first = job({ nested: true });
    const second = job();
    expect(await run(first)).toEqual(FINE);
    expect(await run(second)).toEqual(FINE);
    expect(pool.places).toEqual([[first.runId, "w", true]]);
    expect(sent(runner1.jobs)).toEqual([
      [first.runId, "L1", true],
      [second.runId, "L1", false],
    ]);
    expect(opened(1)).toBe(1);
    expect(pool.unplaced).toEqual([]);
  });

  it("returns what the pool answers instead of a placement, and the abort while it waits for one", async () => {
    const { pool, run } = setup();
    const busy: ExecuteResult = { status: "error", kind: "busy", message: "The workspace has too many runs." };
    pool.placement = () => busy;
    expect(await run()).toEqual(busy);
    pool.placement = () => new Promise(() => {});
    const { aborted, abort } = abortable();
    const waiting = run(job(), aborted);
    await pool.heard.until(() => pool.places.length === 2);
    abort(CANCELLED);
    expect(await waiting).toEqual(CANCELLED);
  });

  it("ends only the run whose reply the runner's link refused, and sends the next run on the same lane", async () => {
    const { pool, run, runner, opened } = setup();
    const runner1 = runner(1);
    runner1.answer = (sentJob) => {
      // The supervisor says the run's event lines are all sent.
      void pool.listener?.eventsSent(sentJob.runId);
      return sentJob.payload === "deep" ? { status: "ok", result: tooDeepToSend() } : FINE;
    };
    expect(await run(job({ payload: "deep" }))).toMatchObject({
      status: "error",
      kind: "invalid",
      error: { name: "UnsendableReply", message: expect.stringContaining("maximum allowed depth") },
    });
    expect(await run()).toEqual(FINE);
    expect(runner1.jobs).toHaveLength(2);
    expect(pool.places).toHaveLength(1);
    expect(opened(1)).toBe(1);
    expect(pool.fates).toEqual([]);
    expect(pool.released).toEqual([]);
  });

  it("takes a call failed by a broken link for a lost answer, asks the pool the run's fate, and places the next run", async () => {
    const { pool, run, runner, runnerSockets } = setup();
    const runner1 = runner(1);
    runner1.answer = () => {
      runnerSockets(1).at(-1)?.close();
      return new Promise(() => {});
    };
    const lost = job();
    expect(await run(lost)).toMatchObject({ status: "error", kind: "cancelled" });
    expect(pool.fates).toEqual([[lost.runId, "L1"]]);
    const stopped: ExecuteResult = { status: "error", kind: "memory", message: "Out of memory." };
    pool.fateAnswer = { status: "stopped", result: stopped };
    const second = job();
    expect(await run(second)).toEqual(stopped);
    expect(pool.places.map(([runId]) => runId)).toEqual([lost.runId, second.runId]);
    expect(pool.released).toEqual(["L1", "L1"]);
    // Neither is sent again: they may have run.
    expect(runner1.jobs).toHaveLength(2);
  });

  it("sends a lost run again only when the pool saw it never start and no capability call of it came", async () => {
    const { pool, run, runner, runnerSockets } = setup();
    const runner1 = runner(1);
    const runner2 = runner(2);
    pool.placement = (_runId, count) => leaseOn(count % 2 === 1 ? 1 : 2);
    pool.fateAnswer = { status: "never-started" };
    runner1.answer = () => {
      runnerSockets(1).at(-1)?.close();
      return new Promise(() => {});
    };
    const lostEarly = job();
    expect(await run(lostEarly)).toEqual(FINE);
    expect(sent(runner2.jobs)).toEqual([[lostEarly.runId, "L2", true]]);
    expect(pool.unplaced).toEqual([lostEarly.runId]);

    runner2.answer = () => {
      runnerSockets(2).at(-1)?.close();
      return new Promise(() => {});
    };
    const calls = new CapabilityTarget({ call: async () => ({ ok: true, value: null }) });
    await calls.call({ capability: "kv", op: "get", key: "k" });
    // A capability call came: whatever the pool read, the run started, so it is never sent again.
    const started = job();
    expect(await run(started, never, calls)).toMatchObject({ status: "error", kind: "cancelled" });
    expect(pool.fates).toEqual([
      [lostEarly.runId, "L1"],
      [started.runId, "L2"],
    ]);
    expect(pool.places).toHaveLength(2);
    expect(runner1.jobs).toHaveLength(1);
    expect(runner2.jobs).toHaveLength(2);
  });

  it("never gives up on a silent runner by the clock: it waits for the reply, the pool's outcome or the abort", async () => {
    const { pool, run, runner } = setup();
    const runner1 = runner(1);
    runner1.answer = () => new Promise(() => {});
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { aborted, abort } = abortable();
    const silent = tracked(run(job(), aborted));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(runner1.jobs).toHaveLength(1);
    expect(silent.over()).toBe(false);
    abort(CANCELLED);
    expect(await silent.result).toEqual(CANCELLED);
    expect(pool.fates).toEqual([]);
  });

  it("sends a gadget its runner already has by its hash, and its code again when the runner lost it", async () => {
    const { pool, run, runner } = setup();
    const runner1 = runner(1);
    const runner2 = runner(2);
    for (let i = 0; i < 2; i++) expect(await run()).toEqual(FINE);
    runner1.forget();
    expect(await run()).toEqual(FINE);
    expect(runner1.jobs.map((one) => one.gadget.modules !== undefined)).toEqual([true, false, false, true]);
    // Code is known per lane: another runner is sent it in full.
    runner1.answer = () => ({ status: "refused", reason: "closed" });
    pool.placement = () => leaseOn(2);
    expect(await run()).toEqual(FINE);
    expect(runner2.jobs.map((one) => one.gadget.modules !== undefined)).toEqual([true]);
  });

  it("ends as busy, naming the code, when the runner refuses code it was sent in full", async () => {
    const { pool, run, runner } = setup();
    const runner1 = runner(1);
    runner1.answer = () => ({ status: "missing-code" });
    expect(await run()).toMatchObject({
      status: "error",
      kind: "busy",
      message: expect.stringMatching(/did not accept the gadget's code/),
    });
    expect(runner1.jobs).toHaveLength(1);
    expect(pool.fates).toEqual([]);
  });

  it("places a job its full runner refused, and keeps the lane", async () => {
    const { pool, run, runner, opened } = setup();
    const runner1 = runner(1);
    expect(await run()).toEqual(FINE);
    runner1.answer = (sentJob) => (sentJob.placed ? FINE : { status: "refused", reason: "full" });
    const refused = job();
    expect(await run(refused)).toEqual(FINE);
    expect(sent(runner1.jobs).slice(1)).toEqual([
      [refused.runId, "L1", false],
      [refused.runId, "L1", true],
    ]);
    expect(pool.places).toHaveLength(2);
    expect(pool.unplaced).toEqual([]);
    expect(pool.released).toEqual([]);
    expect(opened(1)).toBe(1);
  });

  it.each(["closed", "not-assigned"] as const)(
    "lets go of a lane whose runner refuses a job as %s: the lease is released, the job placed again",
    async (reason) => {
      const { pool, run, runner } = setup();
      const runner1 = runner(1);
      const runner2 = runner(2);
      expect(await run()).toEqual(FINE);
      runner1.answer = () => ({ status: "refused", reason });
      pool.placement = () => leaseOn(2);
      const refused = job();
      expect(await run(refused)).toEqual(FINE);
      expect(pool.released).toEqual(["L1"]);
      expect(sent(runner2.jobs)).toEqual([[refused.runId, "L2", true]]);
      // It was not placed there: nothing to free.
      expect(pool.unplaced).toEqual([]);
      expect(await run()).toEqual(FINE);
      expect(runner1.jobs).toHaveLength(2);
      expect(runner2.jobs).toHaveLength(2);
    },
  );

  it("frees the placement of a placed job refused as closed, and places it again", async () => {
    const { pool, run, runner } = setup();
    const runner1 = runner(1);
    const runner2 = runner(2);
    runner1.answer = () => ({ status: "refused", reason: "closed" });
    pool.placement = (_runId, count) => leaseOn(count);
    const refused = job();
    expect(await run(refused)).toEqual(FINE);
    expect(pool.unplaced).toEqual([refused.runId]);
    expect(pool.released).toEqual(["L1"]);
    expect(sent(runner2.jobs)).toEqual([[refused.runId, "L2", true]]);
    expect(runner1.jobs).toHaveLength(1);
  });

  it("frees a placement whose lane does not open, and places the run again", async () => {
    const { pool, run, runner } = setup();
    const runner1 = runner(1);
    // Runner 9 is gone: its lane does not open.
    pool.placement = (_runId, count) => leaseOn(count === 1 ? 9 : 1);
    const once = job();
    expect(await run(once)).toEqual(FINE);
    expect(pool.unplaced).toEqual([once.runId]);
    expect(pool.released).toEqual(["L9"]);
    expect(sent(runner1.jobs)).toEqual([[once.runId, "L1", true]]);
  });

  it("ends a run as busy once it was placed a bounded number of times on lanes that did not open", async () => {
    const { pool, run } = setup();
    pool.placement = () => leaseOn(9);
    const nowhere = job();
    expect(await run(nowhere)).toMatchObject({
      status: "error",
      kind: "busy",
      message: expect.stringMatching(/no runner it was placed on took it/),
    });
    expect(pool.places).toHaveLength(3);
    await pool.heard.until(() => pool.unplaced.length === 3);
    expect(pool.unplaced).toEqual([nowhere.runId, nowhere.runId, nowhere.runId]);
  });

  it("stops using a lane the supervisor revoked, without telling it back", async () => {
    const { pool, run, runner } = setup();
    const runner1 = runner(1);
    const runner2 = runner(2);
    expect(await run()).toEqual(FINE);
    await pool.listener?.revoked("L1");
    pool.placement = () => leaseOn(2);
    const next = job();
    expect(await run(next)).toEqual(FINE);
    expect(runner1.jobs).toHaveLength(1);
    expect(sent(runner2.jobs)).toEqual([[next.runId, "L2", true]]);
    expect(pool.released).toEqual([]);
  });

  it("sends nothing on a lease revoked before its lane opened, and places the run again", async () => {
    const { pool, run, runner } = setup();
    const runner1 = runner(1);
    const runner2 = runner(2);
    pool.placement = async (_runId, count) => {
      // The revoke travels before the placement's answer, on the same link.
      if (count === 1) void pool.listener?.revoked("L1");
      return leaseOn(count);
    };
    const revoked = job();
    expect(await run(revoked)).toEqual(FINE);
    expect(runner1.jobs).toEqual([]);
    expect(pool.unplaced).toEqual([revoked.runId]);
    expect(sent(runner2.jobs)).toEqual([[revoked.runId, "L2", true]]);
  });

  it("holds a run its runner found hung until the supervisor's outcome, or the abort", async () => {
    const { pool, run, runner } = setup();
    const runner1 = runner(1);
    runner1.answer = () => ({ status: "hung" });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const first = job();
    const hung = tracked(run(first));
    // Every message in flight is delivered (the fake sockets use timers): the hung reply is in.
    await vi.advanceTimersByTimeAsync(5000);
    expect(runner1.jobs).toHaveLength(1);
    expect(hung.over()).toBe(false);
    void pool.listener?.stopped(first.runId, TIMEOUT);
    await vi.advanceTimersByTimeAsync(100);
    expect(await hung.result).toEqual(TIMEOUT);

    const { aborted, abort } = abortable();
    const aborting = tracked(run(job(), aborted));
    await vi.advanceTimersByTimeAsync(5000);
    expect(aborting.over()).toBe(false);
    abort(CANCELLED);
    expect(await aborting.result).toEqual(CANCELLED);
    expect(pool.fates).toEqual([]);
  });

  it("waits for a run's last events when its reply says it wrote some, up to the bound", async () => {
    const { pool, run, runner } = setup();
    const runner1 = runner(1);
    runner1.answer = () => ({ status: "ok", result: "fine", eventLines: 1 });
    const events: IsolateEvent[][] = [];
    const recording: IsolateEventSink = { ...quietSink, events: (batch) => events.push(batch) };
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const first = job();
    const waited = tracked(run(first, never, null, recording));
    await vi.advanceTimersByTimeAsync(500);
    expect(waited.over()).toBe(false);
    void pool.listener?.events(first.runId, [{ kind: "log", level: "log", values: [] }]);
    void pool.listener?.eventsSent(first.runId);
    await vi.advanceTimersByTimeAsync(100);
    expect(waited.over()).toBe(true);
    expect(await waited.result).toEqual(FINE);
    expect(events).toHaveLength(1);
    // Its events never said they were all sent: the reply goes after the bound all the same.
    const late = tracked(run());
    await vi.advanceTimersByTimeAsync(500);
    expect(late.over()).toBe(false);
    // The bound (1000 ms) runs from the reply's arrival, a few fake milliseconds in.
    await vi.advanceTimersByTimeAsync(1000);
    expect(late.over()).toBe(true);
    expect(await late.result).toEqual(FINE);
  });

  it("ends a cancelled run with its cancel, and places the runs after it", async () => {
    const { pool, run, runner, lanes } = setup();
    const runner1 = runner(1);
    const runner2 = runner(2);
    runner1.answer = () => new Promise(() => {});
    pool.placement = (_runId, count) => leaseOn(count);
    const { aborted, abort } = abortable();
    const cancelled = job();
    const running = run(cancelled, aborted);
    await pool.heard.until(() => runner1.jobs.length === 1);
    expect(lanes.run(cancelled.runId)?.leaseId).toBe("L1");
    abort(CANCELLED);
    expect(await running).toEqual(CANCELLED);
    expect(lanes.run(cancelled.runId)).toBeUndefined();
    // Its runner is about to be killed for it: the next run must not race that kill on this lane.
    const next = job();
    expect(await run(next)).toEqual(FINE);
    expect(pool.released).toEqual(["L1"]);
    expect(pool.places.map(([runId]) => runId)).toEqual([cancelled.runId, next.runId]);
    expect(sent(runner2.jobs)).toEqual([[next.runId, "L2", true]]);
    expect(pool.fates).toEqual([]);
  });

  it("gives back a placement that comes after its run's abort, and the lease taken for that run alone", async () => {
    const world = setup();
    const { pool, runner, opened } = world;
    runner(1);
    const cancelled = await abortWhilePlaced(world, 1);
    expect(pool.unplaced).toEqual([cancelled]);
    expect(pool.released).toEqual(["L1"]);
    expect(opened(1)).toBe(0);
  });

  it("gives back only the room of a run aborted while it was placed on a lane the session keeps", async () => {
    const world = setup();
    const { pool, run, runner, opened } = world;
    const runner1 = runner(1);
    runner1.answer = (sentJob) => (sentJob.placed ? FINE : { status: "refused", reason: "full" });
    expect(await run()).toEqual(FINE);
    const cancelled = await abortWhilePlaced(world, 2);
    expect(pool.unplaced).toEqual([cancelled]);
    expect(pool.released).toEqual([]);
    expect(opened(1)).toBe(1);
  });

  it("sends nothing for a run aborted while its lane opens, and lets go of the lane opened for it", async () => {
    const { pool, run, runner, holdNextFetch } = setup();
    const runner1 = runner(1);
    const lane = holdNextFetch();
    fakeTimers();
    const { aborted, abort } = abortable();
    const cancelled = job();
    const running = tracked(run(cancelled, aborted));
    await vi.advanceTimersByTimeAsync(100);
    await lane.reached;
    abort(CANCELLED);
    lane.go();
    await vi.advanceTimersByTimeAsync(1000);
    expect(running.over()).toBe(true);
    expect(await running.result).toEqual(CANCELLED);
    expect(runner1.jobs).toEqual([]);
    expect(pool.unplaced).toEqual([cancelled.runId]);
    expect(pool.released).toEqual(["L1"]);
  });

  it("gives back the placement of a run aborted while the pool is asked its fate", async () => {
    const { pool, run, runner, runnerSockets } = setup();
    const runner1 = runner(1);
    runner1.answer = () => {
      runnerSockets(1).at(-1)?.close();
      return new Promise(() => {});
    };
    pool.fateAnswer = new Promise(() => {});
    fakeTimers();
    const { aborted, abort } = abortable();
    const lost = job();
    const running = tracked(run(lost, aborted));
    await vi.advanceTimersByTimeAsync(1000);
    expect(pool.fates).toEqual([[lost.runId, "L1"]]);
    abort(CANCELLED);
    expect(await running.result).toEqual(CANCELLED);
    await vi.advanceTimersByTimeAsync(1000);
    expect(pool.unplaced).toEqual([lost.runId]);
  });

  it("places a run again whose placement names a lease let go of since it was asked, as if its lane did not open", async () => {
    const { pool, run, runner, opened } = setup();
    const runner1 = runner(1);
    const runner2 = runner(2);
    const first = job();
    const second = job();
    // The first run hangs on L1; the second, refused there as full, waits for a placement.
    runner1.answer = (sentJob) => {
      if (sentJob.runId === first.runId) return new Promise(() => {});
      return sentJob.placed ? FINE : { status: "refused", reason: "full" };
    };
    const secondPlaced = later<Placement>();
    pool.placement = (_runId, count) => (count === 1 ? leaseOn(1) : count === 2 ? secondPlaced.promise : leaseOn(2));
    fakeTimers();
    const { aborted, abort } = abortable();
    const cancelled = run(first, aborted);
    await vi.advanceTimersByTimeAsync(100);
    const waiting = tracked(run(second));
    await vi.advanceTimersByTimeAsync(100);
    expect(pool.places).toHaveLength(2);
    // The first run's cancel lets go of L1 while the supervisor is placing the second run on it.
    abort(CANCELLED);
    expect(await cancelled).toEqual(CANCELLED);
    await vi.advanceTimersByTimeAsync(100);
    expect(pool.released).toEqual(["L1"]);
    secondPlaced.give(leaseOn(1));
    await vi.advanceTimersByTimeAsync(1000);
    expect(waiting.over()).toBe(true);
    expect(await waiting.result).toEqual(FINE);
    expect(pool.unplaced).toEqual([second.runId]);
    expect(pool.places.map(([runId]) => runId)).toEqual([first.runId, second.runId, second.runId]);
    expect(sent(runner1.jobs)).toEqual([
      [first.runId, "L1", true],
      [second.runId, "L1", false],
    ]);
    expect(sent(runner2.jobs)).toEqual([[second.runId, "L2", true]]);
    expect(opened(1)).toBe(1);
    expect(pool.released).toEqual(["L1"]);
  });
});
