/**
 * What the runner pool's unit tests share: a small pool's options over fake runners, a Worker
 * session's listener that records what it hears, and the steps a Worker and a runner take to run a job
 * (placed by the pool, then started and ended on the runner by its control lines).
 */

import { END_STATE } from "../control-lines.ts";
import type { ExecuteResult, IsolateEvent, Lease, LeaseListener } from "../protocol.ts";
import type { RunnerPool, RunnerPoolOptions } from "../supervisor/runner-pool.ts";
import type { FakeRunner, fakeRunners } from "./fake-runner.ts";

export const MB = 1024 * 1024;
let nextRun = 0;

/** A fresh run id of `workspaceId`. */
export function testRunId(workspaceId: string): string {
  return `run-${workspaceId}-${nextRun++}`;
}

/** Three runners, one per workspace, two runs each: every cap is reached with a handful of runs. */
export const SMALL_POOL: Omit<RunnerPoolOptions, "start"> = {
  size: 3,
  runsPerRunner: 2,
  runnersPerWorkspace: 1,
  maxRunsPerWorkspace: 4,
  maxRuns: 6,
  maxWaitMs: 5000,
  memoryLimitBytes: 128 * MB,
  recycleAfterRuns: 1000,
};

/** What a Worker session holding leases hears from the pool; `changed` is told after each message. */
export function recordingListener(changed: () => void = () => {}) {
  const heard = {
    events: new Map<string, IsolateEvent[]>(),
    /** `events` calls per run. */
    batches: new Map<string, number>(),
    eventsSent: new Set<string>(),
    stopped: new Map<string, ExecuteResult>(),
    revoked: new Set<string>(),
  };
  const listener: LeaseListener = {
    events: (runId, batch) => {
      heard.events.set(runId, [...(heard.events.get(runId) ?? []), ...batch]);
      heard.batches.set(runId, (heard.batches.get(runId) ?? 0) + 1);
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

/** A run the pool placed, and what its runner writes for it. */
export interface PlacedRun {
  runId: string;
  lease: Lease;
  runner: FakeRunner;
  /** Its start line, as the runner writes it on taking the job: its deadline counts from here. */
  start(): void;
  /** Its end line: the event lines it wrote, or that the runtime found it can never settle. */
  end(eventLines?: number, hung?: boolean): void;
}

export interface RunOptions {
  timeoutMs?: number;
  nested?: boolean;
  runId?: string;
}

/** Places a run of `workspace` as a Worker session does; fails the test if it is not placed. */
export async function placeRun(
  pool: RunnerPool,
  runners: ReturnType<typeof fakeRunners>,
  listener: LeaseListener,
  workspace: string,
  options: RunOptions = {},
): Promise<PlacedRun> {
  const runId = options.runId ?? testRunId(workspace);
  const placement = await pool.place(runId, workspace, options.nested ?? false, listener);
  if (placement.status !== "placed") throw new Error(`${runId} not placed: ${JSON.stringify(placement)}`);
  const { lease } = placement;
  const runner = runners.runnerAt(lease.url);
  if (!runner) throw new Error(`no runner at ${lease.url}`);
  return {
    runId,
    lease,
    runner,
    start: () => runner.control(runId, "start", [lease.leaseId, options.timeoutMs ?? 1000]),
    end: (eventLines = 0, hung = false) =>
      runner.control(runId, "end", [eventLines, hung ? END_STATE.hung : END_STATE.done]),
  };
}

/** Places a run and starts it on its runner, as the Worker and the runner do when the job is sent. */
export async function startRun(
  pool: RunnerPool,
  runners: ReturnType<typeof fakeRunners>,
  listener: LeaseListener,
  workspace: string,
  options: RunOptions = {},
): Promise<PlacedRun> {
  const run = await placeRun(pool, runners, listener, workspace, options);
  run.start();
  return run;
}
