/**
 * Starts the local runner pool with the Workshop's defaults, and carries the pool's reports about a
 * workspace (work it left running that had to be stopped) to the Worker, which files them with that
 * workspace's error reports.
 */

import { availableParallelism } from "node:os";
import {
  POOL_MAX_RUNS,
  POOL_RUNNERS_PER_WORKSPACE,
  POOL_RUNS_PER_WORKSPACE,
  RUN_MEMORY_LIMIT_BYTES,
  RUN_QUEUE_WAIT_MS,
  RUNNER_RECYCLE_AFTER_RUNS,
  RUNS_PER_RUNNER,
} from "@gadgets/workshop-shared/limits";
import { startRunner } from "./runner-process.ts";
import { type PoolReport, RunnerPool, type RunnerPoolOptions } from "@gadgets/workshop-pool/supervisor";

export type PoolOptions = Partial<Omit<RunnerPoolOptions, "start" | "onOutput" | "report">>;

/**
 * Runner processes by default: two per core, at least 8 — a runner serves one workspace at a time, so
 * this is how many workspaces run without waiting for a runner to be recycled (≈ 60 MB each, idle).
 */
const defaultSize = () => Math.max(8, availableParallelism() * 2);

export function startPool(
  options: PoolOptions | undefined,
  bundle: string,
  hooks: Pick<RunnerPoolOptions, "onOutput" | "report">,
): Promise<RunnerPool> {
  const memoryLimitBytes = options?.memoryLimitBytes ?? RUN_MEMORY_LIMIT_BYTES;
  // The V8 heap flag is a backstop at twice the run limit; the supervisor's RSS check acts first.
  const heapLimitMb = Math.max(64, Math.round((memoryLimitBytes * 2) / (1024 * 1024)));
  return RunnerPool.start({
    size: options?.size ?? defaultSize(),
    runsPerRunner: options?.runsPerRunner ?? RUNS_PER_RUNNER,
    runnersPerWorkspace: options?.runnersPerWorkspace ?? POOL_RUNNERS_PER_WORKSPACE,
    maxRunsPerWorkspace: options?.maxRunsPerWorkspace ?? POOL_RUNS_PER_WORKSPACE,
    maxRuns: options?.maxRuns ?? POOL_MAX_RUNS,
    maxWaitMs: options?.maxWaitMs ?? RUN_QUEUE_WAIT_MS,
    memoryLimitBytes,
    recycleAfterRuns: options?.recycleAfterRuns ?? RUNNER_RECYCLE_AFTER_RUNS,
    start: (onLine) => startRunner(bundle, heapLimitMb, onLine),
    ...hooks,
  });
}

/** Sends pool reports to the Worker's host-only route; a report that cannot be delivered is logged. */
export function poolReporter(
  url: string,
  secret: string,
  log: (line: string) => void,
): (workspaceId: string, report: PoolReport) => void {
  return (workspaceId, report) => {
    fetch(`${url}/__workshop/pool-report`, {
      method: "POST",
      headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
      body: JSON.stringify({ workspaceId, ...report }),
    })
      .then((response) => {
        if (!response.ok) log(`pool report for a workspace was refused (${response.status})`);
      })
      .catch((error: unknown) => log(`pool report could not be sent: ${String(error)}`));
  };
}
