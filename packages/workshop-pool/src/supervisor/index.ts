export { RunnerPool, type PoolReport, type RunnerPoolOptions, type RunnerPoolStats } from "./runner-pool.ts";
export type { RunnerHandle, StartRunner } from "./runner-handle.ts";
export { servePool } from "./pool-server.ts";
