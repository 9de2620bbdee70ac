import type { CapabilityHandler, ExecuteJob, ExecuteReply, IsolateEventSink } from "../executors/executor.ts";

export { EVENT_LINE_MARKER } from "../isolate/harness/contract.ts";

/**
 * What a runner process offers its supervisor over Cap'n Web: execute one job in an isolate. Events
 * do not come back over this session: the isolate writes them to the runner's stdout as lines
 * starting with EVENT_LINE_MARKER, which the supervisor reads and forwards.
 */
export interface RunnerApi {
  /** `capabilities` is null for a gadget granted none: no stub crosses the wire for it. */
  execute(job: ExecuteJob, capabilities: CapabilityHandler | null): Promise<ExecuteReply>;
  ping(): Promise<"pong">;
}

/** What the supervisor of the runner pool offers the overseer. */
export interface RunnerPoolApi {
  /** Runs the job on a free runner; past the run's deadline or memory limit the runner is killed. */
  execute(job: ExecuteJob, sink: IsolateEventSink, capabilities: CapabilityHandler | null): Promise<ExecuteReply>;
  /** Stops a run: its runner is killed and replaced, so even a synchronous loop ends. */
  cancel(runId: string, reason: "timeout" | "cancelled"): Promise<boolean>;
}
