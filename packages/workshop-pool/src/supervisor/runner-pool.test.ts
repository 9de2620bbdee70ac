import { EVENT_LINE_MARKER, type LeaseListener, type Placement } from "../protocol.ts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_EVENTS_PER_BATCH, MAX_LINES_PER_RUN } from "./event-relay.ts";
import { type PoolReport, RunnerPool, type RunnerPoolOptions } from "./runner-pool.ts";
import { fakeRunners } from "../testing/fake-runner.ts";
import {
  MB,
  placeRun,
  type RunOptions,
  recordingListener,
  SMALL_POOL,
  startRun,
  testRunId,
} from "../testing/pool-fixtures.ts";

const pools: RunnerPool[] = [];

/** A pool over fake runners, a Worker session's recording listener, and what a test does with them. */
async function startPool(options: Partial<RunnerPoolOptions> = {}) {
  const runners = fakeRunners();
  const reports: [string, PoolReport][] = [];
  const pool = await RunnerPool.start({
    ...SMALL_POOL,
    start: runners.start,
    report: (workspace, report) => reports.push([workspace, report]),
    ...options,
  });
  pools.push(pool);
  const { listener, heard } = recordingListener(runners.changed);
  return {
    pool,
    runners,
    reports,
    listener,
    heard,
    until: runners.until,
    /** A placement that may wait its turn: what it answers, once it does. */
    place: (workspace: string, nested = false) => pool.place(testRunId(workspace), workspace, nested, listener),
    placeRun: (workspace: string, run: RunOptions = {}, by: LeaseListener = listener) =>
      placeRun(pool, runners, by, workspace, run),
    startRun: (workspace: string, run: RunOptions = {}) => startRun(pool, runners, listener, workspace, run),
  };
}

/** A pool whose workspace "a" holds a runner (its first run was placed there and ran) and a lease on it. */
async function leasedPool() {
  const world = await startPool();
  const first = await world.startRun("a");
  first.end();
  await world.until(() => world.pool.stats().active === 0);
  const { runner, lease } = first;
  /** The runner starting a run sent on the lease, as its control line says (no placement: the Worker held the lane). */
  const start = (runId: string, timeoutMs = 1000) => runner.control(runId, "start", [lease.leaseId, timeoutMs]);
  const end = (runId: string, eventLines = 0) => runner.control(runId, "end", [eventLines, 0]);
  /** Another workspace's run placed (and, like a Worker, never started here). */
  const elsewhere = (workspace: string) =>
    world.pool.place(testRunId(workspace), workspace, false, recordingListener().listener);
  return { ...world, runner, lease, start, end, elsewhere };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.stop()));
  vi.useRealTimers();
});

describe("the runner pool: placing runs and watching them from their start lines", () => {
  it("places a run on a runner opened to its workspace alone, and reuses the session's lease on it", async () => {
    const { runners, runner, lease, placeRun } = await leasedPool();
    expect(runner.assigned).toEqual({ workspaceId: "a", maxRuns: 2 });
    expect(lease.url).toBe(runner.laneUrl);
    // One lease per session and runner: the next placement there answers the same one.
    expect((await placeRun("a")).lease).toEqual(lease);
    const other = (await placeRun("b")).lease;
    expect(runners.runnerAt(other.url)).not.toBe(runner);
    expect(other.leaseId).not.toBe(lease.leaseId);
    // Another session gets a lease of its own on the same runner.
    const stranger = await placeRun("a", {}, recordingListener().listener);
    expect(stranger.runner).toBe(runner);
    expect(stranger.lease.leaseId).not.toBe(lease.leaseId);
  });

  it("keeps room for a placed run until it starts or is given up, and lists started runs only", async () => {
    const { pool, runner, listener, placeRun } = await leasedPool();
    const a1 = await placeRun("a");
    const a2 = await placeRun("a");
    expect(pool.runners().find((r) => r.pid === runner.pid)?.runs).toEqual([]);
    // Both of its places are kept: a third run of "a" waits its turn.
    let third: unknown;
    const waiting = pool.place(testRunId("a"), "a", false, listener).then((placement) => {
      third = placement;
      return placement;
    });
    a1.start();
    expect(pool.runners().find((r) => r.pid === runner.pid)?.runs).toEqual([a1.runId]);
    expect(pool.stats().queued).toBe(1);
    await vi.advanceTimersByTimeAsync(10);
    expect(third).toBeUndefined();
    // Only the session that placed a run may give its place up.
    pool.unplace(a2.runId, recordingListener().listener);
    await vi.advanceTimersByTimeAsync(10);
    expect(third).toBeUndefined();
    pool.unplace(a2.runId, listener);
    const placement = await waiting;
    expect(placement).toMatchObject({ status: "placed", lease: a1.lease });
    expect(pool.stats().queued).toBe(0);
  });

  it("frees the room kept for a session's placed runs when the session goes: the next waiter gets it", async () => {
    const { pool, lease, listener, placeRun } = await leasedPool();
    await placeRun("a");
    await placeRun("a");
    const next = recordingListener();
    let placement: unknown;
    const waiting = pool.place(testRunId("a"), "a", false, next.listener).then((answer) => {
      placement = answer;
      return answer;
    });
    await vi.advanceTimersByTimeAsync(10);
    expect(placement).toBeUndefined();
    pool.releaseLeases(listener);
    const answer = await waiting;
    expect(answer).toMatchObject({ status: "placed" });
    // The session that went has no lease there any more: the new one is the waiter's own.
    expect(answer.status === "placed" && answer.lease.leaseId).not.toBe(lease.leaseId);
  });

  it("cancels the waiting runs of a session that goes, and places none for it afterwards", async () => {
    const { pool, placeRun } = await leasedPool();
    const held = [await placeRun("a"), await placeRun("a")];
    const gone = recordingListener();
    const waiting = pool.place(testRunId("a"), "a", false, gone.listener);
    await vi.advanceTimersByTimeAsync(10);
    expect(pool.stats().queued).toBe(1);
    pool.releaseLeases(gone.listener);
    expect(await waiting).toMatchObject({ status: "error", kind: "cancelled" });
    expect(pool.stats().queued).toBe(0);
    expect(await pool.place(testRunId("a"), "a", false, gone.listener)).toMatchObject({ kind: "cancelled" });
    // The room it would have taken goes to the next session that asks.
    pool.unplace(held[0]?.runId ?? "");
    expect(await pool.place(testRunId("a"), "a", false, recordingListener().listener)).toMatchObject({
      status: "placed",
    });
  });

  it("watches a run from its start line: deadline, then the runner is killed and the Worker told", async () => {
    const { pool, runner, lease, heard, start, until } = await leasedPool();
    start("d1", 300);
    expect(pool.stats().adoptedRuns).toBe(2);
    expect(pool.stats().active).toBe(1);
    await vi.advanceTimersByTimeAsync(299);
    expect(heard.stopped.has("d1")).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await until(() => heard.stopped.get("d1"));
    expect(result?.status === "error" && result.kind).toBe("timeout");
    expect(result?.status === "error" && "message" in result ? result.message : "").toMatch(/300 ms/);
    expect(runner.killed).toBe(true);
    expect(await pool.fate("d1", lease.leaseId)).toEqual({ status: "stopped", result });
  });

  it("forwards a run's events, says when they are all sent, and frees its place at the end line", async () => {
    const { pool, runner, heard, start, end, until } = await leasedPool();
    start("d2");
    runner.line(`${EVENT_LINE_MARKER}["d2","log",["info",[{"t":"s","v":"hello"}]]]`);
    runner.line(`${EVENT_LINE_MARKER}["d2","done",1]`);
    end("d2", 1);
    await until(() => heard.eventsSent.has("d2"));
    expect(heard.events.get("d2")).toEqual([{ kind: "log", level: "info", values: [{ t: "s", v: "hello" }] }]);
    expect(heard.eventsSent.has("d2")).toBe(true);
    expect(heard.stopped.has("d2")).toBe(false);
    expect(pool.stats().active).toBe(0);
    expect(runner.killed).toBe(false);
    // No deadline is left behind.
    await vi.advanceTimersByTimeAsync(5000);
    expect(runner.killed).toBe(false);
    expect(heard.stopped.has("d2")).toBe(false);
  });

  it("ignores control lines without the runner's nonce: gadget code cannot forge an end", async () => {
    const { pool, runner, heard, start, until } = await leasedPool();
    start("d3", 300);
    runner.line(`${EVENT_LINE_MARKER}["d3","end:guess",[0,0]]`);
    runner.line(`${EVENT_LINE_MARKER}["d4","start:guess",["x",100000]]`);
    await vi.advanceTimersByTimeAsync(299);
    expect(pool.stats().active).toBe(1);
    expect(heard.stopped.has("d3")).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await until(() => heard.stopped.get("d3"))).status).toBe("error");
  });

  it("stops a run cancelled before its start line was read, as soon as it is read", async () => {
    const { pool, runner, heard, start, until } = await leasedPool();
    expect(pool.cancel("d5", "cancelled")).toBe(false);
    start("d5");
    const result = await until(() => heard.stopped.get("d5"));
    expect(result?.status === "error" && result.kind).toBe("cancelled");
    expect(runner.killed).toBe(true);
  });

  it("retires the runner of a run cancelled before its start line was read: the next run goes elsewhere", async () => {
    const { pool, runner, lease, heard, start, until, placeRun } = await leasedPool();
    expect(pool.cancel("d9", "cancelled", lease.leaseId)).toBe(false);
    expect(heard.revoked.has(lease.leaseId)).toBe(true);
    const next = await placeRun("a", {}, recordingListener().listener);
    expect(next.runner).not.toBe(runner);
    // Its start line comes after all: the run is stopped, with the runner it was on.
    start("d9");
    expect(await until(() => heard.stopped.get("d9"))).toMatchObject({ status: "error", kind: "cancelled" });
    expect(runner.killed).toBe(true);
  });

  it("says a run never started only once its runner is gone and all it wrote was read, whatever the clock says", async () => {
    const { pool, runners, runner, lease, heard, start, until } = await leasedPool();
    runner.outputOpenOnDeath = true;
    start("d7");
    // The Worker lost its link to the runner with three runs in flight: the runner is stopped.
    const answers = new Map<string, unknown>();
    for (const runId of ["d7", "d8", "d9"])
      void pool.fate(runId, lease.leaseId).then((fate) => {
        answers.set(runId, fate);
        runners.changed();
      });
    await until(() => runner.killed);
    // Long after any margin a clock could give, nothing is answered while its output may still hold a start line.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(answers.size).toBe(0);
    start("d9");
    runner.closeOutput();
    await until(() => answers.size === 3);
    expect(answers.get("d8")).toEqual({ status: "never-started" });
    for (const runId of ["d7", "d9"]) {
      expect(answers.get(runId)).toMatchObject({ status: "stopped", result: { status: "error" } });
      expect(heard.stopped.get(runId)?.status).toBe("error");
    }
    expect(pool.stats().active).toBe(0);
  });

  it("waits for a runner blocked by a spinning run to be stopped at that run's deadline, then answers", async () => {
    const { pool, runners, runner, lease, start, until } = await leasedPool();
    start("d14", 500);
    runner.blocked = true;
    let answer: unknown;
    void pool.fate("d15", lease.leaseId).then((fate) => {
      answer = fate;
      runners.changed();
    });
    await vi.advanceTimersByTimeAsync(400);
    expect(runner.killed).toBe(false);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(200);
    expect(runner.killed).toBe(true);
    expect(await until(() => answer)).toEqual({ status: "never-started" });
  });

  it("knows nothing of a run sent on a lease it never granted", async () => {
    const { pool } = await leasedPool();
    expect(await pool.fate("d12", "no-such-lease")).toEqual({ status: "unknown" });
  });

  it("kills a runner that writes a second start line for a run: the copy must not go on", async () => {
    const { runner, heard, start, until } = await leasedPool();
    start("d13");
    start("d13");
    const result = await until(() => heard.stopped.get("d13"));
    expect(runner.killed).toBe(true);
    expect(result?.status === "error" && "message" in result ? result.message : "").toMatch(/d13 started/);
  });

  it("tells the Worker of a run whose runner died, with a clear outcome", async () => {
    const { pool, runner, heard, start, until } = await leasedPool();
    start("d6");
    runner.die("SIGSEGV");
    const result = await until(() => heard.stopped.get("d6"));
    expect(result?.status === "error" && "error" in result ? result.error.message : "").toMatch(/stopped unexpectedly/);
    expect(pool.stats().active).toBe(0);
  });

  it("revokes the lease and closes the lane when the runner must make room for another workspace", async () => {
    const { runner, lease, heard, until, elsewhere } = await leasedPool();
    // Every other runner is taken by other workspaces; "z" waits, so a's idle runner is recycled.
    const others = ["b", "c", "z"].map(elsewhere);
    await until(() => heard.revoked.has(lease.leaseId) && runner.laneClosed);
    // Killed only once the runs it already took have ended.
    await vi.advanceTimersByTimeAsync(1000);
    expect(runner.killed).toBe(false);
    runner.finishClose();
    await runner.exited;
    expect(runner.killed).toBe(true);
    void others;
  });

  it("still watches, and reports to its Worker, a run that started just after its lease was revoked", async () => {
    const { runner, lease, heard, start, until, elsewhere } = await leasedPool();
    const others = ["b", "c", "z"].map(elsewhere);
    await until(() => heard.revoked.has(lease.leaseId));
    // The job was on its way when the lane closed: the draining runner starts it.
    start("d9", 300);
    runner.line(`${EVENT_LINE_MARKER}["d9","log",["info",[{"t":"s","v":"late"}]]]`);
    await until(() => heard.events.get("d9"));
    await vi.advanceTimersByTimeAsync(300);
    const result = await until(() => heard.stopped.get("d9"));
    expect(heard.events.get("d9")).toHaveLength(1);
    expect(result?.status === "error" && result.kind).toBe("timeout");
    // Draining or not, a run past its deadline takes its runner down with it.
    expect(runner.killed).toBe(true);
    void others;
  });

  it("ends a run on a draining runner once: its own end, not a crash when the pool then kills the runner", async () => {
    const { pool, runner, lease, heard, start, end, until, elsewhere } = await leasedPool();
    const others = ["b", "c", "z"].map(elsewhere);
    await until(() => heard.revoked.has(lease.leaseId));
    start("d20");
    end("d20", 0);
    await until(() => pool.stats().active === 0);
    runner.finishClose();
    await runner.closed;
    await vi.advanceTimersByTimeAsync(10);
    expect(runner.killed).toBe(true);
    expect(heard.stopped.has("d20")).toBe(false);
    void others;
  });

  it("completes a run whose end line was read though its runner dies before its last events come", async () => {
    const { pool, runner, lease, heard, start, end, until, elsewhere } = await leasedPool();
    const others = ["b", "c", "z"].map(elsewhere);
    await until(() => heard.revoked.has(lease.leaseId));
    start("d21", 10_000);
    // One event line is announced and never comes: the runner is gone first.
    end("d21", 1);
    runner.die("SIGKILL");
    await runner.closed;
    await vi.advanceTimersByTimeAsync(2000);
    expect(heard.stopped.get("d21")).toBeUndefined();
    expect(heard.eventsSent.has("d21")).toBe(true);
    expect(pool.stats().active).toBe(0);
    void others;
  });

  it("ends with a crash a run on a draining runner that dies under it", async () => {
    const { runner, lease, heard, start, until, elsewhere } = await leasedPool();
    const others = ["b", "c", "z"].map(elsewhere);
    await until(() => heard.revoked.has(lease.leaseId));
    start("d22");
    runner.die("SIGKILL");
    const result = await until(() => heard.stopped.get("d22"));
    expect(result).toMatchObject({ status: "error" });
    void others;
  });

  it("forgets a lease the Worker let go of, and routes runs sent on it just before", async () => {
    const { pool, lease, listener, heard, start, end } = await leasedPool();
    pool.releaseLeases(listener, lease.leaseId);
    start("d10");
    end("d10", 0);
    // Past its deadline: nothing of it is left to end, and nothing goes to the Worker that let go.
    await vi.advanceTimersByTimeAsync(5000);
    expect(pool.stats().adoptedRuns).toBe(2);
    expect(pool.stats().active).toBe(0);
    expect(heard.stopped.has("d10")).toBe(false);
  });

  it("closes a leased runner's lane before stopping it for left-over memory: a run that just started ends normally", async () => {
    const { pool, runners, runner, lease, heard, start, end } = await leasedPool();
    runner.rssBytes += 200 * MB;
    for (let waited = 0; waited < 1000 && !runner.laneClosed; waited += 10) await vi.advanceTimersByTimeAsync(10);
    expect(heard.revoked.has(lease.leaseId)).toBe(true);
    expect(runner.laneClosed).toBe(true);
    // A run started just before the lane closed: its start line comes now.
    start("d11");
    await vi.advanceTimersByTimeAsync(150);
    expect(runner.killed).toBe(false);
    end("d11");
    runner.finishClose();
    // Its replacement starts once the pool has dealt with its end.
    await runners.started(4);
    expect(heard.stopped.has("d11")).toBe(false);
    expect(runner.killed).toBe(true);
    expect(pool.stats().active).toBe(0);
  });
});

describe("the runner pool: placing in turns, within caps", () => {
  it("refuses a workspace past its own cap, naming that cap, while another workspace is placed", async () => {
    const { place } = await startPool();
    // Two fit its one runner, two wait their turn: all four count toward its cap.
    const a = [place("a"), place("a"), place("a"), place("a")];
    const refused = await place("a");
    expect(refused).toMatchObject({ status: "error", kind: "busy" });
    expect("message" in refused && refused.message).toMatch(/server is busy with this workspace's runs: .*4 runs/);
    expect("message" in refused && refused.message).not.toMatch(/loop|your code/i);
    expect(await place("b")).toMatchObject({ status: "placed" });
    void a;
  });

  it("refuses past the server's cap, naming the whole server", async () => {
    const { place } = await startPool({ maxRuns: 3 });
    for (const workspace of ["a", "b", "c"]) expect(await place(workspace)).toMatchObject({ status: "placed" });
    const refused = await place("d");
    expect("message" in refused && refused.message).toMatch(/server is busy: 3 runs from all workspaces/);
  });

  it("ends a placement that waited too long as busy, blaming the wait, not the run's code", async () => {
    const { pool, place } = await startPool({ maxWaitMs: 1000 });
    await place("a");
    await place("a");
    const waiting = place("a");
    await vi.advanceTimersByTimeAsync(1000);
    const refused = await waiting;
    expect(refused).toMatchObject({ status: "error", kind: "busy" });
    expect("message" in refused && refused.message).toMatch(
      /server is busy: no runner was free .*this workspace's runners/,
    );
    expect("message" in refused && refused.message).not.toMatch(/loop|your code/i);
    expect(pool.stats()).toMatchObject({ queued: 0 });
  });

  it("counts a run's deadline from its start line, not from when it began waiting for its turn", async () => {
    const { heard, startRun, placeRun } = await startPool({ size: 1, runsPerRunner: 1 });
    const first = await startRun("a", { timeoutMs: 1000 });
    const second = placeRun("a", { timeoutMs: 1000 });
    await vi.advanceTimersByTimeAsync(900);
    first.end();
    const placed = await second;
    placed.start();
    // 900 ms waited + 900 ms running: past 1000 ms since it was placed, within its own 1000 ms.
    await vi.advanceTimersByTimeAsync(900);
    expect(heard.stopped.has(placed.runId)).toBe(false);
    placed.end();
    await vi.advanceTimersByTimeAsync(5000);
    expect(heard.stopped.size).toBe(0);
    expect(placed.runner.killed).toBe(false);
  });

  it("serves waiting workspaces in turns: one workspace's backlog does not delay another's run", async () => {
    const { pool, until, place, startRun, placeRun } = await startPool({
      size: 1,
      runsPerRunner: 1,
      maxRunsPerWorkspace: 10,
      maxRuns: 20,
    });
    const first = await startRun("a", { timeoutMs: 10_000 });
    const backlog = Array.from({ length: 4 }, () => place("a"));
    const b = placeRun("b", { timeoutMs: 10_000 });
    // b holds no runner: a's takes no new run, and is recycled for b (tenant affinity) once a's first
    // run ends; b goes before a's backlog.
    await until(() => first.runner.laneClosed);
    first.end();
    first.runner.finishClose();
    const bRun = await b;
    await until(() => first.runner.killed);
    expect(bRun.runner).not.toBe(first.runner);
    expect(bRun.runner.assigned?.workspaceId).toBe("b");
    expect(pool.stats().queued).toBe(4);
    void backlog;
  });

  it("places a nested run beside its caller on a full runner, ahead of its workspace's queue, counted toward it", async () => {
    const { pool, listener, place, startRun, until, heard } = await startPool({
      size: 2,
      runsPerRunner: 1,
      maxRunsPerWorkspace: 3,
    });
    const parent = await startRun("a");
    // Another run of "a" waits its turn for a's one runner: the nested run must not queue behind it,
    // as its caller holds that runner until the nested run is done.
    const queued = place("a");
    const childId = testRunId("a");
    let child: Placement | undefined;
    void pool.place(childId, "a", true, listener).then((placement) => {
      child = placement;
    });
    await vi.advanceTimersByTimeAsync(10);
    expect(child).toEqual({ status: "placed", lease: parent.lease });
    const refused = await place("a");
    expect("message" in refused && refused.message).toMatch(/this workspace's runs: it already has 3 runs/);
    parent.runner.control(childId, "start", [parent.lease.leaseId, 1000]);
    parent.runner.control(childId, "end", [0, 0]);
    parent.end();
    expect(await queued).toMatchObject({ status: "placed", lease: parent.lease });
    await until(() => pool.stats().active === 0);
    expect(heard.stopped.size).toBe(0);
  });

  it("cancels a placement still waiting its turn", async () => {
    const { pool, listener, place } = await startPool({ size: 1, runsPerRunner: 1 });
    await place("a");
    const runId = testRunId("a");
    const waiting = pool.place(runId, "a", false, listener);
    expect(pool.cancel(runId, "cancelled")).toBe(true);
    expect(await waiting).toMatchObject({ status: "error", kind: "cancelled" });
    expect(pool.stats()).toMatchObject({ queued: 0 });
  });

  it("drains: running runs and waiting placements end as cancelled because the Workshop is shutting down", async () => {
    const { pool, heard, startRun, place } = await startPool({ size: 1, runsPerRunner: 1 });
    const running = await startRun("a");
    const waiting = place("a");
    const drained = pool.drain();
    const shuttingDown = { status: "error", kind: "cancelled", message: "The Workshop is shutting down." };
    expect(await waiting).toEqual(shuttingDown);
    expect(heard.stopped.get(running.runId)).toEqual(shuttingDown);
    expect(running.runner.killed).toBe(true);
    await vi.advanceTimersByTimeAsync(20);
    await drained;
    expect(await place("b")).toEqual(shuttingDown);
  });
});

describe("the runner pool: how a started run ends", () => {
  it("kills a runner at the deadline of a run that spins, and ends its sibling naming the run that caused it", async () => {
    const { runners, heard, startRun, until } = await startPool();
    const sibling = await startRun("a", { timeoutMs: 5000 });
    const spinner = await startRun("a", { timeoutMs: 1000 });
    expect(spinner.runner).toBe(sibling.runner);
    spinner.runner.blocked = true;
    await vi.advanceTimersByTimeAsync(1000 + 10);
    expect(await until(() => heard.stopped.get(spinner.runId))).toMatchObject({ status: "error", kind: "timeout" });
    const other = heard.stopped.get(sibling.runId);
    expect(other).toMatchObject({ status: "error", kind: "cancelled" });
    expect(other && "message" in other && other.message).toContain(spinner.runId);
    expect(spinner.runner.killed).toBe(true);
    // A fresh runner replaces it.
    await runners.started(4);
    expect(runners.alive()).toHaveLength(3);
  });

  it("gives up only the overdue run when its runner still answers (it is waiting, not spinning)", async () => {
    const { pool, heard, startRun, placeRun, until } = await startPool();
    const sibling = await startRun("a", { timeoutMs: 5000 });
    const slow = await startRun("a", { timeoutMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(await until(() => heard.stopped.get(slow.runId))).toMatchObject({ status: "error", kind: "timeout" });
    expect(slow.runner.killed).toBe(false);
    sibling.end();
    await until(() => pool.stats().active === 0);
    expect(heard.stopped.has(sibling.runId)).toBe(false);
    // The runner goes on serving its workspace.
    expect((await placeRun("a")).runner).toBe(slow.runner);
  });

  it("ends a run the runtime found hung as a timeout at its deadline, without killing its runner", async () => {
    const { heard, startRun, until } = await startPool();
    const hung = await startRun("a", { timeoutMs: 1000 });
    hung.end(0, true);
    // The pool has read its end line and holds the run until its deadline.
    await vi.advanceTimersByTimeAsync(999);
    expect(heard.stopped.has(hung.runId)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await until(() => heard.stopped.get(hung.runId))).toMatchObject({ status: "error", kind: "timeout" });
    expect(hung.runner.killed).toBe(false);
  });

  it("kills an idle runner that keeps spinning after its run, tells its workspace, and leaves others alone", async () => {
    const { pool, heard, reports, startRun, until } = await startPool();
    const a = await startRun("a");
    a.end();
    const b = await startRun("b", { timeoutMs: 10_000 });
    for (let i = 0; i < 10; i++) {
      a.runner.cpu += 100;
      b.runner.cpu += 100;
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(a.runner.killed).toBe(true);
    expect(heard.revoked.has(a.lease.leaseId)).toBe(true);
    expect(b.runner.killed).toBe(false);
    expect(reports.map(([workspace, report]) => [workspace, report.kind])).toEqual([["a", "leftover-cpu"]]);
    expect(pool.stats().leftoverKills).toBe(1);
    b.end();
    await until(() => pool.stats().active === 0);
    expect(heard.stopped.size).toBe(0);
  });

  it("ends a run whose runner died under it with a clear outcome, frees the room it kept, and heals", async () => {
    // Its workspace may have two runs: both must be free again once the runner is gone.
    const { pool, runners, heard, startRun, placeRun, until } = await startPool({ maxRunsPerWorkspace: 2 });
    const a = await startRun("a");
    // Placed on the same runner, not started yet: the room it kept goes with the runner.
    const placed = await placeRun("a");
    expect(placed.runner).toBe(a.runner);
    a.runner.die("SIGKILL");
    const result = await until(() => heard.stopped.get(a.runId));
    expect(result).toMatchObject({ status: "error", kind: "user", error: { name: "RunnerCrashed" } });
    expect(JSON.stringify(result)).toContain("SIGKILL");
    expect(heard.revoked.has(a.lease.leaseId)).toBe(true);
    expect(heard.stopped.has(placed.runId)).toBe(false);
    await runners.started(4);
    expect(runners.alive()).toHaveLength(3);
    // Both of its places, and both of its workspace's turns, are free: two runs of "a" are placed at once on its new runner.
    const next = await startRun("a");
    const beside = await placeRun("a");
    expect(next.runner).not.toBe(a.runner);
    expect(beside.runner).toBe(next.runner);
    next.end();
    await until(() => pool.stats().active === 0);
    expect(heard.stopped.has(next.runId)).toBe(false);
  });

  it("forwards event lines in batches and counts lines past the cap without forwarding them", async () => {
    const { heard, startRun, until } = await startPool();
    const a = await startRun("a");
    const line = (runId: string, i: number) =>
      `${EVENT_LINE_MARKER}${JSON.stringify([runId, "log", ["log", [{ t: "number", v: i }]]])}`;
    for (let i = 0; i < 3000; i++) a.runner.line(line(a.runId, i));
    // Another run's line on this runner reaches nobody.
    a.runner.line(line("someone-else", 0));
    a.runner.line(`${EVENT_LINE_MARKER}${JSON.stringify([a.runId, "done", 3000])}`);
    a.end(3000);
    await until(() => heard.eventsSent.has(a.runId));
    expect(heard.events.get(a.runId)).toHaveLength(MAX_LINES_PER_RUN);
    expect(heard.batches.get(a.runId)).toBeLessThanOrEqual(Math.ceil(MAX_LINES_PER_RUN / MAX_EVENTS_PER_BATCH) + 1);
    expect(heard.events.has("someone-else")).toBe(false);
    expect(heard.stopped.has(a.runId)).toBe(false);
  });

  it("reads memory every few ms while runs start back to back: a bomb beside a stream of short runs is stopped", async () => {
    const { heard, startRun } = await startPool({ runsPerRunner: 4 });
    const bomb = await startRun("a", { timeoutMs: 10_000 });
    bomb.runner.rssBytes += 200 * MB;
    // A short run starts and ends every 4 ms: each start must not put the 10 ms sample off again.
    for (let i = 0; i < 10 && !heard.stopped.has(bomb.runId); i++) {
      const short = await startRun("a", { timeoutMs: 10_000 });
      await vi.advanceTimersByTimeAsync(4);
      short.end();
    }
    expect(heard.stopped.get(bomb.runId)).toMatchObject({ status: "error", kind: "memory" });
    expect(bomb.runner.killed).toBe(true);
  });
});
