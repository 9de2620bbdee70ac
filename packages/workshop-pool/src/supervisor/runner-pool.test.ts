import type { ExecuteJob, ExecuteReply, IsolateEvent, IsolateEventSink } from "../protocol.ts";
import { EVENT_LINE_MARKER } from "../protocol.ts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type PoolReport, RunnerPool, type RunnerPoolOptions } from "./runner-pool.ts";
import { fakeRunners } from "../testing/fake-runner.ts";
import { MB, SMALL_POOL, testJob } from "../testing/pool-fixtures.ts";

const job = testJob;

function recordingSink() {
  const events: IsolateEvent[] = [];
  let batches = 0;
  const sink: IsolateEventSink = {
    started: () => {},
    log: () => {},
    error: () => {},
    events: (batch) => {
      batches++;
      events.push(...batch);
    },
    dropped: () => {},
  };
  return { sink, events, batches: () => batches };
}

const noCapabilities = { call: async () => ({ ok: false as const, error: "none" }) };

async function startPool(options: Partial<RunnerPoolOptions> = {}) {
  const runners = fakeRunners();
  const reports: [string, PoolReport][] = [];
  const pool = await RunnerPool.start({
    ...SMALL_POOL,
    start: runners.start,
    report: (workspace, report) => reports.push([workspace, report]),
    ...options,
  });
  const run = (j: ExecuteJob, sink = recordingSink().sink) => {
    const reply = pool.execute(j, sink, noCapabilities);
    let settled: ExecuteReply | undefined;
    void reply.then((value) => {
      settled = value;
    });
    return { job: j, reply, settled: () => settled };
  };
  return { pool, runners, reports, run, runnerOf: runners.runnerOf };
}

const ok: ExecuteReply = { status: "ok", result: "done", eventLines: 0 };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the runner pool", () => {
  it("refuses a workspace past its own cap with a message naming that cap, while another workspace runs", async () => {
    const { pool, run, runnerOf, runners } = await startPool();
    const a = Array.from({ length: 4 }, () => run(job("a")));
    // Two are on a's runner, two wait their turn: all four count.
    const aRunner = await runners.until(() => runners.all.find((runner) => runner.jobs.size === 2));
    const refused = await pool.execute(job("a"), recordingSink().sink, noCapabilities);
    expect(refused).toMatchObject({ status: "error", kind: "busy" });
    expect("message" in refused && refused.message).toMatch(/server is busy with this workspace's runs: .*4 runs/);
    expect("message" in refused && refused.message).not.toMatch(/loop|your code/i);
    const b = run(job("b"));
    (await runnerOf(b.job.runId)).jobs.get(b.job.runId)?.reply(ok);
    expect(await b.reply).toEqual(ok);
    for (const entry of a.slice(0, 2)) aRunner.jobs.get(entry.job.runId)?.reply(ok);
    await pool.stop();
  });

  it("refuses past the server's cap with a message naming the whole server", async () => {
    const { pool, run, runnerOf } = await startPool({ maxRuns: 3 });
    const running = ["a", "b", "c"].map((workspace) => run(job(workspace)));
    for (const entry of running) await runnerOf(entry.job.runId);
    const refused = await pool.execute(job("d"), recordingSink().sink, noCapabilities);
    expect("message" in refused && refused.message).toMatch(/server is busy: 3 runs from all workspaces/);
    await pool.stop();
  });

  it("starts a run's deadline when it starts executing, not while it waits its turn", async () => {
    const { pool, run, runnerOf } = await startPool({ size: 1, runsPerRunner: 1 });
    const first = run(job("a", 1000));
    const sink = recordingSink();
    const second = run(job("a", 1000), sink.sink);
    const firstRunner = await runnerOf(first.job.runId);
    await vi.advanceTimersByTimeAsync(900);
    firstRunner.jobs.get(first.job.runId)?.reply(ok);
    const secondRunner = await runnerOf(second.job.runId);
    // 900 ms waited + 900 ms running: past 1000 ms since it was handed over, within its own 1000 ms.
    await vi.advanceTimersByTimeAsync(900);
    expect(second.settled()).toBeUndefined();
    secondRunner.jobs.get(second.job.runId)?.reply(ok);
    expect(await second.reply).toEqual(ok);
    await pool.stop();
  });

  it("ends a run that waited too long as busy, saying the server is busy (not the run's code)", async () => {
    const { pool, run, runnerOf } = await startPool({ size: 1, runsPerRunner: 1, maxWaitMs: 2000 });
    const running = run(job("a", 10_000));
    const waiting = run(job("a", 10_000));
    await runnerOf(running.job.runId);
    await vi.advanceTimersByTimeAsync(2000);
    const reply = await waiting.reply;
    expect(reply).toMatchObject({ status: "error", kind: "busy" });
    expect("message" in reply && reply.message).toMatch(
      /server is busy: no runner was free .*this workspace's runners/,
    );
    await pool.stop();
  });

  it("serves waiting workspaces in turns: one workspace's backlog does not delay another's run", async () => {
    const { pool, run, runnerOf } = await startPool({
      size: 1,
      runsPerRunner: 1,
      maxRunsPerWorkspace: 10,
      maxRuns: 20,
    });
    const a = Array.from({ length: 5 }, () => run(job("a", 10_000)));
    const first = a[0]?.job.runId as string;
    const aRunner = await runnerOf(first);
    const b = run(job("b", 10_000));
    // a's first run ends: its runner is recycled for b (tenant affinity), b goes before a's backlog.
    aRunner.jobs.get(first)?.reply(ok);
    const bRunner = await runnerOf(b.job.runId);
    expect(aRunner.killed).toBe(true);
    expect(bRunner).not.toBe(aRunner);
    expect(bRunner.jobs.size).toBe(1);
    bRunner.jobs.get(b.job.runId)?.reply(ok);
    expect(await b.reply).toEqual(ok);
    await pool.stop();
  });

  it("kills a runner at the deadline of a run that spins, and ends its sibling naming the run that caused it", async () => {
    const { pool, run, runnerOf, runners } = await startPool();
    const sibling = run(job("a", 5000));
    const spinner = run(job("a", 1000));
    const runner = await runnerOf(spinner.job.runId);
    expect(await runnerOf(sibling.job.runId)).toBe(runner);
    runner.blocked = true;
    await vi.advanceTimersByTimeAsync(1000 + 10);
    expect(await spinner.reply).toMatchObject({ status: "error", kind: "timeout" });
    const other = await sibling.reply;
    expect(other).toMatchObject({ status: "error", kind: "cancelled" });
    expect("message" in other && other.message).toContain(spinner.job.runId);
    expect(runner.killed).toBe(true);
    // A fresh runner replaces it.
    await runners.started(4);
    expect(runners.alive()).toHaveLength(3);
    await pool.stop();
  });

  it("gives up only the overdue run when its runner still answers (it is waiting, not spinning)", async () => {
    const { pool, run, runnerOf } = await startPool();
    const sibling = run(job("a", 5000));
    const slow = run(job("a", 1000));
    const runner = await runnerOf(slow.job.runId);
    expect(await runnerOf(sibling.job.runId)).toBe(runner);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await slow.reply).toMatchObject({ status: "error", kind: "timeout" });
    expect(runner.killed).toBe(false);
    runner.jobs.get(sibling.job.runId)?.reply(ok);
    expect(await sibling.reply).toEqual(ok);
    await pool.stop();
  });

  it("ends a run the runtime found hung as a timeout at its deadline, without killing its runner", async () => {
    const { pool, run, runnerOf } = await startPool();
    const hung = run(job("a", 1000));
    const runner = await runnerOf(hung.job.runId);
    runner.jobs.get(hung.job.runId)?.reply({ status: "hung" });
    // The pool has heard the reply and holds the run until its deadline.
    await vi.advanceTimersByTimeAsync(999);
    expect(hung.settled()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(await hung.reply).toMatchObject({ status: "error", kind: "timeout" });
    expect(runner.killed).toBe(false);
    await pool.stop();
  });

  it("kills an idle runner that keeps spinning after its run, tells its workspace, and leaves others alone", async () => {
    const { pool, run, runnerOf, reports } = await startPool();
    const a = run(job("a"));
    const b = run(job("b", 10_000));
    const aRunner = await runnerOf(a.job.runId);
    const bRunner = await runnerOf(b.job.runId);
    aRunner.jobs.get(a.job.runId)?.reply(ok);
    expect(await a.reply).toEqual(ok);
    for (let i = 0; i < 10; i++) {
      aRunner.cpu += 100;
      bRunner.cpu += 100;
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(aRunner.killed).toBe(true);
    expect(bRunner.killed).toBe(false);
    expect(reports.map(([workspace, report]) => [workspace, report.kind])).toEqual([["a", "leftover-cpu"]]);
    bRunner.jobs.get(b.job.runId)?.reply(ok);
    expect(await b.reply).toEqual(ok);
    await pool.stop();
  });

  it("ends a run whose runner died under it with a clear outcome, and heals", async () => {
    const { pool, run, runnerOf, runners } = await startPool();
    const a = run(job("a"));
    const crashed = await runnerOf(a.job.runId);
    crashed.die("SIGKILL");
    const reply = await a.reply;
    expect(reply).toMatchObject({ status: "error", kind: "user", error: { name: "RunnerCrashed" } });
    expect(JSON.stringify(reply)).toContain("SIGKILL");
    await runners.started(4);
    expect(runners.alive()).toHaveLength(3);
    const next = run(job("a"));
    const nextRunner = await runnerOf(next.job.runId);
    expect(nextRunner).not.toBe(crashed);
    nextRunner.jobs.get(next.job.runId)?.reply(ok);
    expect(await next.reply).toEqual(ok);
    await pool.stop();
  });

  it("ends only the run whose reply its runner's link refused: the runner is kept, the run beside it ends ok", async () => {
    const { pool, run, runnerOf, runners } = await startPool();
    const sink = recordingSink();
    const deep = run(job("a"), sink.sink);
    const sibling = run(job("a"));
    const runner = await runnerOf(deep.job.runId);
    expect(await runnerOf(sibling.job.runId)).toBe(runner);
    runner.line(
      `${EVENT_LINE_MARKER}${JSON.stringify([deep.job.runId, "log", ["log", [{ t: "string", v: "before" }]]])}`,
    );
    runner.line(`${EVENT_LINE_MARKER}${JSON.stringify([deep.job.runId, "done", 1])}`);
    runner.jobs.get(deep.job.runId)?.refuse("Serialization exceeded maximum allowed depth.");
    const refused = await deep.reply;
    expect(refused).toMatchObject({
      status: "error",
      kind: "invalid",
      error: { name: "UnsendableReply", message: expect.stringContaining("maximum allowed depth") },
    });
    expect(sink.events).toHaveLength(1);
    expect(runner.killed).toBe(false);
    runner.jobs.get(sibling.job.runId)?.reply(ok);
    expect(await sibling.reply).toEqual(ok);
    const next = run(job("a"));
    expect(await runnerOf(next.job.runId)).toBe(runner);
    runner.jobs.get(next.job.runId)?.reply(ok);
    expect(await next.reply).toEqual(ok);
    expect(runners.all).toHaveLength(3);
    await pool.stop();
  });

  it("forwards event lines in batches and counts lines past the cap without forwarding them", async () => {
    const { pool, run, runnerOf } = await startPool();
    const sink = recordingSink();
    const a = run(job("a"), sink.sink);
    const runner = await runnerOf(a.job.runId);
    const line = (i: number) =>
      `${EVENT_LINE_MARKER}${JSON.stringify([a.job.runId, "log", ["log", [{ t: "number", v: i }]]])}`;
    for (let i = 0; i < 3000; i++) runner.line(line(i));
    runner.line(`${EVENT_LINE_MARKER}${JSON.stringify(["someone-else", "log", ["log", []]])}`);
    runner.line(`${EVENT_LINE_MARKER}${JSON.stringify([a.job.runId, "done", 3000])}`);
    runner.jobs.get(a.job.runId)?.reply({ ...ok, eventLines: 3000 });
    await a.reply;
    expect(sink.events).toHaveLength(2100);
    expect(sink.batches()).toBeLessThanOrEqual(Math.ceil(2100 / 256) + 1);
    await pool.stop();
  });

  it("runs a nested catalog run beside its caller and counts it toward the caller's workspace", async () => {
    const { pool, run, runnerOf } = await startPool({ size: 2, runsPerRunner: 1, maxRunsPerWorkspace: 2 });
    const parent = run(job("a"));
    const parentRunner = await runnerOf(parent.job.runId);
    const child = run(job("a", 1000, { nested: true, isolateKey: "a:agent-code" }));
    expect(await runnerOf(child.job.runId)).toBe(parentRunner);
    const refused = await pool.execute(job("a"), recordingSink().sink, noCapabilities);
    expect("message" in refused && refused.message).toMatch(/this workspace's runs: it already has 2 runs/);
    parentRunner.jobs.get(child.job.runId)?.reply(ok);
    expect(await child.reply).toEqual(ok);
    parentRunner.jobs.get(parent.job.runId)?.reply(ok);
    expect(await parent.reply).toEqual(ok);
    await pool.stop();
  });

  it("reads memory every few ms while runs start back to back: a bomb beside a stream of short runs is stopped", async () => {
    const { pool, run, runnerOf } = await startPool({ runsPerRunner: 4 });
    const bomb = run(job("a", 10_000));
    const runner = await runnerOf(bomb.job.runId);
    runner.rssBytes += 200 * MB;
    // A short run starts and ends every 4 ms: each start used to put the 10 ms sample off again.
    for (let i = 0; i < 10 && bomb.settled() === undefined; i++) {
      const short = run(job("a", 10_000));
      await runnerOf(short.job.runId);
      await vi.advanceTimersByTimeAsync(4);
      runner.jobs.get(short.job.runId)?.reply(ok);
      await short.reply;
    }
    expect(bomb.settled()).toMatchObject({ status: "error", kind: "memory" });
    await pool.stop();
  });

  it("drains: running and waiting runs end as cancelled because the Workshop is shutting down", async () => {
    const { pool, run, runnerOf } = await startPool({ size: 1, runsPerRunner: 1 });
    const running = run(job("a"));
    const waiting = run(job("a"));
    await runnerOf(running.job.runId);
    const drained = pool.drain();
    for (const entry of [running, waiting])
      expect(await entry.reply).toMatchObject({ kind: "cancelled", message: "The Workshop is shutting down." });
    await vi.advanceTimersByTimeAsync(20);
    await drained;
    await pool.stop();
  });
});
