import type { ExecuteJob, ExecuteResult, IsolateEventSink } from "../executors/executor.ts";

/** What a runner process offers its supervisor over Cap'n Web: execute one job in an isolate. */
export interface RunnerApi {
  execute(job: ExecuteJob, sink: IsolateEventSink): Promise<ExecuteResult>;
  ping(): Promise<"pong">;
}

/** What the supervisor of the runner pool offers the overseer. */
export interface RunnerPoolApi {
  /** Runs the job on a free runner; past the run's deadline or memory limit the runner is killed. */
  execute(job: ExecuteJob, sink: IsolateEventSink): Promise<ExecuteResult>;
  /** Stops a run: its runner is killed and replaced, so even a synchronous loop ends. */
  cancel(runId: string, reason: "timeout" | "cancelled"): Promise<boolean>;
}
