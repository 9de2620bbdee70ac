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

/**
 * A direct job may start on its runner only this long after the Worker sent it; later it is refused
 * unstarted. So a Worker that has heard nothing by then (the runner is blocked by a spinning run) can
 * learn from the supervisor, which reads every start line, that the job will never start — and send
 * it elsewhere without ever running it twice.
 */
export const DIRECT_START_WITHIN_MS = 100;
/** How long after that the supervisor allows a start line to take through the pipe before answering. */
export const START_LINE_MARGIN_MS = 50;

/** A job sent on a lease: which lease, so the supervisor sends its events and verdict to the right Worker session. */
export interface DirectJob extends ExecuteJob {
  leaseId: string;
  /** The Worker's clock when it sent the job: it starts by `sentAt + DIRECT_START_WITHIN_MS` or never. */
  sentAt: number;
}

/** A runner's answer on the direct lane: a reply, or that it did not take the job (it never started). */
export type DirectReply = ExecuteReply | { status: "refused"; reason: "closed" | "full" | "not-assigned" | "late" };

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
 * What became of a direct run the Worker has no reply for, as far as the supervisor knows: the outcome
 * it gave it; still running, or finished (its reply is the runner's to send); or that it never started
 * and never will (so it may be sent elsewhere).
 */
export type DirectFate =
  | { status: "ended"; result: ExecuteResult }
  | { status: "running" }
  | { status: "finished" }
  | { status: "never-started" };

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
   * A direct run's fate, for a Worker with no reply (its runner is silent, or went away): answered once
   * no start line sent by `startBy` can still be in the pipe.
   */
  fate(runId: string, startBy: number): Promise<DirectFate>;
  /** The Worker stopped using a lease (its lane broke or was refused): the pool forgets it. */
  releaseLease(leaseId: string): Promise<void>;
}
