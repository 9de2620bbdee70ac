import type { ExecuteResult, IsolateEvent } from "../protocol.ts";
import { EVENT_LINE_MARKER, type LeaseListener } from "../protocol.ts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RunnerPool } from "./runner-pool.ts";
import { fakeRunners } from "../testing/fake-runner.ts";
import { MB, SMALL_POOL, testJob } from "../testing/pool-fixtures.ts";

const job = testJob;

/** What a Worker session holding leases hears from the pool; `changed` is told after each message. */
function recordingListener(changed: () => void = () => {}) {
  const heard = {
    events: new Map<string, IsolateEvent[]>(),
    finished: new Set<string>(),
    ended: new Map<string, ExecuteResult>(),
    revoked: new Set<string>(),
  };
  const listener: LeaseListener = {
    events: (runId, batch) => {
      heard.events.set(runId, [...(heard.events.get(runId) ?? []), ...batch]);
      changed();
    },
    dropped: () => {},
    finished: (runId) => {
      heard.finished.add(runId);
      changed();
    },
    ended: (runId, result) => {
      heard.ended.set(runId, result);
      changed();
    },
    revoked: (leaseId) => {
      heard.revoked.add(leaseId);
      changed();
    },
  };
  return { listener, heard };
}

const noSink = { started() {}, log() {}, error() {}, events() {}, dropped() {} };
const noCapabilities = { call: async () => ({ ok: false as const, error: "none" }) };

/** A pool whose workspace "a" holds a runner (one run went the supervisor's way) and a lease on it. */
async function leasedPool() {
  const runners = fakeRunners();
  const pool = await RunnerPool.start({
    ...SMALL_POOL,
    start: runners.start,
  });
  const first = job("a");
  const reply = pool.execute(first, noSink, noCapabilities);
  const runner = await runners.runnerOf(first.runId);
  runner.jobs.get(first.runId)?.reply({ status: "ok", result: 1, eventLines: 0 });
  await reply;
  const { listener, heard } = recordingListener(runners.changed);
  const lease = await pool.lease("a", listener);
  if (!lease) throw new Error("no lease");
  /** The runner starting a direct run, as its control line says. */
  const start = (runId: string, timeoutMs = 1000) => runner.control(runId, "start", [lease.leaseId, timeoutMs]);
  const end = (runId: string, eventLines = 0) => runner.control(runId, "end", [eventLines, 0]);
  const until = runners.until;
  return { pool, runners, runner, lease, heard, start, end, until };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the runner pool's direct lane", () => {
  it("leases only a runner the workspace already holds, opened to that workspace alone", async () => {
    const { pool, runner, lease } = await leasedPool();
    expect(runner.assigned).toEqual({ workspaceId: "a", maxRuns: 2 });
    expect(lease.url).toBe(runner.directUrl);
    expect(await pool.lease("b", recordingListener().listener)).toBeNull();
  });

  it("watches a direct run from its start line: deadline, then the runner is killed and the Worker told", async () => {
    const { pool, runner, lease, heard, start, until } = await leasedPool();
    start("d1", 300);
    expect(pool.stats().directRuns).toBe(1);
    expect(pool.stats().active).toBe(1);
    await vi.advanceTimersByTimeAsync(299);
    expect(heard.ended.has("d1")).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await until(() => heard.ended.get("d1"));
    expect(result?.status === "error" && result.kind).toBe("timeout");
    expect(result?.status === "error" && "message" in result ? result.message : "").toMatch(/300 ms/);
    expect(runner.killed).toBe(true);
    expect(await pool.fate("d1", lease.leaseId)).toEqual({ status: "ended", result });
  });

  it("forwards a direct run's events, says when they are all sent, and frees its place at the end line", async () => {
    const { pool, runner, heard, start, end, until } = await leasedPool();
    start("d2");
    runner.line(`${EVENT_LINE_MARKER}["d2","log",["info",[{"t":"s","v":"hello"}]]]`);
    runner.line(`${EVENT_LINE_MARKER}["d2","done",1]`);
    end("d2", 1);
    await until(() => heard.finished.has("d2"));
    expect(heard.events.get("d2")).toEqual([{ kind: "log", level: "info", values: [{ t: "s", v: "hello" }] }]);
    expect(heard.finished.has("d2")).toBe(true);
    expect(heard.ended.has("d2")).toBe(false);
    expect(pool.stats().active).toBe(0);
    expect(runner.killed).toBe(false);
    // No deadline is left behind.
    await vi.advanceTimersByTimeAsync(5000);
    expect(runner.killed).toBe(false);
    expect(heard.ended.has("d2")).toBe(false);
  });

  it("ignores control lines without the runner's nonce: gadget code cannot forge an end", async () => {
    const { pool, runner, heard, start, until } = await leasedPool();
    start("d3", 300);
    runner.line(`${EVENT_LINE_MARKER}["d3","end:guess",[0,0]]`);
    runner.line(`${EVENT_LINE_MARKER}["d4","start:guess",["x",100000]]`);
    await vi.advanceTimersByTimeAsync(299);
    expect(pool.stats().active).toBe(1);
    expect(heard.ended.has("d3")).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await until(() => heard.ended.get("d3"))).status).toBe("error");
  });

  it("stops a direct run cancelled before its start line was read, as soon as it is read", async () => {
    const { pool, runner, heard, start, until } = await leasedPool();
    expect(pool.cancel("d5", "cancelled")).toBe(false);
    start("d5");
    const result = await until(() => heard.ended.get("d5"));
    expect(result?.status === "error" && result.kind).toBe("cancelled");
    expect(runner.killed).toBe(true);
  });

  it("retires the runner of a direct run cancelled before its start line was read: the next run goes elsewhere", async () => {
    const { pool, runners, runner, lease, heard, start, until } = await leasedPool();
    expect(pool.cancel("d9", "cancelled", lease.leaseId)).toBe(false);
    expect(heard.revoked.has(lease.leaseId)).toBe(true);
    const next = job("a");
    const reply = pool.execute(next, noSink, noCapabilities);
    const other = await runners.runnerOf(next.runId);
    expect(other).not.toBe(runner);
    other.jobs.get(next.runId)?.reply({ status: "ok", result: 2, eventLines: 0 });
    expect(await reply).toMatchObject({ status: "ok", result: 2 });
    // Its start line comes after all: the run is stopped, with the runner it was on.
    start("d9");
    expect(await until(() => heard.ended.get("d9"))).toMatchObject({ status: "error", kind: "cancelled" });
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
      expect(answers.get(runId)).toMatchObject({ status: "ended", result: { status: "error" } });
      expect(heard.ended.get(runId)?.status).toBe("error");
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
    const result = await until(() => heard.ended.get("d13"));
    expect(runner.killed).toBe(true);
    expect(result?.status === "error" && "message" in result ? result.message : "").toMatch(/d13 started/);
  });

  it("tells the Worker of a direct run whose runner died, with a clear outcome", async () => {
    const { pool, runner, heard, start, until } = await leasedPool();
    start("d6");
    runner.die("SIGSEGV");
    const result = await until(() => heard.ended.get("d6"));
    expect(result?.status === "error" && "error" in result ? result.error.message : "").toMatch(/stopped unexpectedly/);
    expect(pool.stats().active).toBe(0);
  });

  it("revokes the lease and closes the lane when the runner must make room for another workspace", async () => {
    const { pool, runner, lease, heard, until } = await leasedPool();
    // Every other runner is taken by other workspaces; "z" waits, so a's idle runner is recycled.
    const others = ["b", "c", "z"].map((workspace) => pool.execute(job(workspace), noSink, noCapabilities));
    await until(() => heard.revoked.has(lease.leaseId) && runner.laneClosed);
    // Killed only once the direct runs it already took have ended.
    await vi.advanceTimersByTimeAsync(1000);
    expect(runner.killed).toBe(false);
    runner.finishClose();
    await runner.exited;
    expect(runner.killed).toBe(true);
    void others;
  });

  it("still watches, and reports to its Worker, a run that started just after its lease was revoked", async () => {
    const { pool, runner, lease, heard, start, until } = await leasedPool();
    const others = ["b", "c", "z"].map((workspace) => pool.execute(job(workspace), noSink, noCapabilities));
    await until(() => heard.revoked.has(lease.leaseId));
    // The job was on its way when the lane closed: the draining runner starts it.
    start("d9", 300);
    runner.line(`${EVENT_LINE_MARKER}["d9","log",["info",[{"t":"s","v":"late"}]]]`);
    await until(() => heard.events.get("d9"));
    await vi.advanceTimersByTimeAsync(300);
    const result = await until(() => heard.ended.get("d9"));
    expect(heard.events.get("d9")).toHaveLength(1);
    expect(result?.status === "error" && result.kind).toBe("timeout");
    // Draining or not, a run past its deadline takes its runner down with it.
    expect(runner.killed).toBe(true);
    void others;
  });

  it("forgets a lease the Worker let go of, and routes runs sent on it just before", async () => {
    const { pool, lease, heard, start, end } = await leasedPool();
    pool.releaseLeases([lease.leaseId]);
    start("d10");
    end("d10", 0);
    // Past its deadline: nothing of it is left to end, and nothing goes to the Worker that let go.
    await vi.advanceTimersByTimeAsync(5000);
    expect(pool.stats().directRuns).toBe(1);
    expect(pool.stats().active).toBe(0);
    expect(heard.ended.has("d10")).toBe(false);
  });

  it("closes a leased runner's lane before stopping it for left-over memory: a run that just started ends normally", async () => {
    const { pool, runners, runner, lease, heard, start, end } = await leasedPool();
    runner.rssBytes += 200 * MB;
    for (let waited = 0; waited < 1000 && !runner.laneClosed; waited += 10) await vi.advanceTimersByTimeAsync(10);
    expect(heard.revoked.has(lease.leaseId)).toBe(true);
    expect(runner.laneClosed).toBe(true);
    // A direct run started just before the lane closed: its start line comes now.
    start("d11");
    await vi.advanceTimersByTimeAsync(150);
    expect(runner.killed).toBe(false);
    end("d11");
    runner.finishClose();
    // Its replacement starts once the pool has dealt with its end.
    await runners.started(4);
    expect(heard.ended.has("d11")).toBe(false);
    expect(runner.killed).toBe(true);
    expect(pool.stats().active).toBe(0);
  });
});
