import type {
  CapabilityHandler,
  ExecuteJob,
  ExecuteReply,
  ExecuteResult,
  IsolateEvent,
  IsolateEventSink,
} from "../executors/executor.ts";

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
  /**
   * Opens the runner's direct lane to the Worker for the one workspace it serves: from now on it also
   * takes that workspace's jobs straight from the Worker, at most `maxRuns` at once in all.
   */
  assign(workspaceId: string, maxRuns: number): Promise<void>;
  /** Closes the direct lane; resolves once the direct jobs already taken have ended. */
  close(): Promise<void>;
}

/** A job sent on a lease: which lease, so the supervisor sends its events and verdict to the right Worker session. */
export interface DirectJob extends ExecuteJob {
  leaseId: string;
}

/**
 * A runner's answer on the direct lane: a reply, or that it did not take the job. A refusal is the
 * runner's own decision, made before the job could start: it never starts there, so it may be sent again.
 */
export type DirectReply = ExecuteReply | { status: "refused"; reason: "closed" | "full" | "not-assigned" };

/** What a runner offers the Worker on its direct lane (`/direct/<secret>`). */
export interface DirectRunnerApi {
  execute(job: DirectJob, capabilities: CapabilityHandler | null): Promise<DirectReply>;
}

/**
 * Where the Worker may send one workspace's runs itself: a runner that serves only that workspace.
 * The supervisor still watches every run there (it learns of each run's start and end from the
 * runner's stdout) and stops it at its deadline or memory limit.
 */
export interface Lease {
  leaseId: string;
  /** `http://127.0.0.1:<port>/direct/<secret>` of the runner. */
  url: string;
}

/** What the supervisor tells a Worker session about the runs it sent on its leases. */
export interface LeaseListener {
  /** A run's events, read from its runner's stdout (in batches, in order). */
  events(runId: string, batch: IsolateEvent[]): void;
  dropped(runId: string, total: number): void;
  /** Every event line of the run has been sent. */
  finished(runId: string): void;
  /** The supervisor ended the run (deadline, memory, cancel, or its runner was stopped): this is its outcome. */
  ended(runId: string, result: ExecuteResult): void;
  /** The lease is over: send no more runs on it. */
  revoked(leaseId: string): void;
}

/**
 * What became of a direct run whose link to its runner broke before its reply came, as the supervisor
 * knows it once that runner is gone and every line it wrote has been read: the outcome it gave the run;
 * that it finished (its reply is lost with the link); that it never started and never will (no start
 * line, and no line can come any more: so it may be sent again); or nothing (the lease is unknown).
 */
export type DirectFate =
  | { status: "ended"; result: ExecuteResult }
  | { status: "finished" }
  | { status: "never-started" }
  | { status: "unknown" };

/** What the supervisor of the runner pool offers the overseer. */
export interface RunnerPoolApi {
  /** Runs the job on a free runner; past the run's deadline or memory limit the runner is killed. */
  execute(job: ExecuteJob, sink: IsolateEventSink, capabilities: CapabilityHandler | null): Promise<ExecuteReply>;
  /**
   * Stops a run: its runner is killed and replaced, so even a synchronous loop ends. `leaseId` names
   * the lease a direct run was sent on: should its start line not have been read yet, that runner
   * takes no new run, since it is about to be killed.
   */
  cancel(runId: string, reason: "timeout" | "cancelled", leaseId?: string): Promise<boolean>;
  /**
   * A lease on a runner this workspace already holds, for runs sent straight to it; null when it
   * holds none with room (the next run goes through `execute`, which may get it one).
   */
  lease(workspaceId: string, listener: LeaseListener): Promise<Lease | null>;
  /**
   * A direct run's fate, for a Worker whose link to the runner of `leaseId` broke before the run's
   * reply came. That runner is stopped (nobody could hear its replies any more), and the answer waits
   * until its output has been read to the end: no clock decides whether a job ran.
   */
  fate(runId: string, leaseId: string): Promise<DirectFate>;
  /** The Worker stopped using a lease (its lane broke or was refused): the pool forgets it. */
  releaseLease(leaseId: string): Promise<void>;
}
