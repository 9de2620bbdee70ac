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
    eventsSent: new Set<string>(),
    stopped: new Map<string, ExecuteResult>(),
    revoked: new Set<string>(),
  };
  const listener: LeaseListener = {
    events: (runId, batch) => {
      heard.events.set(runId, [...(heard.events.get(runId) ?? []), ...batch]);
      changed();
    },
    dropped: () => {},
    eventsSent: (runId) => {
      heard.eventsSent.add(runId);
      changed();
    },
    stopped: (runId, result) => {
      heard.stopped.set(runId, result);
      changed();
    },
    revoked: (leaseId) => {
      heard.revoked.add(leaseId);
      changed();
    },
  };
  return { listener, heard };
}

/** A placement's lease, or a failure naming what came instead. */
async function placed(pool: RunnerPool, runId: string, workspace: string, listener: LeaseListener) {
  const placement = await pool.place(runId, workspace, false, listener);
  if (placement.status !== "placed") throw new Error(`not placed: ${JSON.stringify(placement)}`);
  return placement.lease;
}

/** A pool whose workspace "a" holds a runner (its first run was placed there and ran) and a lease on it. */
async function leasedPool() {
  const runners = fakeRunners();
  const pool = await RunnerPool.start({
    ...SMALL_POOL,
    start: runners.start,
  });
  const { listener, heard } = recordingListener(runners.changed);
  const first = job("a");
  const lease = await placed(pool, first.runId, "a", listener);
  const runner = runners.runnerAt(lease.url);
  if (!runner) throw new Error("no runner at the lease's url");
  /** The runner starting a run, as its control line says. */
  const start = (runId: string, timeoutMs = 1000) => runner.control(runId, "start", [lease.leaseId, timeoutMs]);
  const end = (runId: string, eventLines = 0) => runner.control(runId, "end", [eventLines, 0]);
  const until = runners.until;
  start(first.runId);
  end(first.runId);
  await until(() => pool.stats().active === 0);
  /** Another workspace's run placed (and, like a Worker, never started here). */
  const elsewhere = (workspace: string) =>
    pool.place(job(workspace).runId, workspace, false, recordingListener().listener);
  return { pool, runners, runner, lease, heard, listener, start, end, until, elsewhere };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the runner pool: placing runs and watching them from their start lines", () => {
  it("places a run on a runner opened to its workspace alone, and reuses the session's lease on it", async () => {
    const { pool, runners, runner, lease, listener } = await leasedPool();
    expect(runner.assigned).toEqual({ workspaceId: "a", maxRuns: 2 });
    expect(lease.url).toBe(runner.laneUrl);
    expect(await placed(pool, job("a").runId, "a", listener)).toEqual(lease);
    const other = await placed(pool, job("b").runId, "b", listener);
    expect(runners.runnerAt(other.url)).not.toBe(runner);
    expect(other.leaseId).not.toBe(lease.leaseId);
  });

  it("keeps room for a placed run until it starts or is given up, and lists started runs only", async () => {
    const { pool, runner, listener, start } = await leasedPool();
    const a1 = job("a").runId;
    const a2 = job("a").runId;
    await placed(pool, a1, "a", listener);
    await placed(pool, a2, "a", listener);
    expect(pool.runners().find((r) => r.pid === runner.pid)?.runs).toEqual([]);
    // Both of its places are kept: a third run of "a" waits its turn.
    const a3 = job("a").runId;
    let third: unknown;
    const waiting = pool.place(a3, "a", false, listener).then((placement) => {
      third = placement;
      return placement;
    });
    start(a1);
    expect(pool.runners().find((r) => r.pid === runner.pid)?.runs).toEqual([a1]);
    expect(third).toBeUndefined();
    await vi.advanceTimersByTimeAsync(10);
    expect(third).toBeUndefined();
    pool.unplace(a2);
    expect(await waiting).toMatchObject({ status: "placed" });
  });

  it("frees the room kept for a session's placed runs when the session goes", async () => {
    const { pool, lease, listener, until } = await leasedPool();
    await placed(pool, job("a").runId, "a", listener);
    await placed(pool, job("a").runId, "a", listener);
    pool.releaseLeases([lease.leaseId], listener);
    const next = recordingListener().listener;
    expect(await until(() => pool.place(job("a").runId, "a", false, next))).toMatchObject({ status: "placed" });
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
    const { pool, runners, runner, lease, heard, start, until } = await leasedPool();
    expect(pool.cancel("d9", "cancelled", lease.leaseId)).toBe(false);
    expect(heard.revoked.has(lease.leaseId)).toBe(true);
    const next = await placed(pool, job("a").runId, "a", recordingListener().listener);
    expect(runners.runnerAt(next.url)).not.toBe(runner);
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

  it("forgets a lease the Worker let go of, and routes runs sent on it just before", async () => {
    const { pool, lease, heard, start, end } = await leasedPool();
    pool.releaseLeases([lease.leaseId]);
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
  async function pool(options: Partial<Parameters<typeof RunnerPool.start>[0]> = {}) {
    const runners = fakeRunners();
    const started = await RunnerPool.start({ ...SMALL_POOL, start: runners.start, ...options });
    const { listener } = recordingListener(runners.changed);
    const place = (workspace: string, nested = false) =>
      started.place(job(workspace).runId, workspace, nested, listener);
    return { pool: started, runners, listener, place };
  }

  it("refuses a workspace past its own cap, naming that cap, while another workspace is placed", async () => {
    const { pool: p, place } = await pool();
    // Two fit its one runner, two wait their turn: all four count toward its cap.
    const a = [place("a"), place("a"), place("a"), place("a")];
    const refused = await place("a");
    expect(refused).toMatchObject({ status: "error", kind: "busy" });
    expect("message" in refused && refused.message).toMatch(/server is busy with this workspace's runs: .*4 runs/);
    expect(await place("b")).toMatchObject({ status: "placed" });
    void a;
    await p.stop();
  });

  it("refuses past the server's cap, naming the whole server", async () => {
    const { pool: p, place } = await pool({ maxRuns: 3 });
    for (const workspace of ["a", "b", "c"]) expect(await place(workspace)).toMatchObject({ status: "placed" });
    const refused = await place("d");
    expect("message" in refused && refused.message).toMatch(/server is busy: 3 runs from all workspaces/);
    await p.stop();
  });

  it("ends a placement that waited too long as busy, blaming the wait, not the run's code", async () => {
    const { pool: p, place } = await pool({ maxWaitMs: 1000 });
    await place("a");
    await place("a");
    const waiting = place("a");
    await vi.advanceTimersByTimeAsync(1000);
    const refused = await waiting;
    expect(refused).toMatchObject({ status: "error", kind: "busy" });
    expect("message" in refused && refused.message).not.toMatch(/loop|your code/i);
    await p.stop();
  });

  it("places a nested run beside its caller on a full runner, counted toward the caller's workspace", async () => {
    const { pool: p, place } = await pool();
    const first = await place("a");
    await place("a");
    const nested = await place("a", true);
    expect(nested).toMatchObject({ status: "placed" });
    expect(nested.status === "placed" && first.status === "placed" && nested.lease.url).toBe(
      first.status === "placed" && first.lease.url,
    );
    await p.stop();
  });

  it("drains: waiting placements end as cancelled because the Workshop is shutting down", async () => {
    const { pool: p, place } = await pool();
    await place("a");
    await place("a");
    const waiting = place("a");
    await p.drain(0);
    const ended = await waiting;
    expect("message" in ended && ended.message).toMatch(/shutting down/);
    expect(await place("b")).toMatchObject({ status: "error", kind: "cancelled" });
    await p.stop();
  });
});
