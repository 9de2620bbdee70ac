/**
 * An Executor runs one built gadget in a sandbox and reports how it went as data. The overseer owns
 * validation, building, event numbering and records; an executor only executes. Two kinds plug in:
 * the Worker Loader executor (isolates in this workerd, limits enforced by the platform on Cloudflare)
 * and a supervised runner pool for local runs that must survive runaway code.
 */

import type { GadgetGrants, JsonValue, LogLayout, LogLevel } from "@gadgets/workshop-shared/api";
import type { EncodedValue } from "@gadgets/workshop-shared/console-values";

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

export interface BuiltGadget {
  /** Content hash of the gadget's files and the harness: equal code, equal hash. */
  hash: string;
  mainModule: string;
  modules: Record<string, string>;
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

export interface ExecuteRequest extends ExecuteJob {
  sink: IsolateEventSink;
  /** Performs the run's capability calls; absent, every call is refused. */
  capabilities?: CapabilityHandler;
  /** Aborted when the run is cancelled or its deadline passes; the executor stops the code if it can. */
  signal: AbortSignal;
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

export interface Executor {
  execute(request: ExecuteRequest): Promise<ExecuteResult>;
  /**
   * A run is likely soon (a session or a shared link just opened): set up what the first run would
   * otherwise wait for. Optional, and never fails.
   */
  prepare?(): void;
}
