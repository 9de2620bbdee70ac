/**
 * The local execution layer's protocol: what crosses between the Worker, the supervisor and a runner
 * (see README.md for the states and sequences). The in-process executor speaks the same job and
 * result shapes.
 */

import type { GadgetGrants, JsonValue, LogLayout, LogLevel } from "@gadgets/workshop-shared/api";
import type { EncodedValue } from "@gadgets/workshop-shared/console-values";

/**
 * Starts every event line the harness writes to the process's stdout (the runner pool's channel):
 * `<marker>[runId, kind, data]`. A line is written synchronously, so it leaves the isolate even when
 * the gadget then spins for ever.
 */
export const EVENT_LINE_MARKER = "\u001eGWEV1 ";

/** What the sandboxed code reported about a thrown value, before stack mapping. */
export interface RawError {
  name: string;
  message: string;
  stack: string;
}

/** One console call or uncaught error, as the runner pool forwards them in batches. */
export type IsolateEvent =
  | { kind: "log"; level: LogLevel; values: EncodedValue[]; layout?: LogLayout }
  | { kind: "error"; error: RawError; uncaught: boolean };

/** Receives what the isolate emits while it runs. Called over RPC from inside the isolate. */
export interface IsolateEventSink {
  /**
   * The run starts executing now: the overseer's deadline counts from here. An executor that enforces
   * the deadline itself from when the run starts (the runner pool) need not call it.
   */
  started(): void;
  /** `layout` only when the line has one (grouped, a group's label, a table). */
  log(level: LogLevel, values: EncodedValue[], layout?: LogLayout): void;
  error(error: RawError, uncaught: boolean): void;
  /** Several events at once, in order: one call per batch instead of one per event. */
  events(batch: IsolateEvent[]): void;
  /** The isolate's running count of console calls it dropped past the event cap. */
  dropped(total: number): void;
}

/**
 * A gadget's code as sent to another process. `modules` may be left out when the receiver already has
 * the code for `hash`; a receiver that does not answers `missing-code` and gets it on the retry.
 */
export interface GadgetCode {
  hash: string;
  mainModule: string;
  modules?: Record<string, string>;
}

/**
 * A call from a gadget's `env` to a granted capability. The isolate only asks; the overseer decides
 * and performs it, outside the sandbox, and traces it in the run's event stream.
 */
export type CapabilityCall =
  | { capability: "kv"; op: "get" | "put" | "delete" | "list"; key?: string; value?: string; prefix?: string }
  | { capability: "fetch"; url: string; method: string; headers: [string, string][]; body?: Uint8Array }
  | { capability: "catalog"; ref: string; payload: JsonValue };

export type CapabilityReply = { ok: true; value: unknown } | { ok: false; error: string };

export interface CapabilityHandler {
  call(call: CapabilityCall): Promise<CapabilityReply>;
}

/** The part of a request that can cross a process boundary (no sink, no signal). */
export interface ExecuteJob {
  runId: string;
  /**
   * Whom the run is charged to: the workspace that started it (a catalog call's nested runs count
   * toward the caller's workspace; an anonymous visitor of a shared link is a workspace of its own).
   */
  workspaceId: string;
  /** What the manifest was granted: the harness builds `env` from exactly this. */
  grants: GadgetGrants;
  /**
   * `env.secrets`: the values of the names `grants.secrets` lists that are set (present only when that
   * grant is). Carried with the job and nowhere else: never logged, never written to a process's output.
   */
  secrets?: Record<string, string>;
  /** A catalog call inside another run (which holds a runner meanwhile). */
  nested?: boolean;
  /** Isolates are reused only for the same key; it always includes the workspace. */
  isolateKey: string;
  gadget: GadgetCode;
  payload: JsonValue;
  limits: { cpuMs: number; timeoutMs: number };
}

/** Whether a gadget was granted any capability: one granted none never calls out, so no channel is made for it. */
export function hasGrants(grants: GadgetGrants): boolean {
  return Boolean(grants.kv || grants.fetch || grants.catalog);
}

export type ExecuteResult = (
  | { status: "ok"; result: JsonValue }
  | { status: "error"; kind: "user" | "invalid"; error: RawError }
  | { status: "error"; kind: "timeout" | "cpu" | "memory" | "cancelled" | "busy"; message: string }
) & {
  /** Console calls the isolate only counted, past the per-run event cap. */
  droppedEvents?: number;
};

/**
 * What a runner or the pool answers: a result (with the number of event lines the run wrote, so the
 * reader knows when it has them all), or a request for the code it does not have.
 */
export type ExecuteReply =
  | (ExecuteResult & { eventLines?: number })
  | { status: "missing-code" }
  /** The runtime found that the run can never settle: whoever holds the deadline ends it as `timeout` then. */
  | { status: "hung"; eventLines?: number };

/**
 * What a runner offers its supervisor on the supervisor's own link (`/run/<secret>`). No job travels
 * here: every run reaches a runner from the Worker, on a lease (see RunnerLaneApi).
 */
export interface RunnerControlApi {
  /** Answers unless a run keeps the runner's thread busy. */
  ping(): Promise<"pong">;
  /** Opens the runner's lane to the one workspace it serves, at most `maxRuns` runs at once in all. */
  assign(workspaceId: string, maxRuns: number): Promise<void>;
  /** Closes the lane; resolves once the jobs already taken have ended. */
  close(): Promise<void>;
}

/** A job as the Worker sends it to a runner, on a lease. */
export interface LaneJob extends ExecuteJob {
  /** So the supervisor sends its events and outcome to the Worker session that sent it. */
  leaseId: string;
  /** The supervisor placed this run here (`place`) and keeps room for it: it takes no turn. */
  placed?: boolean;
}

/**
 * A runner's answer on its lane: a reply, or that it did not take the job. Every refusal is the
 * runner's own decision, made before the job's start line: a refused job never starts, so it may be
 * sent again.
 */
export type LaneReply = ExecuteReply | { status: "refused"; reason: "closed" | "full" | "not-assigned" };

/** What a runner offers the Worker on its lane (`/lane/<secret>`). */
export interface RunnerLaneApi {
  /** `capabilities` is null for a gadget granted none: no stub crosses the wire for it. */
  execute(job: LaneJob, capabilities: CapabilityHandler | null): Promise<LaneReply>;
}

/**
 * Where a Worker session may send one workspace's runs: a runner that serves only that workspace. The
 * supervisor watches every run there (it reads each run's start and end from the runner's stdout) and
 * stops it at its deadline or memory limit.
 */
export interface Lease {
  leaseId: string;
  /** `http://127.0.0.1:<port>/lane/<secret>` of the runner. */
  url: string;
}

/** The answer to `place`: a lease on the runner that keeps room for the run, or why the run cannot run. */
export type Placement = { status: "placed"; lease: Lease } | ExecuteResult;

/**
 * What the supervisor tells a Worker session about the runs it sent on its leases. A Worker session
 * serves it as its Cap'n Web main object, so the supervisor holds it for as long as the session lives.
 */
export interface LeaseListener {
  /** A run's events, read from its runner's stdout (in batches, in order). */
  events(runId: string, batch: IsolateEvent[]): void;
  dropped(runId: string, total: number): void;
  /** Every event line of the run has been forwarded. */
  eventsSent(runId: string): void;
  /** The supervisor stopped the run (deadline, memory, cancel, or its runner was stopped): its outcome. */
  stopped(runId: string, result: ExecuteResult): void;
  /** The lease is over: send no more runs on it. */
  revoked(leaseId: string): void;
}

/**
 * What became of a run whose Worker lost its link to the runner before the reply came, as the
 * supervisor knows it once that runner is gone and every line it wrote has been read: the outcome it
 * gave the run; that the run completed (its reply is lost with the link); that it never started and
 * never will (no start line, and none can come any more: so it may be sent again); or nothing.
 */
export type RunFate =
  | { status: "stopped"; result: ExecuteResult }
  | { status: "completed" }
  | { status: "never-started" }
  | { status: "unknown" };

/** What the supervisor of the runner pool offers a Worker session (`/pool`). */
export interface RunnerPoolApi {
  /**
   * Waits the workspace's turn (fair between workspaces, bounded) for room on one of its runners,
   * keeps that room for the run, and answers this session's lease on that runner.
   */
  place(runId: string, workspaceId: string, nested: boolean): Promise<Placement>;
  /** The placed run will not be sent where it was placed (refused there, or no lane opened): its room is freed. */
  unplace(runId: string): Promise<void>;
  /**
   * Stops a run: its runner is killed and replaced, so even a synchronous loop ends. `leaseId` names
   * the lease the run was sent on: should its start line not have been read yet, that runner takes no
   * new run, since it is about to be killed.
   */
  cancel(runId: string, reason: "timeout" | "cancelled", leaseId?: string): Promise<boolean>;
  /**
   * The fate of a run whose link to the runner of `leaseId` broke before its reply came. That runner
   * is stopped (nobody could hear its replies any more), and the answer waits until its output has
   * been read to the end: no clock decides whether a job ran.
   */
  fate(runId: string, leaseId: string): Promise<RunFate>;
  /** The Worker stopped using a lease (its lane broke or was refused): the pool forgets it. */
  releaseLease(leaseId: string): Promise<void>;
}
