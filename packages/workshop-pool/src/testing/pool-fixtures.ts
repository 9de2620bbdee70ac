/** What the runner pool's unit tests share: a job, and a small pool's options over fake runners. */

import type { ExecuteJob } from "../protocol.ts";
import type { RunnerPoolOptions } from "../supervisor/runner-pool.ts";

export const MB = 1024 * 1024;
let nextRun = 0;

/** A job of `workspaceId` with a fresh run id. */
export function testJob(workspaceId: string, timeoutMs = 1000, extra: Partial<ExecuteJob> = {}): ExecuteJob {
  return {
    runId: `run-${workspaceId}-${nextRun++}`,
    workspaceId,
    grants: {},
    isolateKey: `${workspaceId}:hash`,
    gadget: { hash: "hash", mainModule: "h.js", modules: { "h.js": "" } },
    payload: null,
    limits: { cpuMs: 1000, timeoutMs },
    ...extra,
  };
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
